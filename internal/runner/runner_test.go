package runner

import (
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		named string
		argv  []string
		want  Runner
	}{
		{"", []string{"go", "test", "-json", "./..."}, Go},
		{"", []string{"cargo test --no-fail-fast --workspace 2>&1"}, Cargo}, // not the "go test" it spells
		{"", []string{"cargo", "test"}, Cargo},
		{"", []string{"python3", "-m", "pytest", "--junitxml=x.xml"}, Pytest},
		{"", []string{"pnpm", "exec", "vitest", "run"}, Vitest},
		{"", []string{"node", "/cache/node_modules/vitest/vitest.mjs", "run"}, Vitest},
		{"", []string{"npx", "jest", "--ci"}, Jest},
		{"", []string{"mvn -B test 2>&1"}, Maven},
		{"", []string{"./mvnw", "test"}, Maven},
		{"", []string{"sh ./gradlew test --continue 2>&1"}, Gradle},
		{"", []string{"make", "test"}, None},
		// A named runner wins over the command.
		{"pytest", []string{"make", "test"}, Pytest},
		{"GO", []string{"./run-tests.sh"}, Go},
		// An unknown name (config validation refuses it) reads the command.
		{"nose", []string{"go", "test", "./..."}, Go},
	} {
		if got := Of(c.named, c.argv); got != c.want {
			t.Errorf("Of(%q, %q) = %q, want %q", c.named, c.argv, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, n := range append(Names(), "") {
		if _, err := Parse(n); err != nil {
			t.Errorf("Parse(%q): %v", n, err)
		}
	}
	_, err := Parse("nose")
	if err == nil || !strings.Contains(err.Error(), `unknown runner "nose"`) || !strings.Contains(err.Error(), "go, pytest, vitest, jest, cargo, maven, gradle") {
		t.Errorf("Parse(nose) = %v, want an error listing the runners", err)
	}
}

func TestCollects(t *testing.T) {
	for _, c := range []struct {
		r    Runner
		file string
		want bool
	}{
		{Go, "calc/calc_test.go", true},
		{Go, "calc/calc.go", false},
		{Pytest, "tests/test_x.py", true},
		{Vitest, "src/a.test.mts", true},
		{Jest, "src/a.test.py", false},
		{Cargo, "src/lib.rs", true},
		{Maven, "src/test/java/ex/CalcTest.java", true},
		{Gradle, "src/test/kotlin/ex/CalcTest.kt", true},
		{Maven, "src/test/resources/data.json", true},
		{None, "anything.txt", true},
	} {
		if got := c.r.Collects(c.file); got != c.want {
			t.Errorf("%q.Collects(%s) = %v, want %v", c.r, c.file, got, c.want)
		}
	}
}

func TestJVMClass(t *testing.T) {
	for file, want := range map[string]string{
		"src/test/java/ex/CalcTest.java":    "CalcTest",
		"core/src/test/groovy/SpecA.groovy": "SpecA",
		"src/test/resources/a.json":         "",
	} {
		if got := JVMClass(file); got != want {
			t.Errorf("JVMClass(%s) = %q, want %q", file, got, want)
		}
	}
}
