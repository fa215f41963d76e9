#!/usr/bin/env bash
# Records the maven fixtures: real `mvn test` runs of four small projects,
# written out below, with Debian's Maven 3.8.7, maven-surefire-plugin 2.22.3
# and JUnit 4.13.2 from Debian's local repository (apt-get install maven
# libsurefire-java libmaven-compiler-plugin-java libmaven-resources-plugin-java
# junit4; Maven Central is not reachable here, so every project runs offline
# against /usr/share/maven-repo). Paths are rewritten from the recording
# directory to /src; ANSI colour codes are kept as Maven printed them.
#
# Usage: collectors/testdata/maven/record.sh   (from anywhere; writes here, and
# the Surefire reports of the first project to ../junit/surefire-*.xml)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pom() { # pom ARTIFACT [EXTRA-DEPENDENCIES] [PARENT-OR-MODULES] [SUREFIRE-CONFIGURATION]
  cat <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  ${3:-}
  <groupId>ex</groupId><artifactId>$1</artifactId><version>1.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
    ${2:-}
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version>${4:-}</plugin>
  </plugins></build>
</project>
POM
}
java() { # java DIR/Path.java: the class from stdin
  mkdir -p "$(dirname "$1")"
  cat >"$1"
}
calc() { # calc DIR: the production class
  java "$1/src/main/java/ex/Calc.java" <<'J'
package ex;
public class Calc { public static int add(int a, int b) { return a + b; } }
J
}
record() { # record DIR NAME: runs the collector's command, keeps its output
  (cd "$1" && mvn -B -ntp -o -Dmaven.repo.local=/usr/share/maven-repo -Dmaven.test.failure.ignore=true --fail-at-end test >"$here/$2.txt" 2>&1) || true
  sed -i "s#$1#/src#g; s#$work#/src#g" "$here/$2.txt"
}

# 1. calc: CalcTest passes twice; FailTest has a failure, an error and an
#    ignored test.
d=$work/calc; mkdir -p "$d"; pom calc >"$d/pom.xml"; calc "$d"
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
record "$d" mvn-test
for c in CalcTest FailTest; do
  sed "s#$work/calc#/src#g; s#$work#/src#g" "$d/target/surefire-reports/TEST-ex.$c.xml" >"$here/../junit/surefire-ex.$c.xml"
done

# 2. exiter: ExitTest.b calls System.exit(0); surefire's forked JVM dies,
#    ExitTest writes no report, and with testFailureIgnore the build passes.
d=$work/exiter; mkdir -p "$d"; pom exiter >"$d/pom.xml"; calc "$d"
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
record "$d" mvn-test-exit

# 3. shop: modules core and api (api depends on core); a test of core does
#    not compile, so core fails and api is skipped.
d=$work/shop; mkdir -p "$d/core" "$d/api"
cat >"$d/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>ex</groupId><artifactId>shop</artifactId><version>1.0</version><packaging>pom</packaging>
  <modules><module>core</module><module>api</module></modules>
</project>
POM
pom core "" >"$d/core/pom.xml"; calc "$d/core"
pom api '<dependency><groupId>ex</groupId><artifactId>core</artifactId><version>1.0</version></dependency>' >"$d/api/pom.xml"
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
record "$d" mvn-test-no-build

# 4. lost: a dependency that no repository here holds.
d=$work/lost; mkdir -p "$d"
pom lost '<dependency><groupId>com.example</groupId><artifactId>missing</artifactId><version>1.0</version></dependency>' >"$d/pom.xml"; calc "$d"
record "$d" mvn-test-unresolved

# 5. inproc: exiter's tests run inside Maven's own JVM (forkCount 0): the
#    System.exit(0) ends mvn itself, with status 0, in the middle of its log.
d=$work/inproc; mkdir -p "$d"; pom inproc "" "" "<configuration><forkCount>0</forkCount></configuration>" >"$d/pom.xml"; calc "$d"
cp -r "$work/exiter/src/test" "$d/src/"
record "$d" mvn-test-exit-inproc
