package collect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// calcModule is a real Go module with passing, failing and skipped tests,
// subtests, and code that the tests leave partly uncovered.
var calcModule = map[string]string{
	"go.mod": "module example.com/calc\n\ngo 1.22\n",
	"calc.go": `package calc

// Add adds.
func Add(a, b int) int { return a + b }

// Sub subtracts, wrongly.
func Sub(a, b int) int { return a + b }

// Div divides; nothing tests it.
func Div(a, b int) (int, bool) {
	if b == 0 {
		return 0, false
	}
	return a / b, true
}

// Abs is tested for both signs.
func Abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
`,
	"calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("add")
	}
}

func TestSub(t *testing.T) {
	if got := Sub(3, 1); got != 2 {
		t.Fatalf("Sub(3, 1) = %d, want 2", got)
	}
}

func TestSkipped(t *testing.T) { t.Skip("not today") }

func TestAbs(t *testing.T) {
	t.Run("pos", func(t *testing.T) {
		if Abs(2) != 2 {
			t.Fatal("pos")
		}
	})
	t.Run("neg", func(t *testing.T) {
		if Abs(-2) != 2 {
			t.Fatal("neg")
		}
	})
}
`,
	"internal/util/util.go":      "package util\n\n// Twice doubles.\nfunc Twice(a int) int {\n\tif a == 0 {\n\t\treturn 0\n\t}\n\treturn 2 * a\n}\n",
	"internal/util/util_test.go": "package util\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal(\"twice\")\n\t}\n}\n",
}

// goCoverTotal runs go test -coverprofile and go tool cover -func by hand,
// outside ralph-gate, in a clone, and returns the "total:" percentage.
func goCoverTotal(t *testing.T, repoDir string) float64 {
	t.Helper()
	clone := filepath.Join(t.TempDir(), "clone")
	runGit(t, t.TempDir(), "clone", "-q", repoDir, clone)
	profile := filepath.Join(t.TempDir(), "c.out")
	test := exec.Command("go", "test", "-coverprofile="+profile, "./...")
	test.Dir = clone
	_ = test.Run() // TestSub fails: exit status 1 is expected
	cover := exec.Command("go", "tool", "cover", "-func="+profile)
	cover.Dir = clone
	out, err := cover.CombinedOutput()
	if err != nil {
		t.Fatalf("go tool cover: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^total:\s+\(statements\)\s+([0-9.]+)%`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no total in\n%s", out)
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// dirtyCheckout leaves the user's checkout with a stash, a modified file and
// an untracked file, as a developer's usually is.
func dirtyCheckout(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte("package calc\n// stashed edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "stash", "-q")
	runGit(t, dir, "branch", "feature")
	if err := os.WriteFile(filepath.Join(dir, "calc_test.go"), []byte("package calc\n// work in progress\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("untracked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMeasureGoModuleEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	dir, commit := newRepo(t, calcModule)
	wantCover := goCoverTotal(t, dir)
	dirtyCheckout(t, dir)
	before := stateOf(t, dir)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	repo := openRepo(t, dir)

	specs, notes, err := Detect(repo, commit)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("notes: %q", notes)
	}
	// A second collector counts its runs in a file outside the worktree.
	marker := filepath.Join(t.TempDir(), "runs")
	specs = append(specs, config.Collector{
		Name:    "counter",
		Argv:    []string{"sh", "-c", `echo run >> "$MARKER"`},
		Env:     map[string]string{"MARKER": marker},
		Reports: []config.ReportSpec{{Format: "tsc", Stdout: true}},
	})
	cache, err := OpenCache(repo)
	if err != nil {
		t.Fatal(err)
	}
	var phases []string
	opts := RunOptions{Progress: func(c, phase string, _ time.Duration) {
		if phase != PhaseRunning {
			phases = append(phases, c+" "+phase)
		}
	}}
	m, cached, err := Measure(context.Background(), repo, dir, commit, specs, cache, opts)
	if err != nil {
		t.Fatal(err)
	}
	if cached {
		t.Error("first measurement came from the cache")
	}
	wantPhases := []string{"go test start", "go test parse", "go test done", "counter start", "counter parse", "counter done"}
	if diff := cmp.Diff(wantPhases, phases); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}

	wantIDs := []string{
		"example.com/calc.TestAbs", "example.com/calc.TestAbs/neg", "example.com/calc.TestAbs/pos",
		"example.com/calc.TestAdd", "example.com/calc.TestSkipped", "example.com/calc.TestSub",
		"example.com/calc/internal/util.TestTwice",
	}
	if diff := cmp.Diff(wantIDs, m.Result.Tests.IDs()); diff != "" {
		t.Errorf("test ids (-want +got):\n%s", diff)
	}
	sub, _ := m.Result.Tests.Get("example.com/calc.TestSub")
	if sub.Outcome != collectors.Failed || !strings.Contains(sub.Message, "Sub(3, 1) = 4, want 2") {
		t.Errorf("TestSub = %v %q, want failed with its message", sub.Outcome, sub.Message)
	}
	if diff := cmp.Diff(&gate.TestStats{Total: 7, Passed: 5, Failed: 1, Skipped: 1}, m.Metrics.Tests); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	if m.Metrics.TestCount == nil || *m.Metrics.TestCount != 7 {
		t.Errorf("test_count = %v, want 7", m.Metrics.TestCount)
	}
	if m.Metrics.CoveragePercentage == nil {
		t.Fatal("coverage not measured")
	}
	if got := *m.Metrics.CoveragePercentage; strconv.FormatFloat(got, 'f', 1, 64) != strconv.FormatFloat(wantCover, 'f', 1, 64) {
		t.Errorf("coverage = %.4f, go tool cover -func total = %.1f", got, wantCover)
	}
	t.Logf("coverage %.2f want %.1f tools %v dur %s", *m.Metrics.CoveragePercentage, wantCover, m.Tools, m.Duration)
	if m.Metrics.TypescriptErrors == nil || *m.Metrics.TypescriptErrors != 0 {
		t.Errorf("typescript_errors = %v, want 0 from the counter's empty tsc output", m.Metrics.TypescriptErrors)
	}
	if m.Metrics.LintErrors != nil {
		t.Errorf("lint_errors = %v, want nil (not measured)", *m.Metrics.LintErrors)
	}
	// Four Go files, all non-blank lines; decision points: Div's and Abs's
	// if, Twice's if, and the ifs of TestAdd, TestSub, both subtests, TestTwice.
	stats := gate.Metrics{FileCount: m.Metrics.FileCount, LinesOfCode: m.Metrics.LinesOfCode, Complexity: m.Metrics.Complexity}
	four, loc, cx := 4, countNonBlank(calcModule), 8
	if diff := cmp.Diff(gate.Metrics{FileCount: &four, LinesOfCode: &loc, Complexity: &cx}, stats); diff != "" {
		t.Errorf("tree statistics (-want +got):\n%s", diff)
	}
	goBin, _ := exec.LookPath("go")
	goBin, _ = filepath.Abs(goBin)
	if !strings.HasPrefix(m.Tools[goBin+" version"], "go version go1.") {
		t.Errorf("tools = %v, want the go version, probed by its absolute path %s", m.Tools, goBin)
	}
	if m.Commit != commit.String() || len(m.Tree) != 40 {
		t.Errorf("commit %q tree %q", m.Commit, m.Tree)
	}

	// The second measurement runs nothing.
	m2, cached, err := Measure(context.Background(), repo, dir, commit, specs, cache, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !cached {
		t.Error("second measurement did not come from the cache")
	}
	if runs, _ := os.ReadFile(marker); string(runs) != "run\n" {
		t.Errorf("counter ran %q, want once", runs)
	}
	if diff := cmp.Diff(m.Metrics, m2.Metrics); diff != "" {
		t.Errorf("cached metrics (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(testList(m.Result), testList(m2.Result)); diff != "" {
		t.Errorf("cached tests (-want +got):\n%s", diff)
	}
	for _, p := range m.Result.Coverage.Paths() {
		a, _ := m.Result.Coverage.Files[p].Percent()
		b, _ := m2.Result.Coverage.Files[p].Percent()
		if a != b {
			t.Errorf("cached coverage of %s = %v, want %v", p, b, a)
		}
	}

	if diff := cmp.Diff(before, stateOf(t, dir)); diff != "" {
		t.Errorf("user's checkout changed (-before +after):\n%s", diff)
	}
	if left := leftovers(t, tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

func countNonBlank(files map[string]string) int {
	n := 0
	for name, content := range files {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		for _, l := range strings.Split(content, "\n") {
			if strings.TrimSpace(l) != "" {
				n++
			}
		}
	}
	return n
}

func testList(r *collectors.Result) []collectors.Test {
	var out []collectors.Test
	for t := range r.Tests.All() {
		out = append(out, t)
	}
	return out
}

// TestMeasureFailures checks that failed, broken and cancelled measurements
// are errors that say what went wrong, and leave nothing behind.
func TestMeasureFailures(t *testing.T) {
	dir, commit := newRepo(t, map[string]string{"README.md": "hello\n", "a.go": "package a\n"})
	dirtyCheckoutPlain(t, dir)
	before := stateOf(t, dir)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	repo := openRepo(t, dir)
	cache := NewCache(filepath.Join(t.TempDir(), "cache"))

	tests := []struct {
		name   string
		spec   config.Collector
		cancel bool
		want   []string // substrings of the error
	}{
		{
			name: "missing report",
			spec: config.Collector{Name: "unit", Argv: []string{"sh", "-c", "echo building >&2; exit 1"},
				Reports: []config.ReportSpec{{Format: "junit", Path: "out/*.xml"}}},
			want: []string{"collector unit", "report file out/*.xml (junit) is missing", "exit status 1", "building"},
		},
		{
			name: "malformed report",
			spec: config.Collector{Name: "unit", Shell: true, Argv: []string{"mkdir -p out && printf '<testsuite name=\"x\"><testcase name=\"a\">' > out/a.xml"},
				Reports: []config.ReportSpec{{Format: "junit", Path: "out/*.xml"}}},
			want: []string{"collector unit", "parse junit out/a.xml"},
		},
		{
			name: "no output on stdout",
			spec: config.Collector{Name: "go", Argv: []string{"sh", "-c", "echo 'go: no go.mod' >&2; exit 1"},
				Reports: []config.ReportSpec{{Format: "gotest", Stdout: true}}},
			want: []string{"collector go", "no gotest report on standard output", "exit status 1", "no go.mod"},
		},
		{
			name: "failing setup step",
			spec: config.Collector{Name: "npm install", Argv: []string{"sh", "-c", "exit 3"}},
			want: []string{"collector npm install", "exit status 3"},
		},
		{
			name: "tool not installed",
			spec: config.Collector{Name: "lint", Argv: []string{"ralph-gate-no-such-tool", "run"},
				Reports: []config.ReportSpec{{Format: "sarif", Path: "x.sarif"}}},
			want: []string{"collector lint", "ralph-gate-no-such-tool is not installed"},
		},
		{
			name: "timeout",
			spec: config.Collector{Name: "slow", Argv: []string{"sleep", "30"}, Timeout: "300ms",
				Reports: []config.ReportSpec{{Format: "junit", Path: "x.xml"}}},
			want: []string{"collector slow", "timed out after 300ms"},
		},
		{
			name: "cancelled",
			spec: config.Collector{Name: "slow", Shell: true, Argv: []string{"sleep 30 & sleep 30; wait"},
				Reports: []config.ReportSpec{{Format: "junit", Path: "x.xml"}}},
			cancel: true,
			want:   []string{"collector slow", "interrupted", "context canceled"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := RunOptions{}
			if tc.cancel {
				opts.Progress = func(_, phase string, _ time.Duration) {
					if phase == PhaseStart {
						time.AfterFunc(200*time.Millisecond, cancel)
					}
				}
			}
			start := time.Now()
			m, _, err := Measure(ctx, repo, dir, commit, []config.Collector{tc.spec}, cache, opts)
			if err == nil {
				t.Fatalf("no error; measurement %+v", m)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("took %s", d)
			}
			if diff := cmp.Diff(before, stateOf(t, dir)); diff != "" {
				t.Errorf("user's checkout changed (-before +after):\n%s", diff)
			}
			if left := leftovers(t, tmp); len(left) != 0 {
				t.Errorf("left in TMPDIR: %v", left)
			}
			entries, _ := os.ReadDir(cache.Dir())
			if len(entries) != 0 {
				t.Errorf("a failed measurement was cached: %v", entries)
			}
		})
	}
}

func dirtyCheckoutPlain(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("stashed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "stash", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a // wip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunMergesGlobAndShards(t *testing.T) {
	dir := t.TempDir()
	shard := func(name, outcome string) string {
		body := ""
		switch outcome {
		case "failed":
			body = `<failure message="boom">boom</failure>`
		case "skipped":
			body = `<skipped/>`
		}
		return `<testsuite name="s" tests="1"><testcase classname="pkg" name="` + name + `">` + body + `</testcase></testsuite>`
	}
	spec := config.Collector{
		Name: "shards",
		Argv: []string{"sh", "-c", `mkdir -p reports/a reports/b {out}/x &&
printf '%s' "$A" > reports/a/junit.xml && printf '%s' "$B" > reports/b/junit.xml && printf '%s' "$C" > {out}/x/c.xml
printf 'SF:a.js\nDA:1,1\nDA:2,0\nend_of_record\n' > {out}/lcov.info`},
		Env: map[string]string{"A": shard("one", "passed"), "B": shard("two", "failed"), "C": shard("three", "skipped")},
		Reports: []config.ReportSpec{
			{Format: "junit", Path: "reports/**/*.xml"},
			{Format: "junit", Path: "{out}/x/*.xml"},
			{Format: "lcov", Path: "{out}/lcov.info"},
		},
	}
	m, err := Run(context.Background(), dir, []config.Collector{spec}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&gate.TestStats{Total: 3, Passed: 1, Failed: 1, Skipped: 1}, m.Metrics.Tests); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	if m.Metrics.CoveragePercentage == nil || *m.Metrics.CoveragePercentage != 50 {
		t.Errorf("coverage = %v, want 50", m.Metrics.CoveragePercentage)
	}
	want := []string{"reports/a/junit.xml", "reports/b/junit.xml", "{out}/x/c.xml", "{out}/lcov.info"}
	if diff := cmp.Diff(want, m.Collectors[0].Reports); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}

func TestRunProgressTicks(t *testing.T) {
	var ticks atomic.Int32
	spec := config.Collector{Name: "s", Argv: []string{"sleep", "0.3"}}
	_, err := Run(context.Background(), t.TempDir(), []config.Collector{spec}, RunOptions{
		ProgressInterval: 50 * time.Millisecond,
		Progress: func(_, phase string, _ time.Duration) {
			if phase == PhaseRunning {
				ticks.Add(1)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if ticks.Load() < 2 {
		t.Errorf("%d running ticks in 300ms at 50ms", ticks.Load())
	}
}

func TestRunStripsRepositoryEnvironment(t *testing.T) {
	spec := config.Collector{Name: "env", Shell: true, Argv: []string{`test -z "$GIT_DIR" && test "$KEEP" = yes || exit 9`}}
	_, err := Run(context.Background(), t.TempDir(), []config.Collector{spec}, RunOptions{
		Environ: []string{"PATH=" + os.Getenv("PATH"), "GIT_DIR=/user/repo/.git", "KEEP=yes"},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRunDropsTamperFiles: {tamper_files} is the tamper check's; a whole run
// drops the placeholder (an argv element of its own, or inside a shell
// command) so that the runner never sees it as a filter.
func TestRunDropsTamperFiles(t *testing.T) {
	env := RunOptions{Environ: []string{"PATH=" + os.Getenv("PATH")}}
	for _, spec := range []config.Collector{
		{Name: "argv", Argv: []string{"sh", "-c", `test "$#" -eq 0 || exit 9`, "sh", TamperFiles}},
		{Name: "shell", Shell: true, Argv: []string{`set -- ` + TamperFiles + `; test "$#" -eq 0 || exit 9`}},
	} {
		if _, err := Run(context.Background(), t.TempDir(), []config.Collector{spec}, env); err != nil {
			t.Errorf("%s: %v", spec.Name, err)
		}
	}
	_, err := Run(context.Background(), t.TempDir(), []config.Collector{{Name: "only", Argv: []string{TamperFiles}}}, env)
	if err == nil || !strings.Contains(err.Error(), "no command besides") {
		t.Errorf("an argv of only the placeholder: %v", err)
	}
}

// TestRunIgnoresCommittedReports: a report file that was in the checkout
// before the command ran (committed with the change) and that the command
// did not rewrite is not read; the result names it as an integrity
// problem. One the command rewrites is read.
func TestRunIgnoresCommittedReports(t *testing.T) {
	dir := t.TempDir()
	suite := func(name string) string {
		return `<testsuite name="s" tests="1"><testcase classname="pkg" name="` + name + `"/></testsuite>`
	}
	for _, f := range []struct{ path, body string }{
		{"reports/forged.xml", suite("forged")},
		{"reports/rewritten.xml", suite("stale")},
	} {
		if err := os.MkdirAll(filepath.Join(dir, "reports"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.path), []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := config.Collector{
		Name:    "runner",
		Argv:    []string{"sh", "-c", `printf '%s' "$R" > reports/rewritten.xml`},
		Env:     map[string]string{"R": suite("ran")},
		Tests:   true,
		Reports: []config.ReportSpec{{Format: "junit", Path: "reports/*.xml"}},
	}
	m, err := Run(context.Background(), dir, []config.Collector{spec}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for tc := range m.Result.Tests.All() {
		ids = append(ids, tc.ID)
	}
	if diff := cmp.Diff([]string{"pkg.ran"}, ids); diff != "" {
		t.Errorf("tests read (-want +got):\n%s", diff)
	}
	if len(m.Result.Integrity) != 1 || m.Result.Integrity[0].Package != "reports/forged.xml" || !strings.Contains(m.Result.Integrity[0].Problem, "came with the commit") {
		t.Errorf("integrity = %+v, want one problem naming reports/forged.xml", m.Result.Integrity)
	}
	if diff := cmp.Diff([]string{"reports/rewritten.xml"}, m.Collectors[0].Reports); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}
