package testgit

import "testing"

// TestSameContentSameCommit: the fixed identity and date make a commit's
// name depend on its content alone, whatever the machine's configuration.
func TestSameContentSameCommit(t *testing.T) {
	t.Setenv("GIT_DIR", "/nonexistent") // as in a git hook: ignored
	var shas []string
	for i := 0; i < 2; i++ {
		dir := Init(t)
		Write(t, dir, "a/b.txt", "x\n")
		shas = append(shas, Commit(t, dir, "one"))
	}
	if shas[0] != shas[1] || len(shas[0]) != 40 {
		t.Errorf("the same content made commits %v", shas)
	}
}
