package ghaction

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// git runs the real git in dir with a fixed identity and no user config.
func git(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	return testgit.RunEnv(t, dir, stdin, nil, args...)
}

// originWithHistory makes a repository whose main has n commits and whose
// branch agent has one more, in one git fast-import run.
func originWithHistory(t *testing.T, n int) string {
	dir := t.TempDir()
	git(t, dir, "", "init", "-q", "-b", "main")
	var s strings.Builder
	for i := 1; i <= n+1; i++ {
		branch := "main"
		if i == n+1 {
			branch = "agent"
		}
		msg := fmt.Sprintf("commit %d", i)
		content := fmt.Sprintf("package p\n\nconst N = %d\n", i)
		fmt.Fprintf(&s, "commit refs/heads/%s\nmark :%d\ncommitter A <a@example.com> %d +0000\ndata %d\n%s\n", branch, i, 1700000000+i, len(msg), msg)
		if i > 1 {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
		fmt.Fprintf(&s, "M 644 inline p.go\ndata %d\n%s\n", len(content), content)
	}
	git(t, dir, s.String(), "fast-import", "--quiet")
	return dir
}

func shallowClone(t *testing.T, origin, branch string) string {
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, origin, "", "clone", "-q", "--depth", "1", "--branch", branch, "file://"+origin, clone)
	return clone
}

func TestResolveDeepensAShallowClone(t *testing.T) {
	origin := originWithHistory(t, 80)
	base := git(t, origin, "", "rev-parse", "main~70")
	head := git(t, origin, "", "rev-parse", "agent")
	clone := shallowClone(t, origin, "agent")
	var log strings.Builder
	r, err := Resolve(context.Background(), Spec{Base: base, Head: head}, Git{Dir: clone, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	// 71 commits: --deepen=50 is not enough, --deepen=1000 is.
	if r.Base.String() != base || r.Head.String() != head || r.Fetches != 2 {
		t.Errorf("range %s..%s after %d fetches, want %s..%s after 2\n%s", r.Base, r.Head, r.Fetches, base, head, log.String())
	}
	if !strings.Contains(log.String(), "--deepen=50") || !strings.Contains(log.String(), "--deepen=1000") {
		t.Errorf("fetch log:\n%s", log.String())
	}
}

func TestResolveNewBranchFetchesTheDefaultBranch(t *testing.T) {
	origin := originWithHistory(t, 5)
	head := git(t, origin, "", "rev-parse", "agent")
	clone := shallowClone(t, origin, "agent") // --branch: no origin/main in the clone
	r, err := Resolve(context.Background(), Spec{Head: head, DefaultBranch: "main"}, Git{Dir: clone})
	if err != nil {
		t.Fatal(err)
	}
	if want := git(t, origin, "", "rev-parse", "main"); r.Base.String() != want || r.Fetches == 0 {
		t.Errorf("base %s after %d fetches, want the merge-base %s", r.Base, r.Fetches, want)
	}
}

func TestResolveErrors(t *testing.T) {
	origin := originWithHistory(t, 3)
	clone := shallowClone(t, origin, "agent")
	ctx := context.Background()

	// A branch name that does not exist is the user's mistake: no fetch.
	var log strings.Builder
	_, err := Resolve(ctx, Spec{Base: "no-such-branch"}, Git{Dir: clone, Log: &log})
	var shallow *ShallowError
	if err == nil || errors.As(err, &shallow) || !strings.Contains(err.Error(), "no-such-branch") || log.Len() != 0 {
		t.Errorf("unknown branch: %v (fetches: %q)", err, log.String())
	}

	// A commit the remote does not have: one line asking for fetch-depth: 0.
	_, err = Resolve(ctx, Spec{Base: strings.Repeat("e", 40)}, Git{Dir: clone})
	if !errors.As(err, &shallow) || !strings.Contains(err.Error(), "eeeeeeeeeeee") || !strings.Contains(err.Error(), "fetch-depth: 0") ||
		strings.Contains(err.Error(), "\n") {
		t.Errorf("missing commit: %v", err)
	}

	// No remote at all.
	base := git(t, origin, "", "rev-parse", "main~1")
	git(t, clone, "", "remote", "remove", "origin")
	if _, err := Resolve(ctx, Spec{Base: base}, Git{Dir: clone}); !errors.As(err, &shallow) {
		t.Errorf("no remote: %v", err)
	}
}
