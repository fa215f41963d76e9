package ci

import (
	"encoding/json"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/syntax"
)

// The checks CI runs, read as one program across its files: a workflow's
// `make richtest` runs what the Makefile's richtest target runs, a
// workflow's `./scripts/test.sh` what the script runs, .travis.yml's
// script: list what its commands run. A check that left one file and that
// another file runs at the same side (the other workflow of a .travis.yml
// that was dropped, the renamed target the workflow now calls) is not
// removed.

// ciWorld is every CI file of one side of a change, by path: the base's CI
// files (Change.BaseCI) with the change's sides over them.
type ciWorld struct {
	files map[string][]byte
	// makeCalled says some entry point runs make, or there are entry
	// points: a Makefile's targets then count only as far as an entry
	// point calls them. Where CI is not known (no workflow), every
	// target counts.
	makeCalled bool
	memo       map[string]map[string]bool
	// reached are the targets of each Makefile that a call reached.
	reached map[string]map[string]bool
}

// ciEntry reports whether CI starts at a file: a workflow GitHub loads,
// .travis.yml, .gitlab-ci.yml.
func ciEntry(p string) bool {
	return workflowLoaded(p) || p == ".travis.yml" || p == ".gitlab-ci.yml"
}

// structuredCI reports whether a file's checks are read by the program
// model (ciWorld.keys); others keep the line count of testCommands.
func structuredCI(p string) bool {
	switch {
	case ciEntry(p), path.Base(p) == "package.json":
		return true
	case Classify(p) == BuildScript:
		return isMakefile(p) || strings.HasSuffix(p, ".sh")
	}
	return false
}

func isMakefile(p string) bool {
	b := path.Base(p)
	return b == "Makefile" || b == "makefile" || b == "GNUmakefile"
}

func newCIWorld(files map[string][]byte) *ciWorld {
	w := &ciWorld{files: files, memo: map[string]map[string]bool{}, reached: map[string]map[string]bool{}}
	for p, data := range files {
		if !ciEntry(p) {
			continue
		}
		w.makeCalled = true
		for _, sc := range entryScripts(p, data) {
			for _, args := range scriptCommands(sc) {
				if len(args) > 0 && path.Base(args[0]) == "make" {
					w.makeCalled = true
				}
			}
		}
	}
	return w
}

// entryScripts are the shell scripts an entry point runs.
func entryScripts(p string, data []byte) []string {
	var out []string
	if workflowLoaded(p) {
		if !workflowGates(data) {
			return nil
		}
		// The jobs and steps `if: false` switches off run nothing.
		jobs, order := workflowJobs(data)
		for _, id := range order {
			if jobs[id].off {
				continue
			}
			for _, s := range jobs[id].steps {
				if !s.off && s.run != "" {
					out = append(out, s.run)
				}
			}
		}
		return out
	}
	// .travis.yml and .gitlab-ci.yml: the script lists, at the top and
	// in each job.
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || n.Kind != yaml.MappingNode || depth > 4 {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch k {
			case "script", "before_script", "install":
				switch v.Kind {
				case yaml.ScalarNode:
					out = append(out, v.Value)
				case yaml.SequenceNode:
					for _, e := range v.Content {
						if e.Kind == yaml.ScalarNode {
							out = append(out, e.Value)
						}
					}
				}
			default:
				walk(v, depth+1)
				if v.Kind == yaml.SequenceNode {
					for _, e := range v.Content {
						walk(e, depth+1)
					}
				}
			}
		}
	}
	walk(doc.Content[0], 0)
	return out
}

// workflowGates reports whether a workflow's triggers run it on the way a
// change lands: a pull request, a push, a merge queue, or a call from
// another workflow. One that runs only by hand or on a timer
// (workflow_dispatch, schedule, release) gates no change: its checks run
// nowhere a change has to pass them. One whose triggers cannot be read
// counts as gating.
func workflowGates(data []byte) bool {
	_, events, err := workflowScripts(data)
	if err != nil || len(events) == 0 {
		return true
	}
	for _, e := range append([]string{"push", "workflow_call"}, prEvents...) {
		if events[e] {
			return true
		}
	}
	return false
}

// scriptCommands are the simple commands of a script, their words as the
// shell would pass them (wrappers such as env and timeout taken off); nil
// when the script does not parse.
func scriptCommands(src string) [][]string {
	return commandsMemo.getString(src, func() [][]string { return readScriptCommands(src) })
}

var commandsMemo textMemo[[][]string]

// readScriptCommands is scriptCommands without the memo.
func readScriptCommands(src string) [][]string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(withoutExpressions(src)), "")
	if err != nil {
		return nil
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		args := make([]string, 0, len(c.Args)+1)
		for _, as := range c.Assigns {
			// The one environment read as part of a test run (see
			// optimizes): PYTHONOPTIMIZE=1 pytest drops every assert.
			if as.Name != nil && as.Name.Value == "PYTHONOPTIMIZE" && as.Value != nil {
				args = append(args, "PYTHONOPTIMIZE="+wordText(as.Value))
			}
		}
		for _, w := range c.Args {
			args = append(args, wordText(w))
		}
		if args = unwrap(args); len(args) > 0 {
			out = append(out, args)
		}
		return true
	})
	return out
}

// keys returns the checks a file runs at this side, following make
// targets and scripts into the files of the side.
func (w *ciWorld) keys(p string) map[string]bool {
	if m, ok := w.memo[p]; ok {
		return m
	}
	w.memo[p] = nil // a file that runs itself runs nothing more
	data := w.files[p]
	m := map[string]bool{}
	switch {
	case path.Base(p) == "package.json":
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(data, &pkg) == nil {
			for _, src := range pkg.Scripts {
				w.scriptKeys(path.Dir(p), src, m)
			}
		}
	case isMakefile(p):
		for _, t := range makeTargets(data).recipes {
			for _, src := range t {
				w.scriptKeys(path.Dir(p), src, m)
			}
		}
	case strings.HasSuffix(p, ".sh") || shellShebang(data):
		w.scriptKeys(".", string(data), m)
	default:
		for _, src := range fileScripts(p, data) {
			w.scriptKeys(".", src, m)
		}
	}
	w.memo[p] = m
	return m
}

// scriptKeys adds the checks a script runs: the check commands it names,
// what the make targets it calls run, what the scripts it calls run.
func (w *ciWorld) scriptKeys(dir, src string, m map[string]bool) {
	for _, args := range scriptCommands(src) {
		name := path.Base(args[0])
		if name == "make" {
			if w.makeKeys(dir, args[1:], m) {
				continue
			}
		}
		script := args[0]
		if (name == "bash" || name == "sh") && len(args) > 1 {
			script = args[1]
		}
		if strings.HasSuffix(script, ".sh") || strings.Contains(script, "/") {
			if p := path.Clean(path.Join(dir, script)); w.files[p] != nil {
				for k := range w.keys(p) {
					m[k] = true
				}
				continue
			}
		}
		if to, ok := dropIn[name]; ok {
			args = append([]string{to}, args[1:]...)
		}
		k := checkKey(args)
		if k == "" && packageRunner[name] && len(args) > 1 {
			// yarn jest, pnpm exec vitest: the package's binary.
			rest := args[1:]
			if (rest[0] == "exec" || rest[0] == "dlx") && len(rest) > 1 {
				rest = rest[1:]
			}
			k = checkKey(rest)
		}
		if k == "" && strings.HasPrefix(args[0], "-") {
			// A wrapper's options left over (uv run --locked tox, uv run
			// --with x -- pytest): the first word that names a check.
			for i := 1; i < len(args) && i < 8 && k == ""; i++ {
				if !strings.HasPrefix(args[i], "-") {
					k = checkKey(args[i:])
				}
			}
		}
		if k != "" {
			m[canonKey(k)] = true
		}
	}
}

// canonKey names the same check one way: py.test and python -m pytest are
// pytest, npm run test is npm test.
func canonKey(k string) string {
	switch k {
	case "py.test", "python -m pytest", "python3 -m pytest":
		return "pytest"
	case "python3 -m unittest":
		return "python -m unittest"
	}
	if f := strings.Fields(k); len(f) == 3 && f[1] == "run" && f[2] == "test" && packageRunner[f[0]] {
		return f[0] + " test"
	}
	return k
}

// lintOnly are the checks that run no tests: test-command-removed is
// about test runs (a linter's job replaced by another linter's action is
// not a test run dropped).
var lintOnly = lazyre.New(`^(golangci-lint|staticcheck|eslint|tsc|mypy|ruff( check)?|flake8|pylint|pyright|rubocop|govulncheck|ralph-gate|cargo (clippy|check)|go vet|python3? -m (mypy|pylint|flake8|ruff)|deno (lint|check)|(npm|yarn|pnpm|bun) (run )?(lint|typecheck|type-check)\S*|(make|just|task) (lint|vet)\S*)$`)

// testKeys are the test runs among a set of checks.
func testKeys(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		if !lintOnly.MatchString(k) {
			out[k] = true
		}
	}
	return out
}

// packageRunner are the package managers that run a package's binary by
// its name.
var packageRunner = map[string]bool{"yarn": true, "pnpm": true, "bun": true, "npm": true}

// dropIn are wrappers that take their tool's arguments and run it
// (`richgo test ./...` is `go test ./...` with colours).
var dropIn = map[string]string{"richgo": "go"}

// makeKeys adds what `make ARGS` run in dir runs, from the Makefile of
// the side; false when that Makefile is not known (the call then counts
// as the check it names).
func (w *ciWorld) makeKeys(dir string, args []string, m map[string]bool) bool {
	var targets []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" && i+1 < len(args):
			dir = path.Join(dir, args[i+1])
			i++
		case strings.HasPrefix(a, "-C") && len(a) > 2:
			dir = path.Join(dir, a[2:])
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "-f") && len(a) > 2:
			return false // another makefile than the one read here
		case a == "-j" && i+1 < len(args) && isNumber(args[i+1]):
			i++
		case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
		default:
			targets = append(targets, a)
		}
	}
	var mf string
	for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if p := path.Clean(path.Join(dir, n)); w.files[p] != nil {
			mf = p
			break
		}
	}
	if mf == "" {
		return false
	}
	t := makeTargets(w.files[mf])
	if t.include {
		return false // targets may come from the included files
	}
	if len(targets) == 0 {
		goal := t.goal
		if goal == "" {
			goal = t.first
		}
		if goal == "" {
			return false
		}
		targets = []string{goal}
	}
	seen := map[string]bool{}
	var run func(string)
	run = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if w.reached != nil {
			if w.reached[mf] == nil {
				w.reached[mf] = map[string]bool{}
			}
			w.reached[mf][name] = true
		}
		for _, pre := range t.prereqs[name] {
			run(pre)
		}
		for _, src := range t.recipes[name] {
			w.scriptKeys(path.Dir(mf), src, m)
		}
	}
	for _, name := range targets {
		if _, ok := t.recipes[name]; !ok && t.prereqs[name] == nil {
			if t.pattern {
				return false // a pattern rule may make it
			}
		}
		run(name)
	}
	return true
}

// makeRules is a Makefile's explicit rules: each target's prerequisites
// and recipe lines (make variables read as makeVars does).
type makeRules struct {
	prereqs map[string][]string
	recipes map[string][]string
	first   string // the default goal: the first target
	goal    string // .DEFAULT_GOAL, when set
	// include and pattern say the file includes others or has pattern
	// rules: a target not listed may still be made.
	include, pattern bool
}

// makeDirective are the words that open a line of GNU make that is no
// rule.
var makeDirective = map[string]bool{"ifeq": true, "ifneq": true, "ifdef": true, "ifndef": true, "else": true, "endif": true,
	"export": true, "unexport": true, "override": true, "vpath": true, "undefine": true, "private": true}

// makeTargets reads a Makefile's explicit rules (readMakeRules), once per
// text; the rules are shared, for reading only.
func makeTargets(data []byte) *makeRules {
	return makeMemo.get(data, func() *makeRules { return readMakeRules(data) })
}

// makeMemo keeps the rules read from a Makefile by its text: a range reads
// the same Makefile for every commit that touches CI.
var makeMemo textMemo[*makeRules]

// readMakeRules reads the rules of a Makefile's text.
func readMakeRules(data []byte) *makeRules {
	r := &makeRules{prereqs: map[string][]string{}, recipes: map[string][]string{}}
	var cur []string
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r")
		if strings.HasPrefix(l, "\t") {
			text := strings.TrimPrefix(l, "\t")
			for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
				i++
				text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(lines[i])
			}
			text = strings.TrimLeft(text, "@-+")
			for _, t := range cur {
				r.recipes[t] = append(r.recipes[t], makeVars(text))
			}
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Fields(t)
		switch {
		case f[0] == "include" || f[0] == "-include" || f[0] == "sinclude":
			r.include = true
			continue
		case f[0] == "define":
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "endef" {
				i++
			}
			i++
			cur = nil
			continue
		case makeDirective[f[0]] || strings.HasPrefix(f[0], "$(") || strings.HasPrefix(f[0], "${"):
			// A conditional, or a function called for its effect
			// ($(warning ...)): no rule. Recipes go on under the rule
			// before a conditional.
			continue
		}
		if name, v, ok := strings.Cut(t, "="); ok && strings.TrimSpace(strings.TrimRight(name, ":?+")) == ".DEFAULT_GOAL" {
			r.goal = strings.TrimSpace(v)
			continue
		}
		colon := strings.Index(t, ":")
		eq := strings.IndexAny(t, "=")
		if colon <= 0 || eq >= 0 && eq < colon || strings.HasPrefix(t[colon:], ":=") || strings.HasPrefix(t[colon:], "::=") {
			cur = nil // a variable, a directive
			continue
		}
		cur = strings.Fields(t[:colon])
		rest := strings.TrimLeft(t[colon+1:], ":")
		recipe := ""
		if j := strings.Index(rest, ";"); j >= 0 {
			rest, recipe = rest[:j], rest[j+1:]
		}
		if eq := strings.Index(rest, "="); eq >= 0 {
			cur = nil // a target-specific variable
			continue
		}
		var named []string
		for _, name := range cur {
			if strings.Contains(name, "%") {
				r.pattern = true
				continue
			}
			named = append(named, name)
			if _, ok := r.recipes[name]; !ok {
				r.recipes[name] = nil
			}
			r.prereqs[name] = append(r.prereqs[name], strings.Fields(makeVars(rest))...)
			if r.first == "" && !strings.HasPrefix(name, ".") {
				r.first = name
			}
			if strings.TrimSpace(recipe) != "" {
				r.recipes[name] = append(r.recipes[name], makeVars(recipe))
			}
		}
		cur = named
	}
	return r
}

// entryKeys are the checks every entry point of the side runs, and, where
// no entry point calls make, the checks of the Makefiles and of the
// scripts no entry point calls.
func (w *ciWorld) entryKeys() map[string]bool {
	m := map[string]bool{}
	for _, p := range SortedKeys(w.files) {
		if ciEntry(p) || path.Base(p) == "package.json" || isMakefile(p) && !w.makeCalled {
			for k := range w.keys(p) {
				m[k] = true
			}
		}
	}
	return m
}

// contributes are the checks a changed file brings to its side: an entry
// point's, or a Makefile's as far as entry points call it (all of them
// when none calls make), or a script's.
func (w *ciWorld) contributes(p string) map[string]bool {
	if w.files[p] == nil {
		return nil
	}
	if !isMakefile(p) || !w.makeCalled {
		return w.keys(p)
	}
	// The targets the entry points reach in this Makefile.
	m := map[string]bool{}
	mk := &ciWorld{files: map[string][]byte{}, memo: map[string]map[string]bool{}}
	for q, d := range w.files {
		if q != p {
			mk.files[q] = d
		}
	}
	with := w.entryKeys()
	without := map[string]bool{}
	for _, q := range SortedKeys(w.files) {
		if ciEntry(q) {
			for k := range mk.keys(q) {
				without[k] = true
			}
		}
	}
	for k := range with {
		if !without[k] {
			m[k] = true
		}
	}
	return m
}

// ciWorlds are the CI files of both sides of a change: the base's, with
// the change's old sides over them, and the same with the change applied.
func ciWorlds(changed []*File, bc *Base) (base, head *ciWorld) {
	before, after := map[string][]byte{}, map[string][]byte{}
	touched := false
	for _, pr := range changed {
		touched = touched || structuredCI(pr.OldPath) || structuredCI(pr.NewPath)
	}
	if !touched {
		// No CI file changed: nothing here reads the base's CI (loaded
		// only when a question needs it).
		return newCIWorld(before), newCIWorld(after)
	}
	for _, s := range bc.sources() {
		if structuredCI(s.Path) && s.Data != nil {
			before[s.Path], after[s.Path] = s.Data, s.Data
		}
	}
	for _, pr := range changed {
		if fc := pr; fc.OldPath != "" {
			delete(after, fc.OldPath)
			if structuredCI(fc.OldPath) && fc.Old != nil {
				before[fc.OldPath] = fc.Old
			}
		}
	}
	for _, pr := range changed {
		if fc := pr; fc.NewPath != "" && structuredCI(fc.NewPath) && fc.New != nil {
			after[fc.NewPath] = fc.New
		}
	}
	return newCIWorld(before), newCIWorld(after)
}

// packageMoved reports a package.json deleted with its directory whose
// tests the change moved into another package that runs the same checks
// (test/snapshots moved into test/e2e, a project of its config): its
// test script is not lost. A package whose directory stays keeps its
// tests behind, run by nothing.
func packageMoved(fc *File, changed []*File, lost []string, head *ciWorld, exists func(string, bool) bool, readHead func(string) []byte) bool {
	if path.Base(fc.OldPath) != "package.json" || fc.NewPath != "" || exists == nil || readHead == nil {
		return false
	}
	dir := path.Dir(fc.OldPath)
	if dir == "." || exists(dir, true) {
		return false
	}
	for _, ofc := range changed {
		if ofc.NewPath == "" || ofc.OldPath == "" || !strings.HasPrefix(ofc.OldPath, dir+"/") || !ofc.OldTest {
			continue
		}
		// The package the test moved into: its nearest package.json.
		var pkg []byte
		at := ""
		for d := path.Dir(ofc.NewPath); ; d = path.Dir(d) {
			p := path.Join(d, "package.json")
			if pkg = head.files[p]; pkg == nil {
				pkg = readHead(p)
			}
			if pkg != nil {
				at = p
				break
			}
			if d == "." || d == "/" {
				return false
			}
		}
		w := &ciWorld{files: map[string][]byte{at: pkg}, memo: map[string]map[string]bool{}}
		runs := w.keys(at)
		for _, k := range lost {
			if !runs[k] {
				return false
			}
		}
	}
	return true
}

// moduleGone returns the directory of a CI file deleted with the whole of
// it (a tool or module removed: urfave/cli's flag generator, its go.mod,
// Makefile, code and tests), "" otherwise. The directory is not the
// repository's root and is gone at HEAD; every file of it the change
// touched was deleted, none moved out; and production code went with the
// tests, so what they tested is gone too, as with a package deleted with
// its tests (test-file-deleted-with-code).
func moduleGone(fc *File, changed []*File, exists func(string, bool) bool) string {
	if fc.NewPath != "" || exists == nil {
		return ""
	}
	dir := path.Dir(fc.OldPath)
	if dir == "." || exists(dir, true) {
		return ""
	}
	code := false
	for _, o := range changed {
		if o.OldPath == "" || !strings.HasPrefix(o.OldPath, dir+"/") {
			continue
		}
		if o.NewPath != "" {
			return "" // moved out: its tests may have gone elsewhere
		}
		code = code || !o.OldTest && sourceFile(o.OldPath)
	}
	if !code {
		return ""
	}
	return dir
}

// sourceFile reports a file of program source in one of the languages the
// analyzer reads, by its extension.
func sourceFile(p string) bool {
	switch path.Ext(p) {
	case ".go", ".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".java", ".kt", ".rs":
		return true
	}
	return false
}

// scriptsKept reports a package.json whose every script that ran a check
// is still there: what a script no longer runs is packageScripts' to
// report (script-check-dropped).
func scriptsKept(fc *File) bool {
	if path.Base(fc.OldPath) != "package.json" || fc.NewPath != fc.OldPath {
		return false
	}
	var before, after struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(fc.Old, &before) != nil || json.Unmarshal(fc.New, &after) != nil {
		return false
	}
	w := &ciWorld{files: map[string][]byte{}, memo: map[string]map[string]bool{}}
	for n, src := range before.Scripts {
		if _, ok := after.Scripts[n]; ok {
			continue
		}
		m := map[string]bool{}
		w.scriptKeys(".", src, m)
		if len(testKeys(m)) > 0 {
			return false
		}
	}
	return true
}
