package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

func init() {
	register("init", initHelp, runInit)
}

const initHelp = `Usage:
  ralph-gate init [--repo DIR] [--hook] [--guard] [--force] [--dry-run]

Sets ralph-gate up in a repository: detects its toolchains from its files and
writes a commented .ralph-gate.yml and the GitHub workflows that gate pull
requests in the safe two-workflow shape (the job that runs the pull request's
code holds no token; a second workflow posts the results). It prints what it
wrote and what to commit.

It never overwrites a file that differs without --force, and running it twice
changes nothing. The configuration is read from the base branch: commit it
there.

Flags:
`

// toolchains found in a work tree: what the generated workflow sets up.
type toolchains struct {
	goMod, nodeVersionFile, nodeLock, python, pythonReqs, pythonPkg, rust, java bool
	pnpm                                                                        bool
}

func detectToolchains(root string) toolchains {
	has := func(names ...string) bool {
		for _, n := range names {
			if _, err := os.Lstat(filepath.Join(root, n)); err == nil {
				return true
			}
		}
		return false
	}
	var tc toolchains
	tc.goMod = has("go.mod", "go.work")
	tc.nodeLock = has("package.json")
	tc.nodeVersionFile = has(".nvmrc")
	tc.pnpm = has("pnpm-lock.yaml")
	tc.pythonReqs = has("requirements.txt")
	tc.pythonPkg = has("pyproject.toml", "setup.py")
	tc.python = tc.pythonReqs || tc.pythonPkg || has("setup.cfg", "pytest.ini", "tox.ini", "conftest.py")
	tc.rust = has("Cargo.toml")
	tc.java = has("pom.xml", "build.gradle", "build.gradle.kts")
	return tc
}

func (tc toolchains) names() []string {
	var out []string
	for _, c := range []struct {
		on   bool
		name string
	}{{tc.goMod, "Go"}, {tc.nodeLock, "JavaScript/TypeScript"}, {tc.python, "Python"}, {tc.rust, "Rust"}, {tc.java, "Java"}} {
		if c.on {
			out = append(out, c.name)
		}
	}
	return out
}

// setupSteps are the measure job's steps that install the toolchains the
// collectors run the project's tests with.
func (tc toolchains) setupSteps() string {
	var b strings.Builder
	if tc.goMod {
		b.WriteString("      - uses: actions/setup-go@v5\n        with:\n          go-version-file: go.mod\n")
	}
	if tc.nodeLock {
		if tc.pnpm {
			b.WriteString("      - uses: pnpm/action-setup@v4\n")
		}
		b.WriteString("      - uses: actions/setup-node@v4\n        with:\n")
		if tc.nodeVersionFile {
			b.WriteString("          node-version-file: .nvmrc\n")
		} else {
			b.WriteString("          node-version: lts/*\n")
		}
	}
	if tc.python {
		b.WriteString("      - uses: actions/setup-python@v5\n        with:\n          python-version: \"3.x\"\n")
		b.WriteString("      - name: Python test dependencies\n        run: |\n          python -m pip install pytest pytest-cov\n")
		if tc.pythonReqs {
			b.WriteString("          python -m pip install -r requirements.txt\n")
		}
		if tc.pythonPkg {
			b.WriteString("          python -m pip install -e .\n")
		}
	}
	return b.String()
}

func initConfig(tc toolchains) string {
	found := "none found (static analysis only)"
	if n := tc.names(); len(n) > 0 {
		found = strings.Join(n, ", ")
	}
	return `# ralph-gate: the regression gate for AI coding agents.
# Read from the base branch of a change (BASE), never from the change itself:
# commit it there. Every key: https://github.com/ralph-gate/ralph-gate#configuration
#
# Toolchains found by ralph-gate init: ` + found + `.
# compare (and the GitHub Action) run their tests at BASE and HEAD.

# Block on findings at or above this severity: critical, high, medium, low, none.
fail_on: high

# Paths never analyzed (** spans directories); vendor/, node_modules/,
# third_party/ and testdata/ are ignored already.
ignore: []
#  - "generated/**"

# Reviewed, deliberate changes the gate lets through until a date:
#   ralph-gate waive RG-TD-0123456789ab --reason "..." --by NAME --days 30
# prints the entry to add here.
waivers: []

# The Action's approve label overrides a block; agents never approve.
# approve:
#   agent_accounts: [my-agent-bot]
`
}

func initWorkflow(tc toolchains) string {
	return `# ralph-gate: gate every pull request (written by ralph-gate init).
# This job runs the pull request's code, so it holds no token at all;
# ralph-gate-report.yml, which runs none of it, posts the results.
name: ralph-gate
on:
  pull_request:
    # labeled: applying the approve label runs a measure run of its own,
    # whose triggering actor the report workflow checks.
    types: [opened, synchronize, reopened, labeled, unlabeled]

permissions:
  contents: read

jobs:
  measure:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0              # BASE and every commit of the pull request
          persist-credentials: false  # no token left in .git/config for the tests
` + tc.setupSteps() + `      - id: gate
        uses: ralph-gate/ralph-gate@v1
        with:
          token: ""                   # no token in the job that runs the code
          comment: "false"
          sarif: ralph-gate.sarif
      - if: always()
        uses: actions/upload-artifact@v4
        with:
          name: ralph-gate
          path: |
            ${{ runner.temp }}/ralph-gate-report.json
            ralph-gate.sarif
          if-no-files-found: ignore
`
}

const initReportWorkflow = `# ralph-gate: post the results of a ralph-gate run (written by ralph-gate init).
# It runs on the default branch's code only, never the pull request's.
name: ralph-gate report
on:
  workflow_run:
    workflows: [ralph-gate]
    types: [completed]

permissions:
  contents: read          # the default branch's .ralph-gate.yml
  pull-requests: write    # the sticky comment, and the approve label's check
  statuses: write         # the commit status "ralph-gate": require it in branch protection
  security-events: write  # upload-sarif
  actions: read           # download the measure run's artifact

jobs:
  report:
    runs-on: ubuntu-latest
    if: github.event.workflow_run.conclusion == 'success' || github.event.workflow_run.conclusion == 'failure'
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - uses: actions/download-artifact@v4
        with:
          name: ralph-gate
          path: artifact
          run-id: ${{ github.event.workflow_run.id }}
          github-token: ${{ github.token }}
      - uses: ralph-gate/ralph-gate@v1
        with:
          report-from: artifact/ralph-gate-report.json
      - if: hashFiles('artifact/ralph-gate.sarif') != ''
        uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: artifact/ralph-gate.sarif
          category: ralph-gate
          ref: refs/pull/${{ github.event.workflow_run.pull_requests[0].number }}/head
          sha: ${{ github.event.workflow_run.head_sha }}
`

// initFile is one file init writes, relative to the repository's root.
type initFile struct {
	path, content string
}

func runInit(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("init", env)
	repoFlag := fs.String("repo", "", "the repository `DIR` (default: the current directory)")
	withHook := fs.Bool("hook", false, "also install the git pre-push hook (ralph-gate hook install)")
	withGuard := fs.Bool("guard", false, "also install the agent guard's hooks in the project (ralph-gate guard install)")
	force := fs.Bool("force", false, "overwrite files that differ from what init writes")
	dryRun := fs.Bool("dry-run", false, "print the files instead of writing them")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("init", err, env)
	}
	if len(pos) > 0 {
		return usagef("init: unexpected argument %q (run 'ralph-gate help init')", pos[0])
	}
	dir := orDefault(*repoFlag, orDefault(env.Dir, "."))
	if *repoFlag != "" && !filepath.IsAbs(dir) && env.Dir != "" {
		dir = filepath.Join(env.Dir, dir)
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return inputErr(fmt.Errorf("init: %w", err))
	}
	root := repo.Root()
	repo.Close()
	if root == "" {
		return inputErr(fmt.Errorf("init: %s is a bare repository: run init in a work tree", dir))
	}
	tc := detectToolchains(root)
	files := []initFile{
		{config.FileName, initConfig(tc)},
		{".github/workflows/ralph-gate.yml", initWorkflow(tc)},
		{".github/workflows/ralph-gate-report.yml", initReportWorkflow},
	}
	if n := tc.names(); len(n) > 0 {
		fmt.Fprintf(env.Stdout, "ralph-gate: found %s\n", strings.Join(n, ", "))
	} else {
		fmt.Fprintf(env.Stdout, "ralph-gate: found no toolchain compare measures; the gate analyzes changes statically\n")
	}
	// Every path is checked before any file is written: init writes all of
	// them or none.
	for _, f := range files {
		if err := checkInitPath(root, f.path); err != nil {
			return inputErr(fmt.Errorf("init: %w", err))
		}
	}
	var toCommit []string
	for _, f := range files {
		if *dryRun {
			fmt.Fprintf(env.Stdout, "--- %s\n%s", f.path, f.content)
			continue
		}
		status, err := writeInitFile(root, f, *force)
		if err != nil {
			return inputErr(fmt.Errorf("init: %w", err))
		}
		if status == "kept" {
			fmt.Fprintf(env.Stdout, "ralph-gate: kept %s: it differs from what init writes (--force overwrites it, --dry-run shows it)\n", f.path)
		} else {
			fmt.Fprintf(env.Stdout, "ralph-gate: %s %s\n", status, f.path)
		}
		if status == "wrote" || status == "overwrote" {
			toCommit = append(toCommit, f.path)
		}
	}
	if *dryRun {
		fmt.Fprintln(env.Stdout, "ralph-gate: dry run: nothing written")
		return nil
	}
	if *withHook {
		if err := runHookInstall(ctx, []string{"--repo", root}, env); err != nil {
			return err
		}
	}
	if *withGuard {
		genv := env
		genv.Dir = root
		if err := runGuardInstall(nil, genv); err != nil {
			return err
		}
		if rel, err := filepath.Rel(root, clients.Default.Hooks(root, env.Getenv("HOME"), env.Getenv).Shared); err == nil {
			toCommit = append(toCommit, filepath.ToSlash(rel))
		}
	}
	if len(toCommit) > 0 {
		fmt.Fprintf(env.Stdout, "ralph-gate: commit them to the default branch: git add %s && git commit -m \"Gate agent changes with ralph-gate\"\n", strings.Join(toCommit, " "))
		if *withHook {
			fmt.Fprintf(env.Stdout, "ralph-gate: the hook refuses that push by design (a change to the gate's own configuration needs a human's review, and you are it): push it with git push --no-verify\n")
		}
	}
	return nil
}

// checkInitPath refuses a path init would write through a symbolic link, or
// where something other than a file is.
func checkInitPath(root, rel string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	for d := filepath.Dir(p); d != root && strings.HasPrefix(d, root); d = filepath.Dir(d) {
		if fi, err := os.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: %s is a symbolic link; not writing through it", rel, d)
		}
	}
	fi, err := os.Lstat(p)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; not writing through it", rel)
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s exists and is not a file", rel)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return nil
}

// writeInitFile writes one file unless it is there already: "wrote",
// "unchanged" (the same content), "kept" (different content, no --force)
// or "overwrote". It refuses to write through a symbolic link.
func writeInitFile(root string, f initFile, force bool) (string, error) {
	if err := checkInitPath(root, f.path); err != nil {
		return "", err
	}
	p := filepath.Join(root, filepath.FromSlash(f.path))
	old, err := os.Lstat(p)
	switch {
	case err == nil:
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		if bytes.Equal(data, []byte(f.content)) {
			return "unchanged", nil
		}
		if !force {
			return "kept", nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(p, []byte(f.content), 0o644); err != nil {
		return "", err
	}
	if old != nil {
		return "overwrote", nil
	}
	return "wrote", nil
}
