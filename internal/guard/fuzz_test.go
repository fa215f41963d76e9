package guard

import (
	"path/filepath"
	"testing"
)

func FuzzCheckCommand(f *testing.F) {
	for _, s := range []string{
		"rm pkg/calc_test.go", "git push -f", `sh -c 'eval "rm x_test.go"'`, "find . -name '*_test.go' -exec rm {} +",
		"ls | xargs -I{} git rm {}", "rm pkg/calc{,_test}.go", `git -c alias.x='!rm a' x`, "echo $((1+",
		"cd pkg && mv calc_test.go /tmp", "env -S 'rm x_test.go'", "a=$(rm b); ${x:-$(rm c)}",
	} {
		f.Add(s)
	}
	root := newTree(f)
	g := newGuard(f, root)
	g.Loop = fakeHistory{}
	g.WS.Cwd = filepath.Join(root, "pkg")
	f.Fuzz(func(t *testing.T, cmd string) {
		// checkCommand, not CheckCommand: a panic must fail the fuzzer,
		// not turn into a denial.
		_ = g.checkCommand(cmd)
	})
}
