package gitrange

import (
	"sort"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// TestRevert undoes, with git's own revert, a commit that brought a
// feature and its test: the test's deletion is medium and names the
// reverted commit, also when the files changed around the feature since
// and when the revert is one commit of a longer range. A message that
// names a commit the change does not undo line for line, or one outside
// BASE's history, lowers nothing (the hostile ways to borrow the rule), and
// neither does git's revert of a commit of tests alone. A revert that names
// no commit (GitHub's revert of a pull request) is found by its content
// when its message says revert.
func TestRevert(t *testing.T) {
	const (
		m0  = "package m\n\nfunc Add(a, b int) int { return a + b }\n"
		mul = "\nfunc Mul(a, b int) int { return a * b }\n"
		t0  = "package m\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"2+3\")\n\t}\n}\n"
		// TestMul's check is not on Mul's result alone, so that its
		// deletion with Mul is not already explained as a feature
		// removed with its test (see checkedCode).
		tm  = "\nfunc TestMul(t *testing.T) {\n\tif Mul(2, 3)+Add(0, 0) != 6 {\n\t\tt.Fatal(\"2*3\")\n\t}\n}\n"
		sub = "package m\n\nimport \"testing\"\n\nfunc TestSub(t *testing.T) {\n\tif Add(5, -3) != 2 {\n\t\tt.Fatal(\"5-3\")\n\t}\n}\n"
	)
	setup := func(t *testing.T) (dir, x string) {
		dir = testgit.Init(t)
		testgit.Write(t, dir, "go.mod", "module ex.com/m\n\ngo 1.22\n")
		testgit.Write(t, dir, "m.go", m0)
		testgit.Write(t, dir, "m_test.go", t0)
		testgit.Write(t, dir, "sub_test.go", sub)
		testgit.Commit(t, dir, "add")
		testgit.Write(t, dir, "m.go", m0+mul)
		testgit.Write(t, dir, "m_test.go", t0+tm)
		return dir, testgit.Commit(t, dir, "add Mul")
	}
	revert := func(t *testing.T, dir, x string) string {
		testgit.Run(t, dir, "revert", "--no-edit", x)
		return testgit.Run(t, dir, "rev-parse", "HEAD")
	}
	for _, tc := range []struct {
		name string
		// change makes the commits after X; it returns the range's
		// BASE and HEAD.
		change func(t *testing.T, dir, x string) (base, head string)
		want   []string // "severity test", sorted; lowered ones name X
	}{
		{"git revert", func(t *testing.T, dir, x string) (string, string) {
			h := revert(t, dir, x)
			return h + "^", h
		}, []string{"medium TestMul undoes"}},
		{"git revert after the files changed around it", func(t *testing.T, dir, x string) (string, string) {
			testgit.Write(t, dir, "m.go", "// Package m adds.\n"+m0+mul)
			testgit.Write(t, dir, "m_test.go", strings.Replace(t0, "import \"testing\"", "import (\n\t\"testing\"\n)", 1)+tm)
			testgit.Commit(t, dir, "doc, imports")
			h := revert(t, dir, x)
			return h + "^", h
		}, []string{"medium TestMul undoes"}},
		{"a revert in a longer range", func(t *testing.T, dir, x string) (string, string) {
			testgit.Write(t, dir, "README", "m\n")
			base := testgit.Commit(t, dir, "readme")
			revert(t, dir, x)
			testgit.Write(t, dir, "README", "m adds\n")
			return base, testgit.Commit(t, dir, "readme again")
		}, []string{"medium TestMul undoes"}},
		{"the message names a commit the change does not undo", func(t *testing.T, dir, x string) (string, string) {
			testgit.Write(t, dir, "m_test.go", "package m\n\nimport \"testing\"\n"+tm)
			h := testgit.Commit(t, dir, "Revert \"add Mul\"\n\nThis reverts commit "+x+".")
			return h + "^", h
		}, []string{"critical TestAdd"}},
		{"only the test of the reverted commit goes", func(t *testing.T, dir, x string) (string, string) {
			testgit.Write(t, dir, "m_test.go", t0)
			h := testgit.Commit(t, dir, "Revert \"add Mul\"\n\nThis reverts commit "+x+".")
			return h + "^", h
		}, []string{"critical TestMul"}},
		{"a revert that deletes another file's test too", func(t *testing.T, dir, x string) (string, string) {
			testgit.Run(t, dir, "revert", "--no-commit", x)
			testgit.Run(t, dir, "rm", "-q", "sub_test.go")
			h := testgit.Commit(t, dir, "Revert \"add Mul\"\n\nThis reverts commit "+x+".")
			return h + "^", h
		}, []string{"critical TestSub", "medium TestMul undoes"}},
		{"git revert of a commit of tests alone", func(t *testing.T, dir, x string) (string, string) {
			// The failing test a task is about, committed before the
			// agent starts: reverting it deletes the test, and nothing of
			// the code goes with it.
			testgit.Write(t, dir, "twice_test.go", "package m\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"2+2\")\n\t}\n}\n")
			y := testgit.Commit(t, dir, "the test the task is about")
			h := revert(t, dir, y)
			return h + "^", h
		}, []string{"critical TestTwice"}},
		{"a revert of a test's edit with the revert of its feature", func(t *testing.T, dir, x string) (string, string) {
			// tokio e56ff72fe7: one commit of tests alone (it had dropped
			// a check) undone with the feature commit it shares a file
			// with; together they undo line for line.
			testgit.Write(t, dir, "m_test.go", strings.Replace(t0, "\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"2+3\")\n\t}\n", "\t_ = Add(2, 3)\n", 1)+tm)
			z := testgit.Commit(t, dir, "test: drop the check")
			testgit.Run(t, dir, "revert", "--no-commit", z, x)
			h := testgit.Commit(t, dir, "Revert two\n\nThis reverts commit "+z+".\nThis reverts commit "+x+".")
			return h + "^", h
		}, []string{"medium TestMul undoes"}},
		{"a revert that names no commit", func(t *testing.T, dir, x string) (string, string) {
			testgit.Run(t, dir, "revert", "--no-commit", x)
			h := testgit.Commit(t, dir, "Revert \"add Mul\"")
			return h + "^", h
		}, []string{"medium TestMul undoes"}},
		{"GitHub's revert of a merged pull request", func(t *testing.T, dir, x string) (string, string) {
			// urfave/cli 6686660662: the pull request's merge is undone
			// by a branch whose one commit says `Revert "<PR title>"` and
			// names nothing; the merge of that branch is the change.
			testgit.Run(t, dir, "reset", "-q", "--hard", x+"^")
			testgit.Run(t, dir, "checkout", "-q", "-b", "feat")
			testgit.Run(t, dir, "cherry-pick", x)
			testgit.Run(t, dir, "checkout", "-q", "-")
			testgit.Run(t, dir, "merge", "-q", "--no-ff", "-m", "Merge pull request #1 from o/feat", "feat")
			pr := testgit.Run(t, dir, "rev-parse", "HEAD")
			testgit.Run(t, dir, "checkout", "-q", "-b", "revert-1")
			testgit.Run(t, dir, "revert", "--no-commit", "-m", "1", pr)
			testgit.Commit(t, dir, "Revert \"Add Mul\"")
			testgit.Run(t, dir, "checkout", "-q", "-")
			testgit.Run(t, dir, "merge", "-q", "--no-ff", "-m", "Merge pull request #2 from o/revert-1", "revert-1")
			h := testgit.Run(t, dir, "rev-parse", "HEAD")
			return h + "^", h
		}, []string{"medium TestMul undoes another"}},
		{"a message that says revert over a change that undoes nothing", func(t *testing.T, dir, x string) (string, string) {
			testgit.Write(t, dir, "m_test.go", t0)
			h := testgit.Commit(t, dir, "Revert \"add Mul\"")
			return h + "^", h
		}, []string{"critical TestMul"}},
		{"an unnamed revert of a commit of tests alone", func(t *testing.T, dir, x string) (string, string) {
			testgit.Write(t, dir, "twice_test.go", "package m\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"2+2\")\n\t}\n}\n")
			y := testgit.Commit(t, dir, "the test the task is about")
			testgit.Run(t, dir, "revert", "--no-commit", y)
			h := testgit.Commit(t, dir, "Revert \"the test the task is about\"")
			return h + "^", h
		}, []string{"critical TestTwice"}},
		{"an undoing whose message does not say revert", func(t *testing.T, dir, x string) (string, string) {
			// Nothing starts the search: the deletion is judged as usual.
			testgit.Run(t, dir, "revert", "--no-commit", x)
			h := testgit.Commit(t, dir, "simplify")
			return h + "^", h
		}, []string{"critical TestMul"}},
		{"the named commit is outside BASE's history", func(t *testing.T, dir, x string) (string, string) {
			// A side branch deletes TestAdd and adds it back: its second
			// commit "adds" TestAdd, and the change deleting TestAdd on the
			// main line undoes it line for line.
			testgit.Run(t, dir, "checkout", "-q", "-b", "side")
			testgit.Write(t, dir, "m_test.go", "package m\n\nimport \"testing\"\n"+tm)
			testgit.Commit(t, dir, "drop TestAdd")
			testgit.Write(t, dir, "m_test.go", t0+tm)
			readd := testgit.Commit(t, dir, "TestAdd back")
			testgit.Run(t, dir, "checkout", "-q", "-")
			testgit.Write(t, dir, "m_test.go", "package m\n\nimport \"testing\"\n"+tm)
			h := testgit.Commit(t, dir, "Revert \"TestAdd back\"\n\nThis reverts commit "+readd+".")
			return h + "^", h
		}, []string{"critical TestAdd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, x := setup(t)
			base, head := tc.change(t, dir, x)
			var got []string
			for _, f := range analyzeRange(t, dir, base, head) {
				if !f.Net || f.Type != gate.TestDeletion {
					continue
				}
				s := f.Severity.String() + " " + f.Test
				if strings.Contains(f.Message, "undoes commit") && strings.Contains(f.Message, x[:8]) {
					s += " undoes"
				} else if strings.Contains(f.Message, "undoes commit") {
					s += " undoes another"
				}
				got = append(got, s)
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("net test deletions:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}
