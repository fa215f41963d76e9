package pipeline

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/runner"
)

func TestPlanTamper(t *testing.T) {
	specs := []config.Collector{
		{Name: "npm ci", Argv: []string{"npm", "ci"}},
		{Name: "vitest", Argv: []string{"npx", "vitest", "run", "--reporter=junit", "--coverage.enabled"}, Tests: true,
			Reports: []config.ReportSpec{{Format: "junit", Path: "{out}/j.xml"}, {Format: "lcov", Path: "{out}/lcov.info"}}},
		{Name: "go test", Argv: []string{"go", "test", "-trimpath", "-json", "-coverprofile={out}/c.out", "./..."}, Tests: true,
			Reports: []config.ReportSpec{{Format: "gotest", Stdout: true}, {Format: "coverprofile", Path: "{out}/c.out"}}},
		{Name: "eslint", Argv: []string{"npx", "eslint", "."}, Reports: []config.ReportSpec{{Format: "eslint", Path: "{out}/e.json"}}},
	}
	overlay := map[string][]byte{
		"calc/mul_test.go": []byte("package calc\n\nimport \"testing\"\n\nfunc TestMul(t *testing.T) {}\nfunc helper() {}\nfunc FuzzMul(f *testing.F) {}\n"),
		"web/cart.test.ts": []byte("it('adds', () => {})"),
		"tests/test_x.py":  []byte("def test_x(): pass\n"),
	}
	p := planTamper(specs, []string{"calc/mul_test.go", "tests/test_x.py", "web/cart.test.ts"}, overlay, nil)
	var got [][]string
	for _, s := range p.specs {
		got = append(got, s.Argv)
	}
	want := [][]string{
		{"npm", "ci"},
		{"npx", "vitest", "run", "--reporter=junit", "web/cart.test.ts"},
		{"go", "test", "-trimpath", "-json", "-run", "^(FuzzMul|TestMul)$", "./calc"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	if len(p.specs[1].Reports) != 1 || len(p.specs[2].Reports) != 1 {
		t.Errorf("coverage reports kept: %+v", p.specs)
	}
	if diff := cmp.Diff([]string{"tests/test_x.py"}, p.uncovered); diff != "" {
		t.Errorf("uncovered (-want +got):\n%s", diff)
	}
	if why := p.why("tests/test_x.py"); !strings.Contains(why, "vitest, go test") || !strings.Contains(why, TamperFiles) {
		t.Errorf("why = %q", why)
	}
}

func TestPlanTamperCustomCollector(t *testing.T) {
	specs := []config.Collector{
		{Name: "unit", Shell: true, Argv: []string{"make test FILES={tamper_files}"}, Tests: true, Reports: []config.ReportSpec{{Format: "junit", Path: "out.xml"}}},
		{Name: "argv", Argv: []string{"runner", "--files", TamperFiles}, Tests: true, Reports: []config.ReportSpec{{Format: "junit", Path: "o.xml"}}},
	}
	p := planTamper(specs, []string{"a b_test.go", "c_test.go"}, nil, nil)
	if got := p.specs[0].Argv[0]; got != "make test FILES='a b_test.go' 'c_test.go'" {
		t.Errorf("shell command %q", got)
	}
	if diff := cmp.Diff([]string{"runner", "--files", "a b_test.go", "c_test.go"}, p.specs[1].Argv); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	// A Go file that does not parse runs its whole package (no -run).
	g := planTamper([]config.Collector{{Name: "go test", Argv: []string{"go", "test", "-json", "./..."}, Tests: true}},
		[]string{"x_test.go"}, map[string][]byte{"x_test.go": []byte("package x\nfunc (")}, nil)
	if diff := cmp.Diff([]string{"go", "test", "-json", "./."}, g.specs[0].Argv); diff != "" {
		t.Errorf("unparsed file (-want +got):\n%s", diff)
	}
}

func TestSplitGoTestID(t *testing.T) {
	for id, want := range map[string][2]string{
		"example.com/calc.TestMul":            {"example.com/calc", "TestMul"},
		"example.com/m/v2/pkg.TestX/sub.case": {"example.com/m/v2/pkg", "TestX"},
		"github.com/a/b.c/d.ExampleFoo":       {"github.com/a/b.c/d", "ExampleFoo"},
		"gopkg.in/yaml.v3.TestDecode/a/b":     {"gopkg.in/yaml.v3", "TestDecode"},
		"example.com/calc.FuzzParse/seed#0":   {"example.com/calc", "FuzzParse"},
	} {
		pkg, name, ok := splitGoTestID(id)
		if !ok || pkg != want[0] || name != want[1] {
			t.Errorf("splitGoTestID(%q) = %q, %q, %v; want %q", id, pkg, name, ok, want)
		}
	}
	if _, _, ok := splitGoTestID("tests.test_x.test_y"); ok {
		t.Error("a pytest id split as Go")
	}
}

func FuzzSplitGoTestID(f *testing.F) {
	for _, s := range []string{"example.com/calc.TestMul", "a.b/c.d.TestX/y.z", "", ".", "/Test", "x.Test/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		pkg, name, ok := splitGoTestID(id)
		if ok && !strings.HasPrefix(id, pkg+"."+name) {
			t.Errorf("splitGoTestID(%q) = %q, %q: not a prefix", id, pkg, name)
		}
	})
}

func FuzzGoTestNames(f *testing.F) {
	f.Add([]byte("package x\nimport \"testing\"\nfunc TestA(t *testing.T) {}\nfunc ExampleB() {}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, n := range goTestNames("x_test.go", src) {
			if !goIdent.MatchString(n) {
				t.Errorf("name %q would break -run", n)
			}
		}
	})
}

// TestPlanTamperCargo: cargo's collector runs the Rust files (a source file
// whose test module BASE's replaced), and "cargo test" is not read as the go
// test it also spells.
func TestPlanTamperCargo(t *testing.T) {
	specs := []config.Collector{
		{Name: "cargo test", Argv: []string{"cargo test --no-fail-fast --workspace 2>&1"}, Shell: true, Tests: true,
			Reports: []config.ReportSpec{{Format: "cargotest", Stdout: true}}},
	}
	p := planTamper(specs, []string{"src/lib.rs", "tests/api.rs", "tests/test_x.py"}, nil, nil)
	if diff := cmp.Diff([]string{"src/lib.rs", "tests/api.rs"}, p.files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(p.specs) != 1 || !cmp.Equal(p.specs[0].Argv, specs[0].Argv) || len(p.specs[0].Reports) != 1 {
		t.Errorf("specs = %+v, want cargo's collector as it is", p.specs)
	}
	if r := runnerOf(config.Collector{Argv: []string{"cargo", "test", "--workspace"}}); r != runner.Cargo {
		t.Errorf("runnerOf(cargo test) = %q", r)
	}
}

// TestPlanTamperGoSupport: a test support file runs, whole, the packages
// whose tests use it, beside an edited test file's own -run.
func TestPlanTamperGoSupport(t *testing.T) {
	specs := []config.Collector{{Name: "go test", Argv: []string{"go", "test", "-json", "./..."}, Tests: true}}
	overlay := map[string][]byte{"calc/mul_test.go": []byte("package calc\n\nimport \"testing\"\n\nfunc TestMul(t *testing.T) {}\n")}
	p := planTamper(specs, []string{"calc/mul_test.go", "internal/check/check.go"}, overlay,
		map[string][]string{"internal/check/check.go": {"calc", "web"}})
	if diff := cmp.Diff([]string{"go", "test", "-json", "./calc", "./web"}, p.specs[0].Argv); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	if len(p.uncovered) != 0 {
		t.Errorf("uncovered: %v", p.uncovered)
	}
}

// TestRunTargets: a helper beside the tests runs its directory's tests.
func TestRunTargets(t *testing.T) {
	got := runTargets([]string{"tests/helpers.py", "tests/test_calc.py", "conftest.py", "web/cart.test.ts", "test/setup.ts", "tests/unit/helpers.py", "tests/helpers.py"})
	want := []string{"tests", "tests/test_calc.py", ".", "web/cart.test.ts", "test", "tests/unit"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runTargets (-want +got):\n%s", diff)
	}
}

// TestPlanTamperMaven: the maven collector reruns only the edited test
// classes, through Surefire's test property in MAVEN_OPTS (the caller's
// kept before it), keeping both its reports; an edited resource runs it
// whole.
func TestPlanTamperMaven(t *testing.T) {
	t.Setenv("MAVEN_OPTS", "-Xmx1g")
	specs := []config.Collector{
		{Name: "maven test", Argv: []string{"mvn -B test 2>&1"}, Shell: true, Tests: true, Runner: "maven",
			Reports: []config.ReportSpec{{Format: "maven", Stdout: true}, {Format: "junit", Path: "**/target/surefire-reports/TEST-*.xml"}}},
	}
	p := planTamper(specs, []string{"core/src/test/java/ex/CoreTest.java", "src/test/java/ex/CalcTest.java"}, nil, nil)
	if diff := cmp.Diff([]string{"core/src/test/java/ex/CoreTest.java", "src/test/java/ex/CalcTest.java"}, p.files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(p.specs) != 1 {
		t.Fatalf("specs = %+v", p.specs)
	}
	got := p.specs[0]
	if want := "-Xmx1g -Dtest=CalcTest,CoreTest -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false"; got.Env["MAVEN_OPTS"] != want {
		t.Errorf("MAVEN_OPTS = %q, want %q", got.Env["MAVEN_OPTS"], want)
	}
	if !cmp.Equal(got.Argv, specs[0].Argv) || len(got.Reports) != 2 {
		t.Errorf("argv %q, reports %+v: want the command and both reports as they are", got.Argv, got.Reports)
	}
	if specs[0].Env != nil {
		t.Errorf("the collector's own Env was changed: %v", specs[0].Env)
	}
	p = planTamper(specs, []string{"src/test/java/ex/CalcTest.java", "src/test/resources/data.xml"}, nil, nil)
	if _, ok := p.specs[0].Env["MAVEN_OPTS"]; ok {
		t.Errorf("with a resource edited, MAVEN_OPTS = %q, want the run whole", p.specs[0].Env["MAVEN_OPTS"])
	}
}

// TestPlanTamperGradle: the gradle collector reruns only the edited test
// classes, named to its init script in collect.GradleTestsEnv.
func TestPlanTamperGradle(t *testing.T) {
	specs := []config.Collector{
		{Name: "gradle test", Argv: []string{"gradle test 2>&1"}, Shell: true, Tests: true, Runner: "gradle",
			Env: map[string]string{"JAVA_OPTS": "-Xmx1g"}, Reports: []config.ReportSpec{{Format: "gradle", Stdout: true}}},
	}
	p := planTamper(specs, []string{"src/test/java/ex/CalcTest.java", "api/src/test/kotlin/ex/ApiTest.kt"}, nil, nil)
	want := map[string]string{"JAVA_OPTS": "-Xmx1g", collect.GradleTestsEnv: "ApiTest,CalcTest"}
	if diff := cmp.Diff(want, p.specs[0].Env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
	if len(specs[0].Env) != 1 {
		t.Errorf("the collector's own Env was changed: %v", specs[0].Env)
	}
	p = planTamper(specs, []string{"src/test/java/ex/CalcTest.java", "src/test/resources/data.xml"}, nil, nil)
	if _, ok := p.specs[0].Env[collect.GradleTestsEnv]; ok {
		t.Errorf("with a resource edited, the run is narrowed: %v", p.specs[0].Env)
	}
}
