package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// typicalPush makes a repository shaped like a small service (a few packages
// of code and tests) and three new commits on top of what the remote has,
// touching code and tests: the push a developer makes several times a day.
// It returns the directory and git's ref line for the push.
func typicalPush(tb testing.TB) (string, string) {
	dir := tb.TempDir()
	testgit.Run(tb, dir, "init", "-q", "-b", "main")
	files := map[string]string{"go.mod": "module example.com/svc\n\ngo 1.26\n"}
	for p := 0; p < 8; p++ {
		pkg := fmt.Sprintf("pkg%d", p)
		for f := 0; f < 5; f++ {
			files[fmt.Sprintf("%s/f%d.go", pkg, f)] = fmt.Sprintf("package %s\n\n// F%d doubles.\nfunc F%d(x int) int { return 2 * x }\n", pkg, f, f)
			files[fmt.Sprintf("%s/f%d_test.go", pkg, f)] = fmt.Sprintf("package %s\n\nimport \"testing\"\n\nfunc TestF%d(t *testing.T) {\n\tif F%d(2) != 4 {\n\t\tt.Fatal(\"F%d\")\n\t}\n}\n", pkg, f, f, f)
		}
	}
	testgit.WriteAll(tb, dir, files)
	testgit.Run(tb, dir, "add", "-A")
	testgit.Run(tb, dir, "commit", "-q", "-m", "base")
	base := testgit.Run(tb, dir, "rev-parse", "HEAD")
	testgit.Run(tb, dir, "update-ref", "refs/remotes/origin/main", base)
	for i := 0; i < 3; i++ {
		pkg := fmt.Sprintf("pkg%d", i)
		testgit.WriteAll(tb, dir, map[string]string{
			pkg + "/g.go":      fmt.Sprintf("package %s\n\n// G triples.\nfunc G(x int) int { return 3 * x }\n", pkg),
			pkg + "/g_test.go": fmt.Sprintf("package %s\n\nimport \"testing\"\n\nfunc TestG(t *testing.T) {\n\tif G(%d) != %d {\n\t\tt.Fatal(\"G\")\n\t}\n}\n", pkg, i, 3*i),
		})
		testgit.Run(tb, dir, "add", "-A")
		testgit.Run(tb, dir, "commit", "-q", "-m", "add G to "+pkg)
	}
	head := testgit.Run(tb, dir, "rev-parse", "HEAD")
	return dir, "refs/heads/main " + head + " refs/heads/main " + base + "\n"
}

func TestHookPrePushTypicalPush(t *testing.T) {
	dir, line := typicalPush(t)
	var stderr bytes.Buffer
	err := Run(context.Background(), []string{"hook", "pre-push", "origin", "file:///srv/svc.git"}, Env{
		Stdin: strings.NewReader(line), Stdout: &bytes.Buffer{}, Stderr: &stderr, Dir: dir,
	})
	if err != nil || !strings.Contains(stderr.String(), "refs/heads/main: 3 commits") || !strings.Contains(stderr.String(), ": pass") {
		t.Errorf("err = %v\n%s", err, stderr.String())
	}
	// The same push deleting a test is refused, as a BlockedError.
	testgit.WriteAll(t, dir, map[string]string{"pkg4/f1_test.go": "package pkg4\n"})
	testgit.Run(t, dir, "commit", "-q", "-am", "drop TestF1")
	head := testgit.Run(t, dir, "rev-parse", "HEAD")
	fields := strings.Fields(line)
	stderr.Reset()
	err = Run(context.Background(), []string{"hook", "pre-push", "origin", "url"}, Env{
		Stdin: strings.NewReader(fields[0] + " " + head + " " + fields[2] + " " + fields[3] + "\n"), Stdout: &bytes.Buffer{}, Stderr: &stderr, Dir: dir,
	})
	var blocked *BlockedError
	if !errors.As(err, &blocked) || blocked.Findings != 1 || ExitCode(err) != ExitBlocked || !strings.Contains(stderr.String(), "TestF1") {
		t.Errorf("err = %v\n%s", err, stderr.String())
	}
}

func TestInstalledBinary(t *testing.T) {
	defer func(e func() (string, error)) { executable = e }(executable)
	for _, tc := range []struct{ exe, want string }{
		{"/usr/local/bin/ralph-gate", "/usr/local/bin/ralph-gate"},
		{"/tmp/go-build1234/b001/exe/ralph-gate", ""}, // go run: gone after the run
		{"ralph-gate", ""},
	} {
		executable = func() (string, error) { return tc.exe, nil }
		if got := installedBinary(); got != tc.want {
			t.Errorf("installedBinary() with %q = %q, want %q", tc.exe, got, tc.want)
		}
	}
	executable = func() (string, error) { return "", errors.New("unknown") }
	if got := installedBinary(); got != "" {
		t.Errorf("installedBinary() without an executable = %q", got)
	}
}

// BenchmarkHookPrePush measures `ralph-gate hook pre-push` on a typical push
// (three commits adding code and tests to a 90-file Go module), from reading
// git's ref line to the verdict: the time a developer waits on every push.
func BenchmarkHookPrePush(b *testing.B) {
	dir, line := typicalPush(b)
	ctx := context.Background()
	for b.Loop() {
		var stderr bytes.Buffer
		err := Run(ctx, []string{"hook", "pre-push", "origin", "url"}, Env{
			Stdin: strings.NewReader(line), Stdout: &bytes.Buffer{}, Stderr: &stderr, Dir: dir,
		})
		if err != nil {
			b.Fatalf("%v\n%s", err, stderr.String())
		}
	}
}
