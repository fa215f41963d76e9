package hook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// TestStagedCommit: the staged changes become a commit object on top of
// HEAD holding the index (or the index GIT_INDEX_FILE names), and nothing
// else changes: no ref, the index, the work tree.
func TestStagedCommit(t *testing.T) {
	for _, tc := range []struct {
		name string
		// stage prepares the change in dir and returns the index file to
		// read ("" for the repository's).
		stage func(t *testing.T, dir string) string
		same  bool
		// files are the staged tree's files and contents.
		files map[string]string
	}{
		{
			name:  "nothing staged",
			stage: func(t *testing.T, dir string) string { testgit.Write(t, dir, "a.txt", "unstaged\n"); return "" },
			same:  true,
		},
		{
			name: "a staged edit, an unstaged one left out",
			stage: func(t *testing.T, dir string) string {
				testgit.Write(t, dir, "a.txt", "staged\n")
				testgit.Run(t, dir, "add", "a.txt")
				testgit.Write(t, dir, "a.txt", "unstaged\n")
				return ""
			},
			files: map[string]string{"a.txt": "staged\n", "b.txt": "b\n"},
		},
		{
			name: "a staged deletion",
			stage: func(t *testing.T, dir string) string {
				testgit.Run(t, dir, "rm", "-q", "b.txt")
				return ""
			},
			files: map[string]string{"a.txt": "a\n"},
		},
		{
			name: "another index, as git commit -a names it, relative to the work tree",
			stage: func(t *testing.T, dir string) string {
				idx := filepath.Join(dir, ".git", "next-index")
				env := []string{"GIT_INDEX_FILE=" + idx}
				testgit.RunEnv(t, dir, "", env, "read-tree", "HEAD")
				testgit.Write(t, dir, "c.txt", "c\n")
				testgit.RunEnv(t, dir, "", env, "add", "c.txt")
				return filepath.Join(".git", "next-index")
			},
			files: map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testgit.Init(t)
			testgit.Write(t, dir, "a.txt", "a\n")
			testgit.Write(t, dir, "b.txt", "b\n")
			head := testgit.Commit(t, dir, "base")
			index := tc.stage(t, dir)
			t.Chdir(dir) // a relative GIT_INDEX_FILE is the hook's, from the work tree
			status := testgit.Run(t, dir, "status", "--porcelain")
			refs := testgit.Run(t, dir, "for-each-ref")

			staged, same, err := StagedCommit(context.Background(), dir, index, plumbing.NewHash(head))
			if err != nil {
				t.Fatal(err)
			}
			if same != tc.same {
				t.Fatalf("same = %v, want %v", same, tc.same)
			}
			if got := testgit.Run(t, dir, "status", "--porcelain"); got != status {
				t.Errorf("status changed: %q -> %q", status, got)
			}
			if got := testgit.Run(t, dir, "for-each-ref"); got != refs || testgit.Run(t, dir, "rev-parse", "HEAD") != head {
				t.Errorf("refs changed: %q -> %q", refs, got)
			}
			if tc.same {
				return
			}
			if parent := testgit.Run(t, dir, "rev-parse", staged.String()+"^"); parent != head {
				t.Errorf("parent = %s, want HEAD %s", parent, head)
			}
			if subject := testgit.Run(t, dir, "log", "-1", "--format=%s %an", staged.String()); subject != StagedSubject+" ralph-gate" {
				t.Errorf("subject and author = %q", subject)
			}
			got := map[string]string{}
			for _, name := range strings.Fields(testgit.Run(t, dir, "ls-tree", "--name-only", staged.String())) {
				got[name] = testgit.Run(t, dir, "show", staged.String()+":"+name) + "\n"
			}
			if diff := cmp.Diff(tc.files, got); diff != "" {
				t.Errorf("staged tree (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStagedCommitErrors(t *testing.T) {
	dir := testgit.Init(t)
	testgit.Write(t, dir, "a.txt", "a\n")
	head := testgit.Commit(t, dir, "base")
	if _, _, err := StagedCommit(context.Background(), dir, filepath.Join(dir, "no-such-index"), plumbing.NewHash(head)); err != nil {
		// git reads a missing index as an empty one: the staged tree
		// deletes everything, which is a change to check, not an error.
		t.Errorf("a missing index: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "garbage-index"), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := StagedCommit(context.Background(), dir, filepath.Join(dir, "garbage-index"), plumbing.NewHash(head))
	if err == nil || !strings.Contains(err.Error(), "read the staged changes") {
		t.Errorf("a garbled index: %v", err)
	}
}

func TestWriteStagedSummary(t *testing.T) {
	head, staged := plumbing.NewHash(shaB), plumbing.NewHash(shaA)
	rep := &gate.Report{
		FailOn:  gate.SeverityHigh,
		Verdict: gate.VerdictBlock,
		Commits: []gate.Commit{{SHA: shaA, Subject: StagedSubject}},
		Findings: []gate.Finding{
			{Type: gate.ErrorSuppression, Severity: gate.SeverityMedium, File: "a.go", Line: 3, Commit: shaA, Net: true, Message: "nolint added"},
			{Type: gate.TestDeletion, Severity: gate.SeverityCritical, File: "a_test.go", Line: 11, Test: "TestSub", Commit: shaA, Net: true, Message: "TestSub was deleted"},
		},
	}
	var b strings.Builder
	n := WriteStagedSummary(&b, head, staged, rep)
	want := `ralph-gate: the staged changes against HEAD 222222222222: block
  critical test_deletion a_test.go:11 test TestSub
           TestSub was deleted
  medium   error_suppression a.go:3 (below fail-on: does not block)
           nolint added
ralph-gate: commit refused: 1 net finding at or above high (fail_on in .ralph-gate.yml at HEAD, or --fail-on)
ralph-gate: the full report: ralph-gate analyze 222222222222 111111111111
ralph-gate: to commit anyway (you answer for it): git commit --no-verify, or RALPH_GATE_SKIP=1 git commit
`
	if n != 1 {
		t.Errorf("blocking = %d, want 1", n)
	}
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	rep.Findings = rep.Findings[:1]
	rep.Verdict = gate.VerdictWarn
	b.Reset()
	if n := WriteStagedSummary(&b, head, staged, rep); n != 0 || strings.Contains(b.String(), "refused") {
		t.Errorf("a medium finding: blocking %d\n%s", n, b.String())
	}
}
