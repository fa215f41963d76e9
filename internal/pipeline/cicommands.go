package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// The CI's own test commands, measured. The collectors run their own
// command (`go test -json ./...`) at both ends, so a change to what the
// CI runs (a Makefile recipe ending in `|| true`, a step replaced by an
// echo, -short or a -run filter added, a build tag dropped) measures the
// same at both ends. When the change touched the CI program (workflows,
// Makefiles, CI scripts, package.json scripts, tox.ini), each test step
// BASE's workflows run on pull requests is run three times, each in a
// fresh checkout with the collectors' isolation:
//
//	BASE's step on BASE's code   the control: the step runs here and passes
//	BASE's step on HEAD's code   HEAD's code with BASE's CI program laid over it
//	HEAD's step on HEAD's code   what the CI now runs
//
// BASE's step failing on HEAD's code where HEAD's step passes is the
// change to the CI hiding a failure: a validation_bypass with the runs as
// proof. Both passing, HEAD's step running fewer of the tests BASE's ran
// (test ids from `go test -v` and pytest's -rA summary, which
// collect.VerboseTestEnv asks for) is the CI narrowed. A step that cannot
// run here (a service container, a secret, another OS), or whose control
// run fails, proves nothing and says why in a note.

// maxCISteps bounds the steps measured in one comparison.
const maxCISteps = 4

// ciRun is one run of a step: where and what it did.
type ciRun struct {
	run   *collect.ScriptRun
	tests map[string]string
}

func (r *ciRun) passed() bool { return r != nil && r.run.ExitCode == 0 }

// summary says how a run ended and what it ran: "passed (exit 0, 42
// tests named)".
func (r *ciRun) summary() string {
	how := "passed"
	if !r.passed() {
		how = "failed"
	}
	named := "no test named"
	if n := len(r.tests); n > 0 {
		named = plural(n, "test") + " named"
		if f := len(r.failing()); f > 0 {
			named += fmt.Sprintf(", %d failing", f)
		}
	}
	return fmt.Sprintf("%s (exit %d, %s)", how, r.run.ExitCode, named)
}

// failing returns the tests the run names as failed, sorted.
func (r *ciRun) failing() []string {
	var out []string
	for id, o := range r.tests {
		if o == collect.TestFailed {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// ciCommands measures the CI's test steps (see above).
func (c *comparison) ciCommands() ([]gate.Finding, error) {
	opt := c.p.opt
	if !opt.Config.Compare.CICommandsOn() {
		return nil, nil
	}
	if opt.Collect == "none" {
		c.note("", "CI test steps: not run: collect is none, and measuring them runs them")
		return nil, nil
	}
	diff, err := c.rangeDiff()
	if err != nil {
		return nil, err
	}
	// Whether the program changed is read from the diff and BASE's
	// workflows alone (the files their steps name, ./build/test): most
	// ranges leave it alone, and need no walk of BASE's tree.
	workflows := map[string][]byte{}
	entries, err := opt.Repo.ListDir(c.base, ".github/workflows")
	if err != nil && !errors.Is(err, gitrepo.ErrNotFound) {
		return nil, err
	}
	for _, e := range entries {
		if (e.Mode != filemode.Regular && e.Mode != filemode.Executable) || !workflowPath(e.Path) {
			continue
		}
		b, err := opt.Repo.Blob(e.Hash)
		if err != nil {
			return nil, fmt.Errorf("read %s at %s: %w", e.Path, short(c.base), err)
		}
		workflows[e.Path] = b
	}
	named := map[string]bool{}
	for _, p := range ci.NamedFiles(workflows) {
		named[p] = true
	}
	var program []gitrepo.Change // the CI program's files the change touched
	scriptsOnly := true          // only workflows changed: a step unchanged runs the same
	for _, d := range diff {
		if ciProgramChange(opt.Repo, d) || named[d.From.Path] || named[d.To.Path] {
			program = append(program, d)
			scriptsOnly = scriptsOnly && (workflowPath(d.From.Path) || workflowPath(d.To.Path))
		}
	}
	if len(program) == 0 {
		c.note("", "CI test steps: the CI program (workflows, Makefiles, CI scripts, package.json scripts, tox.ini) is the same at BASE and HEAD, so BASE's and HEAD's steps would run the same on HEAD's code: not run")
		return nil, nil
	}
	baseFiles, err := c.ciProgramFiles(c.base)
	if err != nil {
		return nil, err
	}
	var steps []ci.Step
	for _, s := range ci.TestSteps(baseFiles) {
		if opt.Config.Compare.PicksCIStep(s.Workflow, s.Job) {
			steps = append(steps, s)
		}
	}
	headFiles, err := c.ciProgramFiles(c.head)
	if err != nil {
		return nil, err
	}
	if len(steps) == 0 {
		c.note(".github/workflows", "CI test steps: no step of BASE's GitHub workflows runs tests on pull requests"+pickedNote(opt.Config.Compare.CISteps)+"; the CI program changed, and its commands were not measured")
		return nil, nil
	}
	if len(steps) > maxCISteps {
		var left []string
		for _, s := range steps[maxCISteps:] {
			left = append(left, s.Title())
		}
		c.note(steps[maxCISteps].Workflow, fmt.Sprintf("CI test steps: %d steps run tests; the first %d were measured, not %s (pick the ones that gate with compare.ci_steps)", len(steps), maxCISteps, strings.Join(left, "; ")))
		steps = steps[:maxCISteps]
	}
	headSteps := ci.TestSteps(headFiles)
	timeout := collect.DefaultTimeout
	if t := opt.Config.Compare.CITimeout; t != "" {
		timeout, _ = time.ParseDuration(t) // validated with the config
	}

	type plan struct {
		base ci.Step
		head *ci.Step
	}
	var plans []plan
	for _, s := range steps {
		if s.Skip != "" {
			c.note(s.Workflow, fmt.Sprintf("CI test step %s was not run here: %s", s.Title(), s.Skip))
			continue
		}
		hs := counterpart(s, headSteps)
		if scriptsOnly && hs != nil && hs.Skip == "" && ci.SameStep(s, *hs) {
			c.note(s.Workflow, fmt.Sprintf("CI test step %s runs the same tests the same way at HEAD (the workflows changed elsewhere, or only in flags that change its output or caching): not run", s.Title()))
			continue
		}
		plans = append(plans, plan{s, hs})
	}
	if len(plans) == 0 {
		return nil, nil
	}
	// Three kinds of checkout: BASE; HEAD with BASE's CI program over it;
	// HEAD. Each run has a fresh one, removed after it (as the CI's jobs
	// start clean), which takes the repository's stable path and so the
	// build cache of the run before.
	overlay, modes, err := baseProgramOverlay(opt.Repo, c.base, c.head, program)
	if err != nil {
		return nil, err
	}
	run := func(which, side string, s ci.Step) (*ciRun, error) {
		commit := c.head
		if which == "base" {
			commit = c.base
		}
		wt, err := collect.AddWorktree(c.ctx, opt.RepoDir, commit.String())
		if err != nil {
			return nil, err
		}
		defer wt.Remove()
		if which == "mixed" {
			if err := wt.Overlay(overlay); err != nil {
				return nil, err
			}
			for p, m := range modes {
				if err := os.Chmod(filepath.Join(wt.Dir, filepath.FromSlash(p)), m); err != nil {
					return nil, err
				}
			}
		}
		r, err := collect.RunScript(c.ctx, wt.Dir, collect.Script{
			Name: "CI step " + s.Title() + " (" + side + ")", Shell: s.Shell, Pipefail: s.Pipefail,
			Src: s.Script, Dir: s.Dir, Env: s.Env, Timeout: timeout,
		}, c.runOptions("CI "+side))
		if err != nil {
			return nil, err
		}
		return &ciRun{run: r, tests: collect.VerboseTests(r.Output)}, nil
	}

	var out []gate.Finding
	for _, pl := range plans {
		s := pl.base
		if pl.head != nil && pl.head.Skip != "" {
			// HEAD's version cannot run here (an expression, a service, a
			// container added): BASE's step on HEAD's code still tells
			// whether there is anything for it to hide.
			mixed, err := run("mixed", "BASE's step on HEAD's code", s)
			switch {
			case err != nil:
				c.note(s.Workflow, fmt.Sprintf("CI test step %s was not measured on HEAD's code: %v", s.Title(), err))
			case mixed.passed():
				c.note(s.Workflow, fmt.Sprintf("HEAD's version of CI test step %s was not run here (%s); BASE's version passes on HEAD's code, so it hides nothing", s.Title(), pl.head.Skip))
			default:
				// The control names the tests BASE's step ran at BASE.
				control, err := run("base", "BASE's step on BASE's code", s)
				if err != nil {
					c.note(s.Workflow, fmt.Sprintf("CI test step %s was not measured on BASE's code: %v", s.Title(), err))
					control = nil
				}
				out = append(out, unverifiedStep(s, *pl.head, mixed, control))
			}
			continue
		}
		// BASE's step and HEAD's on HEAD's code, one after the other (as
		// the collectors' ends: side by side, their tests would collide on
		// a fixed port or path).
		var (
			mixed, head   *ciRun
			mixErr, hdErr error
		)
		mixed, mixErr = run("mixed", "BASE's step on HEAD's code", s)
		if pl.head != nil && mixErr == nil {
			head, hdErr = run("head", "HEAD's step on HEAD's code", *pl.head)
		}
		if mixErr != nil {
			c.note(s.Workflow, fmt.Sprintf("CI test step %s was not measured on HEAD's code: %v", s.Title(), mixErr))
			continue
		}
		if hdErr != nil {
			c.note(s.Workflow, fmt.Sprintf("HEAD's version of CI test step %s was not measured: %v", s.Title(), hdErr))
			continue
		}
		// The control, BASE's step on BASE's code, is run only when HEAD's
		// CI passes what BASE's fails: it tells a failure HEAD's code
		// caused from one the step has here anyway.
		var control *ciRun
		if !mixed.passed() && (head == nil || head.passed()) {
			if control, err = run("base", "BASE's step on BASE's code", s); err != nil {
				c.note(s.Workflow, fmt.Sprintf("CI test step %s was not measured on BASE's code: %v", s.Title(), err))
				continue
			}
			if !control.passed() && len(control.failing()) == 0 {
				c.note(s.Workflow, fmt.Sprintf("CI test step %s fails on BASE's own code here (exit %d, no failing test named; output ends: %s): it needs something this machine lacks, so it proves nothing",
					s.Title(), control.run.ExitCode, outputTail(control.run.Output)))
				continue
			}
		}
		if f, ok := ciVerdict(s, pl.head, control, mixed, head); ok {
			out = append(out, f)
			continue
		}
		// What was measured, for the reader: a step that ran and showed
		// nothing is a result, not a silence.
		says := "HEAD's workflows no longer run it"
		if head != nil {
			says = "HEAD's version " + head.summary()
		}
		c.note(s.Workflow, fmt.Sprintf("CI test step %s measured: on HEAD's code, BASE's version %s; %s", s.Title(), mixed.summary(), says))
	}
	return out, nil
}

// ciVerdict compares the runs of one step; head is nil when HEAD's
// workflows no longer run the step on pull requests.
func ciVerdict(s ci.Step, hs *ci.Step, control, mixed, head *ciRun) (gate.Finding, bool) {
	file, line := s.Workflow, s.Line
	headSays := "HEAD's workflows no longer run it on pull requests"
	if hs != nil {
		file, line = hs.Workflow, hs.Line
		headSays = "HEAD's version of the step passes on the same code (exit 0)"
	}
	finding := func(sev gate.Severity, rule gate.Rule, msg string) (gate.Finding, bool) {
		return gate.Finding{
			ID:       gate.MakeID(rule.Type, rule.ID, s.Workflow, s.Key(), ""),
			Type:     rule.Type,
			Severity: sev,
			File:     file,
			Line:     line,
			Net:      true,
			Message:  msg + ".",
			Evidence: gate.EvidenceMeasured,
			Rule:     rule.ID,
		}, true
	}
	headHides := head == nil || head.passed()
	if !mixed.passed() && headHides {
		fails := mixed.failing()
		what := fmt.Sprintf("exit %d", mixed.run.ExitCode)
		if len(fails) > 0 {
			what += "; failing: " + listSome(fails, 5)
		} else {
			what += "; output ends: " + outputTail(mixed.run.Output)
		}
		if control.passed() {
			return finding(gate.SeverityCritical, gate.RuleCIStepBypassed, fmt.Sprintf(
				"CI test step %s (%s): BASE's version passes on BASE's code, fails on HEAD's code (%s), and %s: the change to the CI makes a failing check pass",
				s.Title(), strings.Join(s.Checks, ", "), what, headSays))
		}
		return finding(gate.SeverityHigh, gate.RuleCIStepBypassed, fmt.Sprintf(
			"CI test step %s (%s): BASE's version fails on HEAD's code (%s) as it already failed on BASE's (failing there: %s), and %s: the change to the CI hides failures it did not fix",
			s.Title(), strings.Join(s.Checks, ", "), what, listSome(control.failing(), 5), headSays))
	}
	if mixed.passed() && head != nil && head.passed() && len(mixed.tests) > 0 && len(head.tests) > 0 {
		var lost []string
		for id, o := range mixed.tests {
			if o != collect.TestPassed {
				continue
			}
			if ho, ok := head.tests[id]; !ok || ho == collect.TestSkipped {
				lost = append(lost, id)
			}
		}
		sort.Strings(lost)
		if len(lost) > 0 {
			return finding(gate.SeverityHigh, gate.RuleCIStepNarrowed, fmt.Sprintf(
				"CI test step %s (%s): on HEAD's code, BASE's version runs %s that HEAD's version no longer runs (%s): the change to the CI runs fewer tests",
				s.Title(), strings.Join(s.Checks, ", "), plural(len(lost), "test"), listSome(lost, 5)))
		}
	}
	return gate.Finding{}, false
}

func workflowPath(p string) bool { return strings.HasPrefix(p, ".github/workflows/") }

// counterpart finds HEAD's version of a BASE step: the same workflow, job
// and name (or place), else a step anywhere that runs the same script.
func counterpart(s ci.Step, head []ci.Step) *ci.Step {
	for i := range head {
		if head[i].Key() == s.Key() {
			return &head[i]
		}
	}
	// The same step of another matrix combination (a Go version bumped):
	// the same script, directory and environment first.
	for _, sameEnv := range []bool{true, false} {
		for i := range head {
			if head[i].Script == s.Script && head[i].Dir == s.Dir && (!sameEnv || envEqual(head[i].Env, s.Env)) {
				return &head[i]
			}
		}
	}
	// Renamed and rewritten: a step of the same job that runs one of the
	// same checks, else one anywhere.
	for _, sameJob := range []bool{true, false} {
		for i := range head {
			if (!sameJob || head[i].Workflow == s.Workflow && head[i].Job == s.Job) && slices.ContainsFunc(head[i].Checks, func(k string) bool { return slices.Contains(s.Checks, k) }) {
				return &head[i]
			}
		}
	}
	return nil
}

func envEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// unverifiedStep is BASE's step failing on HEAD's code where HEAD's
// version of it cannot run here: whether HEAD's CI hides the failure is
// not known, and missing evidence is never a pass.
//
// It is medium when every test that failed is one BASE's step did not
// run on BASE's code (control): new tests that need what HEAD's version
// was given (a service container for new integration tests), not old ones
// HEAD's code broke.
func unverifiedStep(s, hs ci.Step, mixed, control *ciRun) gate.Finding {
	what := fmt.Sprintf("exit %d", mixed.run.ExitCode)
	sev := gate.SeverityHigh
	if fails := mixed.failing(); len(fails) > 0 {
		what += "; failing: " + listSome(fails, 5)
		if control != nil && control.passed() && len(control.tests) > 0 && !slices.ContainsFunc(fails, func(id string) bool {
			_, ok := control.tests[id]
			return ok
		}) {
			sev = gate.SeverityMedium
			what += ", none of them a test BASE's step ran at BASE"
		}
	}
	return gate.Finding{
		ID:       gate.MakeID(gate.RuleCIStepUnverified.Type, gate.RuleCIStepUnverified.ID, s.Workflow, s.Key(), ""),
		Type:     gate.RuleCIStepUnverified.Type,
		Severity: sev,
		File:     hs.Workflow,
		Line:     hs.Line,
		Net:      true,
		Message: fmt.Sprintf("CI test step %s (%s): BASE's version fails on HEAD's code (%s), and HEAD's version was changed to one that cannot run here (%s): whether HEAD's CI passes it was not measured.",
			s.Title(), strings.Join(s.Checks, ", "), what, hs.Skip),
		Evidence: gate.EvidenceMeasured,
		Rule:     gate.RuleCIStepUnverified.ID,
	}
}

// ciProgramChange reports whether a change touched the CI program: a
// workflow, Makefile, CI script, tox.ini, or a package.json's scripts.
func ciProgramChange(repo *gitrepo.Repo, d gitrepo.Change) bool {
	for _, p := range []string{d.From.Path, d.To.Path} {
		if p != "" && ci.ProgramFile(p) {
			return true
		}
	}
	if path.Base(d.Path()) != "package.json" || strings.Contains(d.Path(), "node_modules/") {
		return false
	}
	scripts := func(e gitrepo.Entry) string {
		if e.Path == "" {
			return ""
		}
		b, err := repo.Blob(e.Hash)
		if err != nil {
			return "?" // unreadable: counts as changed
		}
		return string(ci.ScriptsOf(b))
	}
	return scripts(d.From) != scripts(d.To)
}

// tree lists every file of a commit (as additions to the empty tree), once
// per comparison: the CI steps, the Rust dev-dependencies and the
// JavaScript import graph all read BASE's.
func (c *comparison) tree(commit plumbing.Hash) ([]gitrepo.Change, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.trees[commit]; ok {
		return t, nil
	}
	t, err := c.p.opt.Repo.Diff(plumbing.ZeroHash, commit)
	if err != nil {
		return nil, err
	}
	if c.trees == nil {
		c.trees = map[plumbing.Hash][]gitrepo.Change{}
	}
	c.trees[commit] = t
	return t, nil
}

// ciProgramFiles reads the files a side's CI program is made of:
// workflows, Makefiles, CI scripts and package.json files.
func (c *comparison) ciProgramFiles(commit plumbing.Hash) (map[string][]byte, error) {
	repo := c.p.opt.Repo
	all, err := c.tree(commit)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, d := range all {
		p := d.To.Path
		if d.To.Mode != filemode.Regular && d.To.Mode != filemode.Executable {
			continue
		}
		if !ci.ProgramFile(p) && !(path.Base(p) == "package.json" && !strings.Contains(p, "node_modules/")) {
			continue
		}
		b, err := repo.Blob(d.To.Hash)
		if err != nil {
			return nil, fmt.Errorf("read %s at %s: %w", p, short(commit), err)
		}
		files[p] = b
	}
	for _, p := range ci.NamedFiles(files) {
		if files[p] != nil {
			continue
		}
		if b, err := repo.ReadFile(commit, p); err == nil {
			files[p] = b
		}
	}
	return files, nil
}

// baseProgramOverlay lays BASE's CI program over HEAD's checkout: each
// program file the change touched at its BASE version (removed where BASE
// had none), and a package.json whose scripts changed with BASE's scripts
// in HEAD's file (its dependencies are the code's). modes are the
// executable files to mark so.
func baseProgramOverlay(repo *gitrepo.Repo, base, head plumbing.Hash, program []gitrepo.Change) (map[string][]byte, map[string]os.FileMode, error) {
	overlay := map[string][]byte{}
	modes := map[string]os.FileMode{}
	for _, d := range program {
		if path.Base(d.Path()) == "package.json" && !ci.ProgramFile(d.Path()) {
			if d.From.Path == "" || d.To.Path == "" {
				continue // a package added or removed: not a scripts edit
			}
			old, err := repo.Blob(d.From.Hash)
			if err != nil {
				return nil, nil, err
			}
			cur, err := repo.Blob(d.To.Hash)
			if err != nil {
				return nil, nil, err
			}
			merged, err := withScripts(cur, ci.ScriptsOf(old))
			if err != nil {
				return nil, nil, fmt.Errorf("%s at %s: %w", d.To.Path, short(head), err)
			}
			overlay[d.To.Path] = merged
			continue
		}
		if d.To.Path != "" && d.To.Path != d.From.Path {
			overlay[d.To.Path] = nil
		}
		if d.From.Path != "" {
			b, err := repo.Blob(d.From.Hash)
			if err != nil {
				return nil, nil, fmt.Errorf("read %s at %s: %w", d.From.Path, short(base), err)
			}
			overlay[d.From.Path] = b
			if d.From.Mode == filemode.Executable {
				modes[d.From.Path] = 0o755
			}
		}
	}
	return overlay, modes, nil
}

// withScripts returns a package.json with its "scripts" replaced.
func withScripts(pkg []byte, scripts json.RawMessage) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(pkg, &m); err != nil {
		return nil, err
	}
	if scripts == nil {
		delete(m, "scripts")
	} else {
		m["scripts"] = scripts
	}
	return json.MarshalIndent(m, "", "  ")
}

func outputTail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = "..." + s[len(s)-300:]
	}
	if s == "" {
		return "(nothing)"
	}
	return strings.Join(strings.Fields(s), " ")
}

func listSome(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:n], ", ") + fmt.Sprintf(" and %d more", len(ids)-n)
}

func pickedNote(picks []string) string {
	if len(picks) == 0 {
		return ""
	}
	return " among those compare.ci_steps picks (" + strings.Join(picks, ", ") + ")"
}
