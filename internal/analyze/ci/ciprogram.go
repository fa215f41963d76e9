package ci

import (
	"encoding/json"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"maps"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// CI read as a program: the scripts of a workflow's steps, a Makefile's
// recipes and the repository's shell scripts are parsed (shellChecks), so a
// check whose failure used to fail the build and no longer does is found
// however the script drops its status. A workflow that stops running on
// pull requests, or that GitHub no longer loads, is found from the YAML.

// ciScript is one script and where it sits in its file.
type ciScript struct {
	src  string
	opts shellOpts
	line int // the file line of the script's first line
	// off says why the script's status does not count (continue-on-error).
	off string
	// opaque is set for a shell this reader does not follow (pwsh, python):
	// its checks are taken to reach the step's result.
	opaque bool
}

// ciFacts is what a CI file runs and when.
type ciFacts struct {
	runs    []*checkRun // with file lines
	reached map[*checkRun]bool
	// events are the workflow's triggers; nil for other files.
	events map[string]bool
	err    error
	// unparsed are the scripts that name a check tool and do not parse as
	// shell, by text, with their first line.
	unparsed map[string]int
}

func (f *ciFacts) reaching() map[string]bool {
	m := map[string]bool{}
	for _, r := range f.runs {
		m[r.key] = m[r.key] || f.reached[r]
	}
	return m
}

// readCI reads the checks of a workflow, a Makefile or a shell script.
func readCI(p string, data []byte, kind ConfigKind) *ciFacts {
	var scripts []ciScript
	f := &ciFacts{reached: map[*checkRun]bool{}}
	switch {
	case kind == CIWorkflow && strings.HasPrefix(p, ".github/workflows/"):
		scripts, f.events, f.err = workflowScripts(data)
	case kind == BuildScript && (strings.HasSuffix(p, ".sh") || shellShebang(data)):
		scripts = []ciScript{{src: string(data), opts: shebangOpts(data), line: 1}}
	case kind == BuildScript && (path.Base(p) == "Makefile" || path.Base(p) == "makefile" || path.Base(p) == "GNUmakefile" || path.Ext(p) == ".mk"):
		scripts = makeRecipes(data)
	default:
		return nil
	}
	for _, sc := range scripts {
		if sc.opaque {
			for i, l := range strings.Split(sc.src, "\n") {
				if w := strings.Fields(l); len(w) > 0 {
					if k := checkKey(w); k != "" {
						r := &checkRun{key: k, text: strings.TrimSpace(l), line: sc.line + i}
						f.runs = append(f.runs, r)
						f.reached[r] = sc.off == ""
					}
				}
			}
			continue
		}
		if !mayRunCheck(sc.src) {
			continue
		}
		sf, err := shellChecks(sc.src, sc.opts)
		if err != nil {
			if f.unparsed == nil {
				f.unparsed = map[string]int{}
			}
			f.unparsed[sc.src] = sc.line
			continue
		}
		for _, r := range sf.runs {
			r.line += sc.line - 1
			f.runs = append(f.runs, r)
			switch {
			case sc.off != "":
				if r.cause == "" || sf.reached[r] {
					r.cause = sc.off
				}
			case sf.reached[r]:
				f.reached[r] = true
			}
		}
	}
	return f
}

// shellShebang reports whether a file starts with a shell's #! line (a CI
// script without .sh, such as .ci/run).
func shellShebang(data []byte) bool {
	first, _, _ := strings.Cut(string(data[:min(len(data), 200)]), "\n")
	if !strings.HasPrefix(first, "#!") {
		return false
	}
	for _, sh := range []string{"/sh", "/bash", " sh", " bash", "/dash", "/zsh"} {
		if strings.Contains(first, sh) {
			return true
		}
	}
	return false
}

// readCICached is readCI, once per file version: in a range each version
// is the new side of one commit and the old side of the next.
func (a *Checker) readCICached(p, key string, data []byte) *ciFacts {
	return Memo(&a.mu, a.ciCache, p, key, func() *ciFacts { return readCI(p, data, Classify(p)) })
}

// Memo returns f()'s result for a file version (path and blob key), computed
// once per analyzer; without a key it is not kept.
func Memo[T any](mu *sync.Mutex, m map[string]T, p, key string, f func() T) T {
	if key == "" {
		return f()
	}
	k := p + "\x00" + key
	mu.Lock()
	v, ok := m[k]
	mu.Unlock()
	if ok {
		return v
	}
	v = f()
	mu.Lock()
	m[k] = v
	mu.Unlock()
	return v
}

// checkHints are substrings every check command checkKey knows contains.
var checkHints = []string{"test", "lint", "vet", "check", "verify", "spec", "jest", "vitest", "mocha", "ava", "tap", "jasmine",
	"karma", "playwright", "cypress", "tox", "nox", "tsc", "mypy", "ruff", "flake8", "pylint", "pyright", "rubocop",
	"clippy", "mvn", "gradle", "coverage", "ralph-gate", "staticcheck", "eslint", "ctest", " ci"}

// mayRunCheck is a cheap look before parsing a script: one that names no
// check tool runs none (a Makefile's build and install recipes).
func mayRunCheck(src string) bool {
	for _, h := range checkHints {
		if strings.Contains(src, h) {
			return true
		}
	}
	return false
}

// workflowScripts returns the run scripts of a GitHub Actions workflow with
// the options of their shell, and the workflow's triggers.
func workflowScripts(data []byte) ([]ciScript, map[string]bool, error) {
	r := readWorkflow(data)
	return r.scripts, r.events, r.err
}

// workflowRead is what the rules read of a workflow's text: its jobs
// (workflowJobs), its run scripts and its triggers (workflowScripts).
type workflowRead struct {
	jobs    map[string]*wfJob
	order   []string
	scripts []ciScript
	events  map[string]bool
	err     error // the YAML does not parse
}

// workflowMemo keeps what was read of a workflow by its text: a range
// reads the same versions of its workflows for every commit that touches
// CI, and the jobs and the scripts of one text come from one parse of its
// YAML (parsing it once for each was a fifth of a commit that edits a
// workflow).
var workflowMemo textMemo[*workflowRead]

// readWorkflow parses a workflow's YAML once per text.
func readWorkflow(data []byte) *workflowRead {
	return workflowMemo.get(data, func() *workflowRead {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return &workflowRead{err: err}
		}
		r := &workflowRead{}
		r.jobs, r.order = jobsOf(&doc)
		r.scripts, r.events = scriptsOf(&doc)
		return r
	})
}

// scriptsOf reads the run scripts and the triggers of a workflow's parsed
// YAML (see workflowScripts).
func scriptsOf(doc *yaml.Node) ([]ciScript, map[string]bool) {
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil
	}
	root := doc.Content[0]
	events := map[string]bool{}
	if on := mapGet(root, "on"); on != nil {
		switch on.Kind {
		case yaml.ScalarNode:
			events[on.Value] = true
		case yaml.SequenceNode:
			for _, e := range on.Content {
				events[e.Value] = true
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(on.Content); i += 2 {
				events[on.Content[i].Value] = true
			}
		}
	}
	defShell := scalar(mapGet(mapGet(mapGet(root, "defaults"), "run"), "shell"))
	var out []ciScript
	jobs := mapGet(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return nil, events
	}
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		job := jobs.Content[i+1]
		jobShell := scalar(mapGet(mapGet(mapGet(job, "defaults"), "run"), "shell"))
		if jobShell == "" {
			jobShell = defShell
		}
		jobOff := ""
		if isTrue(mapGet(job, "continue-on-error")) {
			jobOff = "its job has continue-on-error"
		}
		if c := scalar(mapGet(job, "if")); events["pull_request"] && offOnPullRequest(c) {
			jobOff = "its job runs only when `" + strings.TrimSpace(c) + "`, which is false on pull requests"
		}
		steps := mapGet(job, "steps")
		if steps == nil || steps.Kind != yaml.SequenceNode {
			continue
		}
		for _, st := range steps.Content {
			run := mapGet(st, "run")
			if run == nil || run.Kind != yaml.ScalarNode {
				continue
			}
			sh := scalar(mapGet(st, "shell"))
			if sh == "" {
				sh = jobShell
			}
			opts, ok := shellFlags(sh)
			line := run.Line
			if run.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				line++
			}
			off := jobOff
			if isTrue(mapGet(st, "continue-on-error")) {
				off = "its step has continue-on-error"
			}
			if c := scalar(mapGet(st, "if")); off == "" && events["pull_request"] && offOnPullRequest(c) {
				off = "its step runs only when `" + strings.TrimSpace(c) + "`, which is false on pull requests"
			}
			out = append(out, ciScript{src: withoutExpressions(run.Value), opts: opts, line: line, off: off, opaque: !ok})
		}
	}
	return out, events
}

// ghExpr is a GitHub Actions expression, which the runner substitutes before
// the shell sees the script.
var ghExpr = lazyre.New(`(?s)\$\{\{.*?\}\}`)

// withoutExpressions stands a word in for each ${{ ... }} (keeping its line
// breaks, so lines still count), so that the script parses as the shell
// will see it.
func withoutExpressions(src string) string {
	if !strings.Contains(src, "${{") {
		return src
	}
	return ghExpr.ReplaceAllStringFunc(src, func(e string) string {
		return "GHA_EXPR" + strings.Repeat("\n", strings.Count(e, "\n"))
	})
}

// shellFlags are the options of a step's shell: GitHub runs a default step
// with `bash -e {0}`, `shell: bash` with `bash --noprofile --norc -eo
// pipefail {0}`, `shell: sh` with `sh -e {0}`; a custom shell says its own.
// ok is false for shells that are not POSIX (pwsh, python, cmd).
func shellFlags(sh string) (shellOpts, bool) {
	sh = strings.TrimSpace(sh)
	switch sh {
	case "":
		return shellOpts{errexit: true}, true
	case "bash":
		return shellOpts{errexit: true, pipefail: true}, true
	case "sh":
		return shellOpts{errexit: true}, true
	}
	f := strings.Fields(sh)
	if len(f) == 0 || !strings.Contains(sh, "{0}") {
		return shellOpts{}, false
	}
	switch path.Base(f[0]) {
	case "bash", "sh", "dash", "zsh":
	default:
		return shellOpts{}, false
	}
	s := &shellRun{}
	s.set(f[1:])
	return s.opts, true
}

// shebangOpts reads `#!/bin/bash -e` and `#!/usr/bin/env -S bash -eu`.
func shebangOpts(data []byte) shellOpts {
	line, _, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(line, "#!") {
		return shellOpts{}
	}
	s := &shellRun{}
	s.set(strings.Fields(line)[1:])
	return s.opts
}

// makeRecipes returns a Makefile's recipe lines: make runs each with `sh -c`
// (no -e) and stops when one fails, so each is a script of its own. Make
// variables are read as their lower-cased names ($(GO) test is go test).
// The Makefile's own settings change that (makeSettings): with .ONESHELL a
// target's recipe is one script (set -e only where .SHELLFLAGS says -e);
// .IGNORE, `MAKEFLAGS += -i` and a SHELL that is no POSIX shell
// (`SHELL := /bin/true`) take the recipes' failures out of make's result.
func makeRecipes(data []byte) []ciScript {
	var out []ciScript
	set := makeSettings(data)
	lines := strings.Split(string(data), "\n")
	var targets []string // of the rule the recipe lines belong to
	oneShell := -1       // index in out of the current target's one script
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "\t") {
			if t, ok := ruleTargets(l); ok {
				targets, oneShell = t, -1
			}
			continue
		}
		start := i + 1
		text := strings.TrimPrefix(l, "\t")
		for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(lines[i])
		}
		off := set.off(targets)
		for len(text) > 0 && strings.ContainsRune("@-+", rune(text[0])) {
			if text[0] == '-' && off == "" {
				off = "its recipe line starts with '-', which tells make to ignore its failure"
			}
			text = text[1:]
		}
		if set.oneShell {
			if oneShell >= 0 {
				out[oneShell].src += "\n" + makeVars(text)
				continue
			}
			oneShell = len(out)
			out = append(out, ciScript{src: makeVars(text), line: start, off: off, opts: shellOpts{errexit: set.errexit}})
			continue
		}
		out = append(out, ciScript{src: makeVars(text), line: start, off: off})
	}
	return out
}

// makeSet is what a Makefile says about how its recipes run.
type makeSet struct {
	oneShell, errexit bool
	ignoreAll         string          // why every recipe's failure is ignored
	ignore            map[string]bool // the targets .IGNORE names
	shell             string          // a SHELL that runs no recipe as written
}

// off says why a recipe of targets does not count toward make's result.
func (m *makeSet) off(targets []string) string {
	switch {
	case m.shell != "":
		return "the Makefile sets SHELL to " + m.shell + ", which does not run its recipes as a shell would"
	case m.ignoreAll != "":
		return m.ignoreAll
	}
	for _, t := range targets {
		if m.ignore[t] {
			return "the Makefile's .IGNORE names target " + t + ", so make ignores its recipe's failures"
		}
	}
	return ""
}

var makeAssign = lazyre.New(`^\s*(?:(?:override|export)\s+)*([A-Za-z0-9_.]+)\s*(::?=|:::=|\?=|\+=|!=|=)\s*(.*)$`)

// makeSettings reads .ONESHELL, .SHELLFLAGS, .IGNORE, MAKEFLAGS and SHELL.
func makeSettings(data []byte) *makeSet {
	m := &makeSet{}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "\t") {
			continue
		}
		if a := makeAssign.FindStringSubmatch(l); a != nil {
			value := strings.TrimSpace(stripMakeComment(a[3]))
			switch a[1] {
			case "MAKEFLAGS":
				if words := strings.Fields(value); len(words) > 0 && (makeIgnoresErrors(words) || !strings.HasPrefix(words[0], "-") && makeFlagLetters.MatchString(words[0]) && strings.ContainsRune(words[0], 'i')) {
					m.ignoreAll = "the Makefile adds -i (--ignore-errors) to MAKEFLAGS, so make ignores every recipe's failure"
				}
			case "SHELL":
				if !posixShell(value) {
					m.shell = value
				} else {
					m.shell = ""
				}
			case ".SHELLFLAGS":
				m.errexit = strings.Contains(" "+value, " -e") || strings.Contains(value, "-ec") || strings.Contains(value, "-ce")
			}
			continue
		}
		t, ok := ruleTargets(l)
		if !ok {
			continue
		}
		_, prereqs, _ := strings.Cut(stripMakeComment(l), ":")
		for _, target := range t {
			switch target {
			case ".ONESHELL":
				m.oneShell = true
			case ".IGNORE":
				names := strings.Fields(prereqs)
				if len(names) == 0 {
					m.ignoreAll = "the Makefile's .IGNORE has no prerequisites, so make ignores every recipe's failure"
				}
				for _, n := range names {
					if m.ignore == nil {
						m.ignore = map[string]bool{}
					}
					m.ignore[n] = true
				}
			}
		}
	}
	return m
}

// ruleTargets returns the targets of a rule line ("test lint: deps"), ok
// false for any other line (an assignment, a comment, a directive).
func ruleTargets(l string) ([]string, bool) {
	if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") || makeAssign.MatchString(l) {
		return nil, false
	}
	before, _, ok := strings.Cut(stripMakeComment(l), ":")
	if !ok || strings.ContainsAny(before, "=$(") && !strings.Contains(before, "%") {
		return nil, false
	}
	t := strings.Fields(before)
	return t, len(t) > 0
}

func stripMakeComment(l string) string {
	if i := strings.IndexByte(l, '#'); i >= 0 {
		return l[:i]
	}
	return l
}

// posixShell reports a SHELL make can run recipes with as written.
func posixShell(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 {
		return true
	}
	if path.Base(f[0]) == "env" && len(f) > 1 {
		f = f[1:]
	}
	switch path.Base(f[0]) {
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "mksh":
		return true
	}
	return strings.Contains(v, "$(") || strings.Contains(v, "${") // set from elsewhere: unknown
}

// makeVars replaces $(NAME) and ${NAME} by name and $$ by $.
func makeVars(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(', '{':
			closer := byte(')')
			if s[i+1] == '{' {
				closer = '}'
			}
			j := strings.IndexByte(s[i+2:], closer)
			if j < 0 {
				b.WriteByte(s[i])
				continue
			}
			name := s[i+2 : i+2+j]
			if f := strings.Fields(name); len(f) > 0 {
				name = f[0]
			}
			b.WriteString(strings.ToLower(name))
			i += j + 2
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func mapGet(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func isTrue(n *yaml.Node) bool {
	v := strings.TrimSpace(scalar(n))
	return v == "true" || strings.ReplaceAll(v, " ", "") == "${{true}}"
}

// workflowLoaded reports whether GitHub Actions loads a workflow at p: a
// .yml or .yaml file directly in .github/workflows/.
func workflowLoaded(p string) bool {
	ext := path.Ext(p)
	return path.Dir(p) == ".github/workflows" && (ext == ".yml" || ext == ".yaml")
}

// prEvents are the triggers that run a workflow on a pull request.
var prEvents = []string{"pull_request", "pull_request_target", "merge_group"}

// packageScripts compares the scripts of a package.json: a script that ran
// a check at BASE (npm test running jest) and at HEAD runs none whose
// failure fails it (`"test": "echo ok"`, `"test": "jest || true"`) is a
// check switched off under its own name. A script that now runs another
// check (jest replaced by vitest) is a migration.
func packageScripts(p string, old, cur []byte) []gate.Finding {
	read := func(data []byte) map[string]string {
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(data, &pkg) != nil {
			return nil
		}
		return pkg.Scripts
	}
	reach := func(src string) (map[string]bool, *shellFacts) {
		f, err := shellChecks(src, shellOpts{})
		if err != nil {
			return nil, nil
		}
		m := map[string]bool{}
		for _, r := range f.runs {
			if f.reached[r] {
				m[r.key] = true
			}
		}
		return m, f
	}
	before, after := read(old), read(cur)
	if json.Valid(old) && !json.Valid(cur) {
		return []gate.Finding{UnreadableManifest(p, "its scripts and test dependencies")}
	}
	hooks := packageHooks(cur)
	var out []gate.Finding
	for _, n := range SortedKeys(before) {
		now, ok := after[n]
		if !ok || now == before[n] {
			continue
		}
		was, _ := reach(before[n])
		is, f := reach(now)
		if len(was) == 0 || is == nil || len(is) > 0 {
			continue
		}
		// The checks another script or a hook of the package still runs
		// (release-it's before:init running npm test) are not dropped.
		elsewhere := map[string]bool{}
		for _, src := range hooks {
			m, _ := reach(src)
			maps.Copy(elsewhere, m)
		}
		for o, src := range after {
			if o != n {
				m, _ := reach(src)
				maps.Copy(elsewhere, m)
			}
		}
		kept := true
		for k := range was {
			kept = kept && (elsewhere[k] || elsewhere[npmRunAlias(k)])
		}
		if kept {
			continue
		}
		why := "it no longer runs one"
		for _, r := range f.runs {
			why = r.cause
			break
		}
		var ks []string
		for k := range was {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		line := 1
		if i := strings.Index(string(cur), `"`+n+`"`); i >= 0 {
			line = 1 + strings.Count(string(cur[:i]), "\n")
		}
		out = append(out, gate.NewFinding(gate.RuleScriptCheckDropped, gate.SeverityCritical, p, line, "", "", "script "+n,
			fmt.Sprintf("the %q script of %s ran %s and no longer fails when a check fails (%s): it is now %s.", n, p, QuotedList(ks), why, Quoted(now))))
	}
	return out
}

// Programs compares, for each CI file of the change, what its checks do
// with their exit status and when a workflow runs, at both sides. A check
// that another file of the change now runs (a workflow split in two) is
// not lost.
func (a *Checker) Programs(changed []*File) []gate.Finding {
	type ciPair struct {
		pr       *File
		old, cur *ciFacts
	}
	var cps []ciPair
	var out []gate.Finding
	for _, pr := range changed {
		if path.Base(pr.OldPath) == "package.json" && pr.NewPath == pr.OldPath {
			out = append(out, packageScripts(pr.NewPath, pr.Old, pr.New)...)
			continue
		}
		if pr.OldPath == "" {
			out = append(out, a.newProgram(pr)...)
			continue
		}
		cp := ciPair{pr: pr}
		if pr.Old != nil {
			cp.old = a.readCICached(pr.OldPath, pr.OldKey, pr.Old)
		}
		if cp.old == nil || cp.old.err != nil {
			continue // nothing was checked at BASE (or it did not parse then)
		}
		if pr.NewPath != "" && pr.New != nil {
			cp.cur = a.readCICached(pr.NewPath, pr.NewKey, pr.New)
		}
		cps = append(cps, cp)
	}
	for i, cp := range cps {
		elsewhere := map[string]bool{}
		for j, o := range cps {
			if j == i || o.cur == nil || o.cur.events != nil && !workflowLoaded(o.pr.NewPath) {
				continue
			}
			for k, ok := range o.cur.reaching() {
				elsewhere[k] = elsewhere[k] || ok
			}
		}
		out = append(out, a.ciProgram(cp.pr, cp.old, cp.cur, elsewhere)...)
	}
	return out
}

// newProgram reads a CI file the change added (a workflow, a Makefile, a
// shell script): a check whose exit status it replaces with `||`
// (`go test ./... || true` written over several lines, `|| :`, `|| echo`)
// does not fail the build, however the line is spelled. Nothing gated
// there before, so only that explicit replacement is reported.
func (a *Checker) newProgram(pr *File) []gate.Finding {
	if pr.NewPath == "" || pr.New == nil {
		return nil
	}
	cur := a.readCICached(pr.NewPath, pr.NewKey, pr.New)
	if cur == nil || cur.err != nil {
		return nil
	}
	var out []gate.Finding
	seen := map[string]bool{}
	for _, r := range cur.runs {
		if cur.reached[r] || seen[r.key] || !strings.HasPrefix(r.cause, "`||") {
			continue
		}
		seen[r.key] = true
		out = append(out, gate.NewFinding(gate.RuleExitStatusDropped, gate.SeverityCritical, pr.NewPath, r.line, "", "", "status "+r.key,
			fmt.Sprintf("`%s` in %s does not fail the build when it fails: %s.", r.text, pr.NewPath, r.cause)))
	}
	return out
}

// ciProgram compares one CI file's two sides.
func (a *Checker) ciProgram(pr *File, old, cur *ciFacts, elsewhere map[string]bool) []gate.Finding {
	before := old.reaching()
	var out []gate.Finding
	p := pr.Path()
	// A workflow GitHub no longer loads (deleted, renamed to .disabled,
	// moved into a subdirectory) no longer runs its checks; unless another
	// file of the change runs them now.
	// (A deleted one is test-command-removed's.)
	if old.events != nil && workflowLoaded(pr.OldPath) && pr.NewPath != "" && !workflowLoaded(pr.NewPath) {
		var lost []string
		for k, ok := range before {
			if ok && !elsewhere[k] {
				lost = append(lost, k)
			}
		}
		if len(lost) > 0 {
			sort.Strings(lost)
			how := "was moved to " + pr.NewPath + ", where GitHub Actions does not load it"
			out = append(out, gate.NewFinding(gate.RuleWorkflowUnloaded, gate.SeverityCritical, pr.OldPath, 1, "", "", "unloaded "+strings.Join(lost, ","),
				fmt.Sprintf("workflow %s %s: its checks (%s) no longer run.", pr.OldPath, how, QuotedList(lost))))
		}
		return out
	}
	if cur == nil {
		return out
	}
	if cur.err != nil {
		ran := false
		for _, ok := range before {
			ran = ran || ok
		}
		if !ran {
			return out // a release or docs workflow: not a gate
		}
		return []gate.Finding{gate.NewFinding(gate.RuleWorkflowUnreadable, gate.SeverityHigh, p, 1, "", "", "yaml",
			fmt.Sprintf("%s no longer parses as YAML (%v): GitHub Actions will not run it.", p, cur.err))}
	}
	// The pull request triggers.
	if old.events != nil && cur.events != nil && len(old.runs) > 0 {
		var had, has []string
		for _, e := range prEvents {
			if old.events[e] {
				had = append(had, e)
			}
			if cur.events[e] {
				has = append(has, e)
			}
		}
		if len(had) > 0 && len(has) == 0 {
			out = append(out, gate.NewFinding(gate.RulePrTriggerRemoved, gate.SeverityCritical, p, 1, "", "", "on "+strings.Join(had, ","),
				fmt.Sprintf("%s no longer runs on pull requests (its `on:` dropped %s): its checks do not gate the change.", p, strings.Join(had, ", "))))
		}
	}
	// A script that names a check and no longer parses hides what it does
	// with the check's status; one that did not parse at BASE either is no
	// news.
	ran := false
	for _, ok := range before {
		ran = ran || ok
	}
	for src, line := range cur.unparsed {
		if _, known := old.unparsed[src]; known || !ran {
			continue
		}
		out = append(out, gate.NewFinding(gate.RuleUnparsedScript, gate.SeverityHigh, p, line, "", "", "script "+strconv.Itoa(line),
			fmt.Sprintf("the script at line %d of %s does not parse as shell, so whether its checks can still fail the build cannot be followed.", line, p)))
	}
	after := cur.reaching()
	var keys []string
	for k := range before {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		have, present := after[k]
		if !before[k] || !present || have || elsewhere[k] {
			continue // removal is changeWideConfig's to judge
		}
		for _, r := range cur.runs {
			if r.key != k || cur.reached[r] {
				continue
			}
			rule, msg := gate.RuleExitStatusDropped, fmt.Sprintf("`%s` in %s no longer fails the build when it fails: %s.", r.text, p, r.cause)
			if strings.Contains(r.cause, "which is false on pull requests") {
				rule, msg = gate.RuleStepOffOnPullRequests, fmt.Sprintf("`%s` in %s no longer runs on pull requests, where the gate runs: %s.", r.text, p, r.cause)
			}
			out = append(out, gate.NewFinding(rule, gate.SeverityCritical, p, r.line, "", "", "status "+k, msg))
			break
		}
	}
	return out
}

func QuotedList(ks []string) string {
	q := make([]string, len(ks))
	for i, k := range ks {
		q[i] = "`" + k + "`"
	}
	return strings.Join(q, ", ")
}

// DedupePrograms drops the dropped-status findings of files where the line rules
// (|| true, set +e, continue-on-error) already found a bypass: one evasion,
// one finding.
func DedupePrograms(have, prog []gate.Finding) []gate.Finding {
	flagged := map[string]bool{}
	for _, f := range have {
		if f.Type == gate.ValidationBypass && f.Severity >= gate.SeverityCritical {
			flagged[f.File] = true
		}
	}
	out := prog[:0]
	for _, f := range prog {
		if (f.Rule == gate.RuleExitStatusDropped.ID || f.Rule == gate.RuleStepOffOnPullRequests.ID || f.Rule == gate.RuleScriptCheckDropped.ID) && flagged[f.File] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// packageHooks are the commands a package.json's tool sections run:
// release-it's and husky's hooks, simple-git-hooks, gitHooks, pre-commit.
//
//	"release-it": {"hooks": {"before:init": "npm test"}}
func packageHooks(data []byte) []string {
	var pkg map[string]any
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	var out []string
	var strs func(v any)
	strs = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				strs(e)
			}
		case map[string]any:
			for _, k := range SortedKeys(x) {
				strs(x[k])
			}
		}
	}
	for _, k := range []string{"simple-git-hooks", "gitHooks", "pre-commit", "pre-push"} {
		strs(pkg[k])
	}
	for _, k := range SortedKeys(pkg) {
		if sec, ok := pkg[k].(map[string]any); ok {
			strs(sec["hooks"])
		}
	}
	return out
}

// npmRunAlias is `npm run test` for `npm test` and back: the same script.
func npmRunAlias(k string) string {
	f := strings.Fields(k)
	switch {
	case len(f) == 2:
		return f[0] + " run " + f[1]
	case len(f) == 3 && f[1] == "run":
		return f[0] + " " + f[2]
	}
	return k
}

// UnreadableManifest is the finding for a go.mod or package.json that parsed
// at BASE and does not at HEAD: what it says about the tests' machinery
// (replacements, test scripts) cannot be checked, which is never read as
// "nothing changed".
func UnreadableManifest(p, what string) gate.Finding {
	msg := fmt.Sprintf("%s no longer parses, so %s cannot be checked", p, what)
	return gate.NewFinding(gate.RuleUnparsedManifest, gate.SeverityHigh, p, 0, "", "", what, msg+".")
}
