package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckCommand(t *testing.T) {
	root := newTree(t)
	// A link into the loop's state, and one to a test file.
	if err := os.Symlink(filepath.Join(root, ".aiwg", "ralph"), filepath.Join(root, "state-link")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cmd string
		deny      string // a part of the reason; "" allows
	}{
		// Legitimate commands.
		{name: "rename production file", cmd: "mv pkg/calc.go pkg/arith.go"},
		{name: "remove node_modules", cmd: "rm -rf node_modules"},
		{name: "remove build", cmd: "rm -rf build"},
		{name: "commit with message", cmd: `git commit -m "x"`},
		{name: "commit with -m cluster holding n", cmd: `git commit -am "no tests were harmed"`},
		{name: "commit message mentions no-verify", cmd: `git commit -m "--no-verify"`},
		{name: "rename test within test paths", cmd: "mv pkg/calc_test.go pkg/arith_test.go"},
		{name: "move test dir to test dir", cmd: "git mv tests tests_old/tests"},
		{name: "push", cmd: "git push origin main"},
		{name: "push dry run short n", cmd: "git push -n origin main"},
		{name: "git rm dry run", cmd: "git rm -n pkg/calc_test.go"},
		{name: "run tests", cmd: "go test ./... && npm test -- --watch=false"},
		{name: "grep in tests", cmd: "grep -rn TestAdd pkg/ | head"},
		{name: "find without deletion", cmd: "find . -name '*_test.go' -print"},
		{name: "find delete of non-tests", cmd: "find build -name '*.txt' -delete"},
		{name: "echo mentions rm", cmd: `echo "rm pkg/calc_test.go"`},
		{name: "comment mentions rm", cmd: "ls # rm pkg/calc_test.go"},
		{name: "append to a log", cmd: "go test ./... >> test_output.log 2>&1"},
		{name: "new test file from heredoc", cmd: "cat > pkg/new_test.go <<'EOF'\npackage pkg\nEOF"},
		{name: "status", cmd: "ralph-gate status"},
		{name: "reset inside the loop", cmd: "git reset --hard HEAD~1"},
		{name: "reset paths", cmd: "git reset HEAD~9 -- pkg/calc.go"},
		{name: "tag listing", cmd: "git tag -l 'ralph/*'"},
		{name: "config get hooksPath", cmd: "git config --get core.hooksPath"},
		{name: "sed on production", cmd: "sed -i 's/Add/Sum/' pkg/calc.go"},
		{name: "xargs on unknown list", cmd: "cat list.txt | xargs rm"},
		{name: "SKIP outside git", cmd: "SKIP=1 make"},
		{name: "clean build outputs", cmd: "rm -rf dist build coverage .cache"},
		{name: "untrack a secret", cmd: "git rm --cached .env"},
		{name: "move docs", cmd: "mv docs/notes.md docs/old-notes.md"},
		{name: "sed on source", cmd: "sed -i.bak 's/x/y/' src/app.ts"},
		{name: "amend", cmd: "git commit --amend --no-edit"},
		{name: "tag a release", cmd: "git tag v1.2.3"},

		// Test deletion, however spelled.
		{name: "rm test", cmd: "rm pkg/calc_test.go", deny: "rm would delete the test file pkg/calc_test.go"},
		{name: "rm double space", cmd: "rm   -f   pkg/calc_test.go", deny: "rm would delete"},
		{name: "git  rm", cmd: "git  rm pkg/calc_test.go", deny: "git rm would delete"},
		{name: "git rm cached", cmd: "git rm --cached -q pkg/calc_test.go", deny: "git rm would delete"},
		{name: "/bin/rm", cmd: "/bin/rm pkg/calc_test.go", deny: "rm would delete"},
		// Through wrappers, each with its own options (shellwrap): time -p
		// and setsid -f take no value, so the command after them is rm.
		{name: "time -p rm", cmd: "time -p rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "setsid -f rm", cmd: "setsid -f rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "uv run rm", cmd: "uv run rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "xvfb-run -a rm", cmd: "xvfb-run -a rm pkg/calc_test.go", deny: "rm would delete"},
		{name: `\rm`, cmd: `\rm pkg/calc_test.go`, deny: "rm would delete"},
		{name: "rm --", cmd: "rm -- tests/test_api.py", deny: "tests/test_api.py"},
		{name: "rm -- at the root, by name", cmd: "rm -- test_x.py", deny: "test_x.py"},
		{name: "rm -f --recursive", cmd: "rm -f --recursive src", deny: "src/app.test.ts"},
		{name: "quoted path", cmd: `rm "pkg/calc_test.go"`, deny: "rm would delete"},
		{name: "single-quoted split path", cmd: `rm 'pkg/'calc'_test.go'`, deny: "rm would delete"},
		{name: "glob", cmd: "rm pkg/*_test.go", deny: "pkg/calc_test.go"},
		{name: "brace", cmd: "rm pkg/calc{,_test}.go", deny: "pkg/calc_test.go"},
		{name: "rm -r dir with tests", cmd: "rm -rf tests", deny: "tests/test_api.py"},
		{name: "rm -r src", cmd: "rm -r src/", deny: "src/app.test.ts"},
		{name: "unlink", cmd: "unlink src/app.test.ts", deny: "unlink would delete"},
		{name: "after cd", cmd: "cd pkg && rm calc_test.go", deny: "pkg/calc_test.go"},
		{name: "absolute path", cmd: "rm " + filepath.Join(root, "pkg", "calc_test.go"), deny: "rm would delete"},
		{name: "variable prefix", cmd: `rm "$ROOT/pkg/calc_test.go"`, deny: "rm would delete"},
		{name: "sh -c", cmd: `sh -c 'rm pkg/calc_test.go'`, deny: "rm would delete"},
		{name: "bash -lc nested", cmd: `bash -lc "bash -c 'git rm -q pkg/calc_test.go'"`, deny: "git rm would delete"},
		{name: "eval", cmd: `eval "rm pkg/calc_test.go"`, deny: "rm would delete"},
		{name: "and list", cmd: "go build ./... && rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "semicolon", cmd: "true; rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "pipe", cmd: "yes | rm -i pkg/calc_test.go", deny: "rm would delete"},
		{name: "subshell", cmd: "(cd pkg; rm calc_test.go)", deny: "pkg/calc_test.go"},
		{name: "command substitution", cmd: "echo $(rm pkg/calc_test.go)", deny: "rm would delete"},
		{name: "function", cmd: "f() { rm pkg/calc_test.go; }; f", deny: "rm would delete"},
		{name: "env prefix", cmd: "X=1 rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "env command", cmd: "env X=1 rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "command builtin", cmd: "command rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "sudo", cmd: "sudo -u root rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "timeout", cmd: "timeout 10 rm pkg/calc_test.go", deny: "rm would delete"},
		{name: "xargs from find", cmd: "find . -name '*_test.go' | xargs rm", deny: "rm would delete"},
		{name: "xargs from git ls-files", cmd: "git ls-files pkg | xargs git rm", deny: "git rm would delete"},
		{name: "xargs -I", cmd: "ls pkg/calc_test.go | xargs -I{} rm {}", deny: "rm would delete"},
		{name: "find -delete", cmd: "find . -name '*_test.go' -delete", deny: "find -delete would delete"},
		{name: "find -exec rm", cmd: `find pkg -name "*_test.go" -exec rm {} \;`, deny: "rm would delete"},
		{name: "find -exec rm +", cmd: "find . -type f -name '*.py' -exec rm -f {} +", deny: "tests/test_api.py"},
		{name: "find dir delete", cmd: "find tests -delete", deny: "find -delete"},
		{name: "git alias", cmd: `git -c alias.x='!rm pkg/calc_test.go' x`, deny: "rm would delete"},
		{name: "truncate", cmd: "truncate -s 0 pkg/calc_test.go", deny: "rewrite the test file"},
		{name: "redirect overwrite", cmd: "echo '' > pkg/calc_test.go", deny: "overwrites the test file"},
		{name: "sed -i on test", cmd: "sed -i 's/4/5/' pkg/calc_test.go", deny: "rewrite the test file"},
		{name: "cp over a test", cmd: "cp /dev/null pkg/calc_test.go", deny: "rewrite the test file"},

		{name: "rm the whole tree", cmd: "rm -rf .", deny: "pkg/calc_test.go"},
		{name: "rm star", cmd: "rm -rf *", deny: "pkg/calc_test.go"},
		{name: "git rm everything cached", cmd: "git rm -r --cached .", deny: "git rm would delete"},
		{name: "command substitution list", cmd: "rm -f $(git ls-files '*_test.go')", deny: "rm would delete"},
		{name: "backquotes", cmd: "rm `find . -name '*_test.go'`", deny: "pkg/calc_test.go"},
		{name: "for loop", cmd: "for f in pkg/*_test.go; do rm \"$f\"; done", deny: "pkg/calc_test.go"},
		{name: "variable", cmd: "F=pkg/calc_test.go; rm $F", deny: "pkg/calc_test.go"},
		{name: "exported variable", cmd: "export D=pkg; rm \"$D/calc_test.go\"", deny: "pkg/calc_test.go"},
		{name: "redirect through a variable", cmd: "F=pkg/calc_test.go; : > $F", deny: "overwrites the test file"},
		{name: "ln over a test", cmd: "ln -sf /dev/null pkg/calc_test.go", deny: "rewrite the test file"},
		{name: "hard link to the config", cmd: "ln .ralph-gate.yml notes.yml", deny: "belongs to the gate"},
		{name: "go run approve", cmd: "go run ./cmd/ralph-gate approve", deny: "human's decision"},
		{name: "npx approve", cmd: "npx ralph-gate approve", deny: "human's decision"},
		{name: "for loop over production files", cmd: "for f in pkg/*.go; do gofmt -l \"$f\"; done"},
		{name: "variable of a build dir", cmd: "OUT=build; rm -rf \"$OUT\""},

		// Moving tests out of the test paths.
		{name: "mv test to non-test", cmd: "mv pkg/calc_test.go pkg/calc_test.go.bak", deny: "out of the test paths"},
		{name: "git mv test out", cmd: "git mv pkg/calc_test.go pkg/calc_disabled.go", deny: "git mv would move"},
		{name: "mv python test out of tests", cmd: "mv tests/test_api.py lib/api.py", deny: "tests/test_api.py"},
		{name: "mv test dir keeps names", cmd: "mv tests old"},
		{name: "mv test out of repo", cmd: "mv src/app.test.ts /tmp/", deny: "out of the test paths"},
		{name: "mv -t", cmd: "mv -t /tmp pkg/calc_test.go", deny: "out of the test paths"},

		// Skipping hooks.
		{name: "commit --no-verify", cmd: `git commit --no-verify -m x`, deny: "--no-verify"},
		{name: "commit -n", cmd: `git commit -n -m x`, deny: "--no-verify"},
		{name: "commit -anm", cmd: `git commit -anm x`, deny: "--no-verify"},
		{name: "commit abbreviated", cmd: `git commit --no-verif -m x`, deny: "--no-verify"},
		{name: "push --no-verify", cmd: "git push --no-verify origin main", deny: "--no-verify"},
		{name: "merge --no-verify", cmd: "git merge --no-verify feature", deny: "--no-verify"},
		{name: "hooksPath -c", cmd: "git -c core.hooksPath=/dev/null commit -m x", deny: "core.hooksPath"},
		{name: "hooksPath case", cmd: "git -c core.hookspath=/dev/null push", deny: "core.hooksPath"},
		{name: "hooksPath config", cmd: "git config core.hooksPath /dev/null", deny: "core.hooksPath"},
		{name: "hooksPath config set", cmd: "git config set --local core.hooksPath .nohooks", deny: "core.hooksPath"},
		{name: "hooksPath env", cmd: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x", deny: "core.hooksPath"},
		{name: "RALPH_GATE_SKIP", cmd: "RALPH_GATE_SKIP=1 git push", deny: "RALPH_GATE_SKIP"},
		{name: "export RALPH_GATE_SKIP", cmd: "export RALPH_GATE_SKIP=1; git push", deny: "RALPH_GATE_SKIP"},
		{name: "HUSKY=0", cmd: "HUSKY=0 git commit -m x", deny: "HUSKY"},

		// Shared history and the loop's tags.
		{name: "push -f", cmd: "git push -f origin main", deny: "force push"},
		{name: "push --force", cmd: "git push --force", deny: "force push"},
		{name: "push --force-with-lease", cmd: "git push --force-with-lease=main origin main", deny: "force push"},
		{name: "push +refspec", cmd: "git push origin +main", deny: "force push"},
		{name: "push -uf cluster", cmd: "git push -uf origin main", deny: "force push"},
		{name: "push delete loop tag", cmd: "git push origin :refs/tags/ralph/ralph-x-12345678/iter-001", deny: "loop's tag"},
		{name: "tag -d", cmd: "git tag -d ralph/ralph-x-12345678/iter-002", deny: "loop's tags"},
		{name: "tag -f", cmd: "git tag -f ralph/ralph-x-12345678/iter-002 HEAD", deny: "loop's tags"},
		{name: "update-ref", cmd: "git update-ref -d refs/tags/ralph/ralph-x-12345678/iter-002", deny: "iteration tags"},
		{name: "reset before baseline", cmd: "git reset --hard HEAD~9", deny: "before the loop's baseline"},
		{name: "reset -C", cmd: "git -C . reset --hard HEAD~9", deny: "before the loop's baseline"},

		// Human-only commands.
		{name: "approve", cmd: "ralph-gate approve", deny: "human's decision"},
		{name: "abs approve", cmd: "/usr/local/bin/ralph-gate reject --loop ralph-x-12345678", deny: "human's decision"},
		{name: "abort", cmd: "ralph-gate abort", deny: "human's decision"},
		{name: "repair", cmd: "ralph-gate repair --loop ralph-x-12345678", deny: "human's decision"},
		{name: "pause", cmd: "ralph-gate pause", deny: "human's decision"},
		{name: "resume", cmd: "ralph-gate resume", deny: "human's decision"},
		{name: "uninstall guard", cmd: "ralph-gate guard install --uninstall", deny: "removes the guard"},

		// The gate's own files.
		{name: "rm loop state", cmd: "rm -rf .aiwg", deny: "belongs to the gate"},
		{name: "redirect into state", cmd: "echo '{}' > .aiwg/ralph/registry.json", deny: "belongs to the gate"},
		{name: "append to config", cmd: "echo 'fail_on: none' >> .ralph-gate.yml", deny: "belongs to the gate"},
		{name: "cp over config", cmd: "cp /tmp/x .ralph-gate.yml", deny: "belongs to the gate"},
		{name: "tee config", cmd: "echo x | tee aiwg.yml", deny: "belongs to the gate"},
		{name: "state through a link", cmd: "echo x > state-link/registry.json", deny: "belongs to the gate"},
		{name: "git hooks", cmd: "echo exit 0 > .git/hooks/pre-push", deny: "belongs to the gate"},

		// Input the parser rejects.
		{name: "unparsable with rm", cmd: "rm pkg/calc_test.go ((", deny: "does not parse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGuard(t, root)
			g.Loop = fakeHistory{after: map[string]bool{"HEAD~1": true}}
			d := g.CheckCommand(tc.cmd)
			switch {
			case tc.deny == "" && d.Deny:
				t.Errorf("%q denied: %s", tc.cmd, d.Reason)
			case tc.deny != "" && !d.Deny:
				t.Errorf("%q allowed, want denied (%s)", tc.cmd, tc.deny)
			case tc.deny != "" && !strings.Contains(d.Reason, tc.deny):
				t.Errorf("%q: reason %q does not say %q", tc.cmd, d.Reason, tc.deny)
			}
		})
	}
}

func TestCheckCommandOutsideRepository(t *testing.T) {
	dir := t.TempDir()
	g := &Guard{WS: NewWorkspace("", "", dir, nil)}
	if d := g.CheckCommand("rm -rf x_test.go build"); d.Deny {
		t.Errorf("outside a repository, deleting files is not the gate's business: %s", d.Reason)
	}
	if d := g.CheckCommand("git push --force"); !d.Deny {
		t.Error("a force push is denied anywhere")
	}
}
