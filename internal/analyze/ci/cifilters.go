package ci

import (
	"encoding/json"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// A test run's selection read from its command line: the filters on the
// runner's own words (not a coverage wrapper's: `nyc --exclude test npm
// test` excludes nothing from the run) and the paths it names. A filtered
// run added beside the full run it leaves in place, or an exclusion whose
// files another run of the same runner names, takes no test out of CI; a
// run that became filtered, or a test directory no run names any more,
// does.

// testRun is one test command of a side's CI.
type testRun struct {
	file string
	key  string
	args []string // the runner's words, the runner first
	text string
	// words is how many of args name the runner ("python -m pytest").
	words int
}

// lintKey are the checks that run no tests: a filter on them selects what
// is linted.
var lintKey = lazyre.New(`lint|clippy|\bvet\b|check|tsc|mypy|ruff|flake8|pylint|pyright|eslint|staticcheck|rubocop|govulncheck|ralph-gate`)

// fileScripts are the scripts a CI file runs, as the program model reads
// them: a workflow's enabled steps and the command strings of their
// matrix, package.json's scripts, a Makefile's recipes, a shell script.
func fileScripts(p string, data []byte) []string {
	switch {
	case workflowLoaded(p):
		if !workflowGates(data) {
			return nil
		}
		jobs, order := workflowJobs(data)
		var out []string
		for _, id := range order {
			j := jobs[id]
			if j.off {
				continue
			}
			for _, s := range j.steps {
				if !s.off && s.run != "" {
					out = append(out, s.run)
				}
			}
			out = append(out, j.matrix...)
		}
		return out
	case ciEntry(p):
		return entryScripts(p, data)
	case path.Base(p) == "package.json":
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(data, &pkg) != nil {
			return nil
		}
		var out []string
		for _, k := range SortedKeys(pkg.Scripts) {
			out = append(out, pkg.Scripts[k])
		}
		return out
	case isMakefile(p):
		var out []string
		t := makeTargets(data)
		for _, k := range SortedKeys(t.recipes) {
			out = append(out, t.recipes[k]...)
		}
		return out
	case strings.HasSuffix(p, ".sh"):
		return []string{string(data)}
	}
	return nil
}

// testRuns are the test commands of every CI file of the side.
func (w *ciWorld) testRuns() []testRun {
	var out []testRun
	w.entryKeys() // which Makefile targets the entry points reach
	for _, p := range SortedKeys(w.files) {
		scripts := fileScripts(p, w.files[p])
		if isMakefile(p) && w.makeCalled {
			// Only the targets CI reaches run.
			scripts = nil
			t := makeTargets(w.files[p])
			for _, name := range SortedKeys(w.reached[p]) {
				scripts = append(scripts, t.recipes[name]...)
			}
		}
		for _, src := range scripts {
			for _, args := range scriptCommands(src) {
				if r, ok := runnerOf(args); ok {
					r.file = p
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// runnerOf finds the test runner among a command's words: the command
// itself, or the one a wrapper runs (nyc, c8, cross-env).
func runnerOf(args []string) (testRun, bool) {
	for i := 0; i < len(args) && i < 12; i++ {
		if strings.HasPrefix(args[i], "-") || strings.Contains(args[i], "=") && i > 0 {
			continue
		}
		a := args[i:]
		if to, ok := dropIn[path.Base(a[0])]; ok {
			a = append([]string{to}, a[1:]...)
		}
		k := checkKey(a)
		if k == "" {
			continue
		}
		if lintKey.MatchString(k) {
			return testRun{}, false
		}
		text := strings.Join(a, " ")
		// An environment that strips what the tests check
		// (PYTHONOPTIMIZE=1 drops every assert) belongs to the run.
		for _, w := range args[:i] {
			if optimizes.MatchString(w) {
				text = w + " " + text
			}
		}
		return testRun{key: canonKey(k), args: a, text: text, words: len(strings.Fields(k))}, true
	}
	return testRun{}, false
}

// optimizes matches an environment assignment that makes Python drop
// assert statements.
var optimizes = lazyre.New(`^PYTHONOPTIMIZE=["']?[1-9]`)

// rest are the words after the runner's name and subcommand.
func (r testRun) rest() []string {
	n := r.words
	if n > len(r.args) {
		n = len(r.args)
	}
	return r.args[n:]
}

// filtered reports a run that selects tests by name, marker or exclusion.
func (r testRun) filtered() bool { return RunnerFilter.MatchString(r.text) }

// valueFlags are the runners' options that take the next word as their
// value (mocha's --require, pytest's -k, jest's --config, go's -run).
var valueFlags = map[string]bool{
	"--require": true, "-r": true, "--reporter": true, "-R": true, "--timeout": true, "-t": true, "--ui": true, "-u": true,
	"--grep": true, "-g": true, "--fgrep": true, "-f": true, "--exclude": true, "--ignore": true, "--file": true,
	"--config": true, "-c": true, "--package": true, "--extension": true, "--reporter-option": true, "-O": true,
	"--project": true, "--testNamePattern": true, "--dir": true, "--root": true, "--environment": true, "--shard": true,
	"--testTimeout": true, "--maxWorkers": true, "-w": true, "-k": true, "-m": true, "-p": true, "--deselect": true,
	"--rootdir": true, "-n": true, "--maxfail": true, "--cov": true, "--durations": true, "-W": true, "--tb": true,
	"-o": true, "--basetemp": true, "--ignore-glob": true, "--cov-report": true, "-run": true, "-skip": true,
	"-count": true, "-timeout": true, "-tags": true, "-coverprofile": true, "-covermode": true, "-coverpkg": true,
	"-parallel": true, "-bench": true, "-benchtime": true, "-cpu": true, "-exec": true, "--features": true,
	"--exclude-files": true, "--target": true, "-j": true, "--manifest-path": true, "--bin": true, "--test": true,
	"--filter": true, "--selectProjects": true, "--testPathPattern": true, "--testPathIgnorePatterns": true,
}

// operands are the paths a run names for its runner to collect: words
// that are no option nor an option's value, with a / or a file
// extension (test/, test/acceptance/, specs/runner.test.ts).
func (r testRun) operands() []string {
	var out []string
	rest := r.rest()
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			return out // what follows goes to the test binary
		case strings.HasPrefix(a, "-"):
			if valueFlags[a] && i+1 < len(rest) {
				i++
			}
		case strings.Contains(a, "/") || path.Ext(a) != "" && !strings.Contains(a, "=") || pathsOnly[r.key] && !strings.Contains(a, "="):
			out = append(out, cleanOperand(a))
		}
	}
	return out
}

// pathsOnly are the runners whose every operand is a path (a package
// pattern, a directory, a file or a node id), so that a bare word names
// what they collect (`pytest tests`, `go test pkg`); other runners read
// one as a filter on names.
var pathsOnly = map[string]bool{"go test": true, "pytest": true}

func cleanOperand(a string) string {
	a = strings.Trim(a, `"'`)
	a = strings.TrimPrefix(a, "./")
	if a != "/" {
		a = strings.TrimSuffix(a, "/")
	}
	// Go's x/... is the directory x and below; ./... is everything.
	if a == "..." {
		return "."
	}
	a = strings.TrimSuffix(a, "/...")
	return a
}

// excluded are the values of a run's exclusion options: what it keeps
// out (--exclude x, --ignore=x).
var exclusionFlag = lazyre.New(`(?:^|\s)--?(?:exclude|ignore|ignore-glob|deselect|skip|testPathIgnorePatterns)(?:=|\s+)("[^"]*"|'[^']*'|\S+)`)

func (r testRun) excluded() []string {
	var out []string
	for _, m := range exclusionFlag.FindAllStringSubmatch(strings.Join(r.rest(), " "), -1) {
		out = append(out, cleanOperand(m[1]))
	}
	return out
}

// selectsOnlyBy reports whether every filter of the run is an exclusion
// (and not a selection by name or marker, which nothing else makes up
// for).
func (r testRun) selectsOnlyBy() bool {
	t := " " + strings.Join(r.rest(), " ")
	t = exclusionFlag.ReplaceAllString(t, " ")
	return !RunnerFilter.MatchString(r.key + t)
}

// filterChanges reports the test runs of HEAD's CI that filter tests no
// run of BASE filtered, unless the full run they narrow is still in
// place, or another run names each file they exclude; and the paths a
// run of BASE named that no run of HEAD names while they still exist.
func filterChanges(changed []*File, base, head *ciWorld, exists func(string, bool) bool) []gate.Finding {
	was, is := base.testRuns(), head.testRuns()
	baseText := map[string]bool{}
	for _, r := range was {
		baseText[norm(r.text)] = true
	}
	headText := map[string]bool{}
	for _, r := range is {
		headText[norm(r.text)] = true
	}
	var out []gate.Finding
	seen := map[string]bool{}
	for _, r := range is {
		if !r.filtered() || baseText[norm(r.text)] || seen[r.file+"\x00"+r.text] {
			continue
		}
		seen[r.file+"\x00"+r.text] = true
		// A run of BASE edited around the filters it had.
		if sameFilters(r, was) {
			continue
		}
		// A run added beside the runs of BASE, all still in place.
		kept, had := true, false
		for _, b := range was {
			if b.key == r.key {
				had = true
				kept = kept && headText[norm(b.text)]
			}
		}
		if had && kept {
			continue
		}
		// Exclusions only, each one a path another run names.
		if ex := r.excluded(); len(ex) > 0 && r.selectsOnlyBy() {
			named := map[string]bool{}
			for _, o := range is {
				if o.key == r.key && o.text != r.text {
					for _, op := range o.operands() {
						named[op] = true
					}
				}
			}
			all := true
			for _, e := range ex {
				all = all && namedFile(e, named)
			}
			if all {
				continue
			}
		}
		out = append(out, gate.NewFinding(gate.RuleRunnerFilter, gate.SeverityHigh, r.file, r.line(head.files[r.file]), "", "", norm(r.text),
			fmt.Sprintf("%s now filters which tests run: %s.", r.file, Quoted(r.text))))
	}
	// The paths the runs of BASE named.
	named := map[string]map[string]bool{}
	bare := map[string]bool{}
	for _, r := range is {
		ops := r.operands()
		if len(ops) == 0 {
			bare[r.key] = true
		}
		if named[r.key] == nil {
			named[r.key] = map[string]bool{}
		}
		for _, op := range ops {
			named[r.key][op] = true
		}
	}
	for _, r := range was {
		if headText[norm(r.text)] || bare[r.key] || named[r.key] == nil {
			continue // unchanged, or the runner's default selection runs
		}
		for _, op := range r.operands() {
			if coveredBy(op, named[r.key]) || seen[r.key+"\x00"+op] || strings.ContainsAny(op, "*?$") {
				continue
			}
			if exists != nil && !exists(op, true) && !MovedOutOf(op, named[r.key], changed) {
				continue // the directory went: its tests were deleted, or moved where a run names them
			}
			seen[r.key+"\x00"+op] = true
			f := r.file
			if head.files[f] == nil {
				continue // the file went: test-command-removed's
			}
			// (tests -> tests/unit tests/integration stays high: whether
			// tests/ holds more than those is not known here.)
			sev := gate.SeverityHigh
			out = append(out, gate.NewFinding(gate.RuleRunnerNarrowed, sev, f, LineOf(head.files[f], r.args[0]), "", "", r.key+" -"+op,
				fmt.Sprintf("%s: no `%s` run names %s any more, and it still exists: its tests no longer run.", f, r.key, Quoted(op))))
		}
	}
	return out
}

// coveredBy reports a path a run names, or one below a directory it
// names.
func coveredBy(op string, named map[string]bool) bool {
	for n := range named {
		if n == op || n == "." || strings.HasPrefix(op, n+"/") {
			return true
		}
	}
	return false
}

// programmedFilter reports whether an added line that reads as a runner
// filter is part of a script the program model reads (filterChanges
// judges it then): a step's run, a matrix command, a package.json script,
// a recipe.
func programmedFilter(p string, data []byte, line string) bool {
	if !structuredCI(p) || isCommentLine(line) {
		return false
	}
	t := strings.TrimSpace(line)
	if path.Base(p) == "package.json" {
		if !json.Valid(data) {
			return false
		}
		_, v, ok := strings.Cut(t, ":")
		if !ok {
			return false
		}
		var s string
		if json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(v), ",")), &s) != nil {
			return false
		}
		t = s
	} else {
		t = strings.TrimPrefix(t, "- ")
		if k, v, ok := strings.Cut(t, ":"); ok && !strings.ContainsAny(k, " \t\"'") {
			t = strings.TrimSpace(v)
		}
		t = strings.Trim(t, `"'`)
	}
	if t == "" {
		return false
	}
	scripts := fileScripts(p, data)
	for _, s := range scripts {
		if strings.Contains(s, t) {
			return true
		}
	}
	return false
}

// sameFilters reports a run whose every filter a run of BASE of the same
// runner had (`go test -run X` given another option).
func sameFilters(r testRun, was []testRun) bool {
	fl := runFilters(r)
	if len(fl) == 0 {
		return false
	}
	for _, b := range was {
		if b.key != r.key {
			continue
		}
		had := map[string]bool{}
		for _, f := range runFilters(b) {
			had[norm(f)] = true
		}
		all := true
		for _, f := range fl {
			all = all && had[norm(f)]
		}
		if all {
			return true
		}
	}
	return false
}

// runFilters are a run's filters as written: its filter options with
// their values, and the options that select without one (cargo test's
// --doc or --lib, --changed, --lf).
func runFilters(r testRun) []string {
	out := filterFlag.FindAllString(strings.Join(r.rest(), " "), -1)
	for _, w := range r.rest() {
		if w == "--" {
			break
		}
		if selectionWord[w] {
			out = append(out, w)
		}
	}
	return out
}

// selectionWord are the options that select tests without a value.
var selectionWord = map[string]bool{
	"--lib": true, "--bins": true, "--doc": true, "--tests": true, "--examples": true,
	"--changed": true, "--onlyChanged": true, "-o": true, "--lf": true, "--last-failed": true,
}

// line is the file line of the run's filter (of its last word when no
// filter is found as written).
func (r testRun) line(data []byte) int {
	for _, a := range r.rest() {
		if strings.HasPrefix(a, "-") && RunnerFilter.MatchString(r.key+" "+a+" x") {
			if i := strings.Index(string(data), a); i >= 0 {
				return 1 + strings.Count(string(data[:i]), "\n")
			}
		}
	}
	return LineOf(data, r.args[len(r.args)-1])
}

// namedFile reports an excluded path another run names: as written, or
// by its trailing part (`vitest runner.test.ts` runs specs/runner.test.ts:
// a runner's file filter matches the end of the path).
func namedFile(e string, named map[string]bool) bool {
	for o := range named {
		if o == e || strings.HasSuffix(e, "/"+o) {
			return true
		}
	}
	return false
}

// MovedOutOf reports a test file the change moved from below dir to a
// path none of the listed patterns covers.
func MovedOutOf(dir string, listed map[string]bool, changed []*File) bool {
	dir = strings.TrimSuffix(strings.TrimPrefix(dir, "./"), "/")
	for _, fc := range changed {
		if fc.OldPath == "" || fc.NewPath == "" || fc.OldPath == fc.NewPath || !strings.HasPrefix(fc.OldPath, dir+"/") {
			continue
		}
		if !(fc.OldTest || fc.NewTest) {
			continue
		}
		covered := false
		for l := range listed {
			l = strings.TrimSuffix(strings.TrimPrefix(l, "./"), "/")
			covered = covered || l == "." || strings.HasPrefix(fc.NewPath, l+"/")
		}
		if !covered {
			return true
		}
	}
	return false
}

func LineOf(data []byte, s string) int {
	if i := strings.Index(string(data), s); i >= 0 {
		return 1 + strings.Count(string(data[:i]), "\n")
	}
	return 1
}
