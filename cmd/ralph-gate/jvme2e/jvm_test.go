package jvme2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// debianMavenRepo is Debian's local Maven repository: Maven Central is not
// reachable here, so the Java projects of these tests resolve JUnit and
// Maven's plugins from the packages .ci/run installs (maven,
// libsurefire-java, libmaven-compiler-plugin-java,
// libmaven-resources-plugin-java, junit4), offline, through their own
// .mvn/maven.config as a project would.
const debianMavenRepo = "/usr/share/maven-repo"

// needMaven skips without mvn and Debian's repository of plugins, unless
// RALPH_GATE_REQUIRE_MAVEN is set (.ci/run sets it), where it fails: CI
// never skips the Java tests silently.
func needMaven(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("mvn"); err != nil {
		missingTool(t, "RALPH_GATE_REQUIRE_MAVEN", "no mvn on PATH (apt-get install maven)")
	}
	for _, p := range []string{
		"/junit/junit/4.13.2",
		"/org/apache/maven/plugins/maven-surefire-plugin/2.22.3",
		"/org/apache/maven/plugins/maven-compiler-plugin/3.10.1",
		"/org/apache/maven/plugins/maven-resources-plugin/3.3.0",
	} {
		if _, err := os.Stat(debianMavenRepo + p); err != nil {
			missingTool(t, "RALPH_GATE_REQUIRE_MAVEN", "no "+debianMavenRepo+p+" (apt-get install junit4 libsurefire-java libmaven-compiler-plugin-java libmaven-resources-plugin-java)")
		}
	}
}

func mavenPom(surefire string) string {
	return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>ex</groupId><artifactId>calc</artifactId><version>1.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version>` + surefire + `</plugin>
  </plugins></build>
</project>
`
}

const (
	calcJava = `package ex;

public class Calc {
    public static int add(int a, int b) {
        return a + b;
    }
}
`
	calcTestJava = `package ex;

import org.junit.Test;
import static org.junit.Assert.assertEquals;

public class CalcTest {
    @Test
    public void adds() {
        assertEquals(3, Calc.add(1, 2));
    }

    @Test
    public void addsNegatives() {
        assertEquals(-1, Calc.add(1, -2));
    }
}
`
	// forgedReport is what Surefire writes for CalcTest when both tests
	// pass, as a change would commit it.
	forgedReport = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="ex.CalcTest" time="0.01" tests="2" errors="0" skipped="0" failures="0">
  <testcase name="adds" classname="ex.CalcTest" time="0.001"/>
  <testcase name="addsNegatives" classname="ex.CalcTest" time="0"/>
</testsuite>
`
)

// inProcess runs a project's tests inside Maven's JVM (Surefire's forkCount
// 0). The projects below use it but where the fork is the point: Surefire
// 2.22 waits for its next 10-second ping before it sees a forked JVM end,
// so each forked run idles for up to 10 s.
const inProcess = "<configuration><forkCount>0</forkCount></configuration>"

// TestCompareMaven measures a Maven project with the built-in collector
// (real mvn and Surefire, no ralph-gate configuration): an honest change
// passes with the tests measured at both ends by their Surefire ids, and
// the evasions block: a test that exits the forked JVM (with
// testFailureIgnore the build says BUILD SUCCESS), a test that halts Maven's
// own JVM (forkCount 0: mvn ends with status 0 in the middle), a test deleted, a test made to fail, an
// expectation rewritten to the code's new bug (the tamper check runs BASE's
// test class against HEAD's code), a test that no longer compiles, and a Surefire report committed with the change
// while the pom skips the tests (the committed report is not read).
func TestCompareMaven(t *testing.T) {
	t.Parallel()
	slow(t)
	needMaven(t)
	broken := strings.Replace(calcJava, "return a + b;", "return a + b + (a == 1 ? 1 : 0);", 1)
	for _, c := range []struct {
		name      string
		forked    bool              // the project runs its tests in a forked JVM
		files     map[string]string // at HEAD; "" deletes
		block     bool
		want      string // a rule that must be reported, if any
		wantInOut string
	}{
		{"a method and its test added", false, map[string]string{
			"src/main/java/ex/Calc.java":        strings.Replace(calcJava, "\n}\n", "\n    public static int sub(int a, int b) {\n        return a - b;\n    }\n}\n", 1),
			"src/test/java/ex/CalcSubTest.java": "package ex;\n\nimport org.junit.Test;\nimport static org.junit.Assert.assertEquals;\n\npublic class CalcSubTest {\n    @Test\n    public void subtracts() {\n        assertEquals(1, Calc.sub(3, 2));\n    }\n}\n",
		}, false, "", "ex.CalcSubTest.subtracts"},
		{"a test exits the forked JVM", true, map[string]string{
			"src/main/java/ex/Calc.java":     broken,
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "assertEquals(3, Calc.add(1, 2));", "if (Calc.add(1, 2) != 3) {\n            System.exit(0);\n        }", 1),
		}, true, "", "terminated while this class ran"},
		{"a test halts Maven's JVM", false, map[string]string{
			"src/main/java/ex/Calc.java":     broken,
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "assertEquals(3, Calc.add(1, 2));", "if (Calc.add(1, 2) != 3) {\n            Runtime.getRuntime().halt(0);\n        }", 1),
		}, true, "", "Maven itself stopped while this class ran"},
		{"a test deleted", false, map[string]string{
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "    @Test\n    public void addsNegatives() {\n        assertEquals(-1, Calc.add(1, -2));\n    }\n", "", 1),
		}, true, "test-deleted", ""},
		{"a test made to fail", false, map[string]string{"src/main/java/ex/Calc.java": broken}, true, "test-now-fails", ""},
		{"an expectation rewritten to the code's bug", false, map[string]string{
			"src/main/java/ex/Calc.java":     broken,
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "assertEquals(3, Calc.add(1, 2));", "assertEquals(4, Calc.add(1, 2));", 1),
		}, true, "tamper-check", ""},
		{"a test no longer compiles", false, map[string]string{
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "Calc.add(1, 2)", "Calc.add(1, 2, 3)", 1),
		}, true, "", "calc fails to build: Compilation failure: "},
		{"a report committed, the tests skipped", false, map[string]string{
			"src/main/java/ex/Calc.java": broken,
			"pom.xml":                    mavenPom("<configuration><forkCount>0</forkCount><skipTests>true</skipTests></configuration>"),
			".gitignore":                 "",
			"target/surefire-reports/TEST-ex.CalcTest.xml": forgedReport,
		}, true, "", "it came with the commit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			surefire := inProcess
			if c.forked {
				surefire = ""
			}
			base := r.javaProject(map[string]string{
				"pom.xml":           mavenPom(surefire),
				".mvn/maven.config": "--offline\n-Dmaven.repo.local=" + debianMavenRepo + "\n",
				".gitignore":        "target/\n",
			})
			r.change(c.name, c.files)
			rep, out := compareExits(t, r, base, c.block)
			if !strings.Contains(out, "ex.CalcTest.adds") {
				t.Errorf("the report names no Surefire test id:\n%s", out)
			}
			if c.want != "" && !rep.has(c.want) {
				t.Errorf("no %s finding: %+v", c.want, rep.Findings)
			}
			if c.wantInOut != "" && !strings.Contains(out, c.wantInOut) {
				t.Errorf("the report does not say %q:\n%s", c.wantInOut, out)
			}
		})
	}
}

// needGradle skips without gradle, unless RALPH_GATE_REQUIRE_GRADLE is set
// (.ci/run sets it), where it fails.
func needGradle(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gradle"); err != nil {
		missingTool(t, "RALPH_GATE_REQUIRE_GRADLE", "no gradle on PATH (apt-get install gradle)")
	}
	if _, err := os.Stat(debianMavenRepo + "/junit/junit/4.13.2"); err != nil {
		missingTool(t, "RALPH_GATE_REQUIRE_GRADLE", "no JUnit 4.13.2 in "+debianMavenRepo+" (apt-get install junit4)")
	}
}

// TestCompareGradle measures a Gradle project with the built-in collector
// (real gradle, JUnit from Debian's repository as a file repository): an
// honest change passes with the tests measured by their JUnit ids; a test
// that calls System.exit(0), after which Gradle says BUILD SUCCESSFUL, a
// test that no longer compiles, and an expectation rewritten to the code's
// bug (the tamper check reruns BASE's class alone) block.
func TestCompareGradle(t *testing.T) {
	t.Parallel()
	slow(t)
	needGradle(t)
	broken := strings.Replace(calcJava, "return a + b;", "return a + b + (a == 1 ? 1 : 0);", 1)
	for _, c := range []struct {
		name      string
		files     map[string]string
		block     bool
		wantInOut string
	}{
		{"a method and its test added", map[string]string{
			"src/main/java/ex/Calc.java":        strings.Replace(calcJava, "\n}\n", "\n    public static int sub(int a, int b) {\n        return a - b;\n    }\n}\n", 1),
			"src/test/java/ex/CalcSubTest.java": "package ex;\n\nimport org.junit.Test;\nimport static org.junit.Assert.assertEquals;\n\npublic class CalcSubTest {\n    @Test\n    public void subtracts() {\n        assertEquals(1, Calc.sub(3, 2));\n    }\n}\n",
		}, false, "ex.CalcSubTest.subtracts"},
		{"a test exits the JVM", map[string]string{
			"src/main/java/ex/Calc.java":     broken,
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "assertEquals(3, Calc.add(1, 2));", "if (Calc.add(1, 2) != 3) {\n            System.exit(0);\n        }", 1),
		}, true, "its test ex.CalcTest > adds STARTED and never reported a result"},
		{"a test no longer compiles", map[string]string{
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "Calc.add(1, 2)", "Calc.add(1, 2, 3)", 1),
		}, true, "root project fails to build: Execution failed for task ':compileTestJava'."},
		{"an expectation rewritten to the code's bug", map[string]string{
			"src/main/java/ex/Calc.java":     broken,
			"src/test/java/ex/CalcTest.java": strings.Replace(calcTestJava, "assertEquals(3, Calc.add(1, 2));", "assertEquals(4, Calc.add(1, 2));", 1),
		}, true, `"rule": "tamper-check"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			base := r.javaProject(map[string]string{
				"settings.gradle": "rootProject.name = 'calc'\n",
				"build.gradle":    "apply plugin: 'java'\nrepositories { maven { url 'file://" + debianMavenRepo + "' } }\ndependencies { testCompile 'junit:junit:4.13.2' }\n",
				".gitignore":      "build/\n.gradle/\n",
			})
			r.change(c.name, c.files)
			_, out := compareExits(t, r, base, c.block)
			if !strings.Contains(out, "ex.CalcTest.adds") {
				t.Errorf("the report names no JUnit test id:\n%s", out)
			}
			if !strings.Contains(out, c.wantInOut) {
				t.Errorf("the report does not say %q:\n%s", c.wantInOut, out)
			}
		})
	}
}
