#!/usr/bin/env bash
# Records the gradle fixtures: real `gradle test` runs of four small projects,
# written out below, with Debian's Gradle 4.4.1 (apt-get install gradle junit4)
# on OpenJDK 17, JUnit 4.13.2 resolved from Debian's local Maven repository
# (/usr/share/maven-repo; no network is reachable here). Paths are rewritten
# from the recording directory to /src.
#
# Usage: collectors/testdata/gradle/record.sh   (from anywhere; writes here, and
# the JUnit reports of the first project to ../junit/gradle-*.xml)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() { # build [EXTRA-DEPENDENCIES]
  cat <<GRADLE
apply plugin: 'java'
repositories { maven { url 'file:///usr/share/maven-repo' } }
dependencies {
  testCompile 'junit:junit:4.13.2'
  ${1:-}
}
GRADLE
}
java() { # java PATH: the class from stdin
  mkdir -p "$(dirname "$1")"
  cat >"$1"
}
calc() { # calc DIR: the production class
  java "$1/src/main/java/ex/Calc.java" <<'J'
package ex;
public class Calc { public static int add(int a, int b) { return a + b; } }
J
}
# The collector's init script (internal/collect.GradleInitScript): each test's
# start and result logged.
cat >"$work/ralph-gate-init.gradle" <<'INIT'
gradle.projectsEvaluated { rootProject.allprojects { tasks.withType(Test) { testLogging { events "started", "passed", "skipped", "failed" }; def only = System.getenv("RALPH_GATE_GRADLE_TESTS"); if (only) { filter { only.split(",").each { c -> includeTestsMatching("*" + c) }; failOnNoMatchingTests = false } } } } }
INIT
record() { # record DIR NAME: runs the collector's command, keeps its output
  (cd "$1" && gradle --init-script "$work/ralph-gate-init.gradle" test --continue --console=plain --no-daemon >"$here/$2.txt" 2>&1) || true
  sed -i "s#$1#/src#g; s#$work#/src#g" "$here/$2.txt"
}

# 1. calc: CalcTest passes twice; FailTest has a failure, an error and an
#    ignored test. gradle exits 1 ("There were failing tests").
d=$work/calc; mkdir -p "$d"; build >"$d/build.gradle"; echo "rootProject.name = 'calc'" >"$d/settings.gradle"; calc "$d"
java "$d/src/test/java/ex/CalcTest.java" <<'J'
package ex;
import org.junit.Test;
import static org.junit.Assert.*;
public class CalcTest {
  @Test public void adds() { assertEquals(3, Calc.add(1, 2)); }
  @Test public void addsNegative() { assertEquals(-1, Calc.add(1, -2)); }
}
J
java "$d/src/test/java/ex/FailTest.java" <<'J'
package ex;
import org.junit.Ignore;
import org.junit.Test;
import static org.junit.Assert.*;
public class FailTest {
  @Test public void fails() { assertEquals(4, Calc.add(1, 2)); }
  @Test public void errs() { throw new IllegalStateException("boom"); }
  @Ignore("needs the network") @Test public void fetches() { }
}
J
record "$d" gradle-test
for c in CalcTest FailTest; do
  sed "s#$work/calc#/src#g; s#$work#/src#g" "$d/build/test-results/test/TEST-ex.$c.xml" >"$here/../junit/gradle-ex.$c.xml"
done

# 2. exiter: ExitTest.b calls System.exit(0). Gradle 4.4.1 says BUILD
#    SUCCESSFUL and exits 0; ExitTest, and the classes after it, have no report.
d=$work/exiter; mkdir -p "$d"; build >"$d/build.gradle"; echo "rootProject.name = 'exiter'" >"$d/settings.gradle"; calc "$d"
java "$d/src/test/java/ex/CalcTest.java" <<'J'
package ex;
import org.junit.Test;
import static org.junit.Assert.*;
public class CalcTest {
  @Test public void adds() { assertEquals(3, Calc.add(1, 2)); }
}
J
java "$d/src/test/java/ex/ExitTest.java" <<'J'
package ex;
import org.junit.Test;
import static org.junit.Assert.*;
public class ExitTest {
  @Test public void a() { assertEquals(2, Calc.add(1, 1)); }
  @Test public void b() { if (Calc.add(2, 2) != 4) { return; } System.exit(0); }
}
J
record "$d" gradle-test-exit

# 3. shop: projects core and api (api depends on core); a test of core does
#    not compile; api's tests still run (--continue); gradle exits 1.
d=$work/shop; mkdir -p "$d/core" "$d/api"
printf "rootProject.name = 'shop'\ninclude 'core', 'api'\n" >"$d/settings.gradle"
cat >"$d/build.gradle" <<'GRADLE'
subprojects {
  apply plugin: 'java'
  repositories { maven { url 'file:///usr/share/maven-repo' } }
  dependencies { testCompile 'junit:junit:4.13.2' }
}
project(':api') { dependencies { compile project(':core') } }
GRADLE
calc "$d/core"
java "$d/core/src/test/java/ex/CoreTest.java" <<'J'
package ex;
import org.junit.Test;
import static org.junit.Assert.*;
public class CoreTest {
  @Test public void adds() { assertEquals(3, Calc.add(1, 2, 3)); }
}
J
java "$d/api/src/test/java/ex/ApiTest.java" <<'J'
package ex;
import org.junit.Test;
import static org.junit.Assert.*;
public class ApiTest {
  @Test public void adds() { assertEquals(3, Calc.add(1, 2)); }
}
J
record "$d" gradle-test-no-build

# 4. lost: a dependency that no repository here holds.
d=$work/lost; mkdir -p "$d"; build "testCompile 'com.example:missing:1.0'" >"$d/build.gradle"; echo "rootProject.name = 'lost'" >"$d/settings.gradle"; calc "$d"
java "$d/src/test/java/ex/CalcTest.java" <<'J'
package ex;
import org.junit.Test;
import static org.junit.Assert.*;
public class CalcTest {
  @Test public void adds() { assertEquals(3, Calc.add(1, 2)); }
}
J
record "$d" gradle-test-unresolved

# 5. crasher: ExitTest.b calls System.exit(3): the test task fails outside any
#    test ("Process 'Gradle Test Executor 1' finished with non-zero exit value 3").
d=$work/crasher; mkdir -p "$d"; build >"$d/build.gradle"; echo "rootProject.name = 'crasher'" >"$d/settings.gradle"; calc "$d"
java "$d/src/test/java/ex/ExitTest.java" <<'J'
package ex;
import org.junit.Test;
import static org.junit.Assert.*;
public class ExitTest {
  @Test public void a() { assertEquals(2, Calc.add(1, 1)); }
  @Test public void b() { System.exit(3); }
}
J
record "$d" gradle-test-crash
