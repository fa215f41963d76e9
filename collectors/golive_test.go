package collectors

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/cover"
)

// sampleModule is the module the Go fixtures were recorded in: calc has
// passing subtests, a failing test and a skipped one; broken does not build.
var sampleModule = map[string]string{
	"go.mod": "module example.com/sample\n\ngo 1.22\n",
	"calc/calc.go": `// Package calc is a sample for report fixtures.
package calc

import "errors"

// Add adds.
func Add(a, b int) int { return a + b }

// Sub subtracts, wrongly.
func Sub(a, b int) int { return a - b + 1 }

// Div divides.
func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, errors.New("division by zero")
	}
	return a / b, nil
}

// Unused is never tested.
func Unused(x int) int {
	if x > 10 {
		return x * 2
	}
	return x
}
`,
	"calc/calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	for _, tc := range []struct {
		name       string
		a, b, want int
	}{{"small", 1, 2, 3}, {"negative", -1, -2, -3}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Errorf("Add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestSub(t *testing.T) {
	if got := Sub(3, 1); got != 2 {
		t.Errorf("Sub(3, 1) = %d, want 2", got)
	}
}

func TestDiv(t *testing.T) {
	if _, err := Div(1, 0); err == nil {
		t.Fatal("want an error")
	}
}

func TestSlow(t *testing.T) {
	t.Skip("slow test")
}
`,
	"broken/broken.go":      "// Package broken does not compile.\npackage broken\n\nfunc Broken() int { return \"x\" }\n",
	"broken/broken_test.go": "package broken\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { _ = Broken() }\n",
}

// TestGoLive runs go test -json -coverprofile on the sample module and
// checks the parsers against the go command's own figures: the test events
// and `go tool cover -func`'s total.
func TestGoLive(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to record a real run with")
	}
	dir := t.TempDir()
	for name, src := range sampleModule {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	run := func(args ...string) []byte {
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = dir, env
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatalf("go %v: %v", args, err)
		}
		return append(out.Bytes(), stderr.Bytes()...)
	}
	stream := run("test", "-json", "-coverprofile=cover.out", "./...")

	res := mustParse(t, GoTest{}, string(stream))
	got, _ := res.TestCounts()
	if diff := cmp.Diff(TestCounts{Total: 7, Passed: 4, Failed: 2, Skipped: 1}, got); diff != "" {
		t.Errorf("test counts (-want +got):\n%s\nstream:\n%s", diff, stream)
	}
	if len(res.BuildFailures) != 1 || res.BuildFailures[0].Package != "example.com/sample/broken" {
		t.Errorf("build failures = %+v, want example.com/sample/broken", res.BuildFailures)
	}
	sub, ok := res.Tests.Get("example.com/sample/calc.TestSub")
	if !ok || sub.Outcome != Failed || !bytes.Contains([]byte(sub.Message), []byte("Sub(3, 1) = 3, want 2")) {
		t.Errorf("TestSub = %+v, want failed with its message", sub)
	}

	profile, err := os.ReadFile(filepath.Join(dir, "cover.out"))
	if err != nil {
		t.Fatal(err)
	}
	cov := mustParse(t, CoverProfile{}, string(profile))
	ourPct, ok := cov.Coverage.Percent()
	if !ok {
		t.Fatal("no coverage")
	}
	funcOut := run("tool", "cover", "-func=cover.out")
	m := regexp.MustCompile(`total:\s+\(statements\)\s+([0-9.]+)%`).FindSubmatch(funcOut)
	if m == nil {
		t.Fatalf("no total in go tool cover -func output:\n%s", funcOut)
	}
	if want := string(m[1]); strconv.FormatFloat(ourPct, 'f', 1, 64) != want {
		t.Errorf("coverage = %.3f%%, go tool cover -func says %s%%", ourPct, want)
	}

	// x/tools/cover reads the same blocks.
	profiles, err := cover.ParseProfiles(filepath.Join(dir, "cover.out"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range profiles {
		f := cov.Coverage.Files[p.FileName]
		if f == nil {
			t.Errorf("file %s missing", p.FileName)
			continue
		}
		if diff := cmp.Diff(p.Blocks, f.Blocks()); diff != "" {
			t.Errorf("%s blocks (-x/tools/cover +ours):\n%s", p.FileName, diff)
		}
	}
}
