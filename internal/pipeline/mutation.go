package pipeline

import (
	"context"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/mutate"
	"github.com/ralph-gate/ralph-gate/internal/runner"
)

// mutantRunners are the test runners that run a language's mutants: the
// affected tests of a mutated file are the ones these collectors run.
var mutantRunners = map[string][]runner.Runner{
	"go":         {runner.Go},
	"python":     {runner.Pytest},
	"javascript": {runner.Vitest, runner.Jest},
}

// mutantJob is one mutant with the collectors that run its affected tests.
type mutantJob struct {
	m     mutate.Mutant
	specs []config.Collector
	res   gate.MutantResult
	// label names the mutant in progress lines: "mutant 3/12".
	label string
}

// mutation is the diff-based mutation of the range: at most one mutant on
// each production line the range added or changed and HEAD's tests cover,
// each run against the affected tests in a worktree of HEAD of its own.
// A mutant no test notices is a mutant-survived finding naming the line.
//
// The affected tests are, for Go, the mutated file's package and the
// packages of the Go test files the range changed; for the other
// languages, the language's test collectors whole. A mutant's run is cut
// at its own timeout (a mutant that loops forever is killed by it), and
// no mutant starts once the budget is spent.
func (c *comparison) mutation(headM *collect.Measurement, cl *gate.ChangedLines) ([]gate.Finding, *gate.Mutation, error) {
	opt := c.p.opt
	cfg := opt.Config.Mutation
	st := &gate.Mutation{}
	if opt.Collect == "none" {
		st.Reason = "collect is none: mutation runs tests, and nothing may run"
		return nil, st, nil
	}
	h, err := c.loadHeadTests()
	if err != nil {
		return nil, nil, err
	}
	if len(h.production) == 0 {
		st.Reason = "the range changes no production code"
		return nil, st, nil
	}
	lines, err := c.changedProductionLines(h)
	if err != nil {
		return nil, nil, err
	}
	specs, err := c.collectorSpecs()
	if err != nil {
		st.Reason = "the collectors could not be read: " + firstLine(err.Error())
		return nil, st, nil
	}
	var jobs []*mutantJob
	var reasons []string
	arid := &mutate.Arid{Extra: cfg.AridPatterns()}
	files := make([]string, 0, len(lines))
	for f := range lines {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		mu := mutate.For(f)
		if mu == nil || testSide(f) {
			continue
		}
		ls := lines[f].lines
		st.Lines += len(ls)
		if cl != nil {
			var dropped int
			ls, dropped = coveredLines(cl, f, ls)
			st.Uncovered += dropped
		}
		if len(ls) == 0 {
			continue
		}
		ms, err := mu.Mutants(f, lines[f].src, ls, arid)
		if err != nil {
			c.note(f, "mutation: HEAD's version does not parse, no mutant is made: "+firstLine(err.Error()))
			continue
		}
		fs := c.mutantSpecs(specs, mu.Name(), f, h)
		if fs == nil {
			reasons = appendOnce(reasons, "no test collector runs the "+mu.Name()+" tests of "+f)
			continue
		}
		for _, m := range ms {
			jobs = append(jobs, &mutantJob{m: m, specs: fs, res: gate.MutantResult{File: m.File, Line: m.Line, Operator: m.Operator, Original: m.Original, Mutated: m.Mutated}})
		}
	}
	if cl == nil {
		reasons = append(reasons, "HEAD measured no coverage: every changed line was mutated, covered or not")
	} else if st.Uncovered > 0 {
		reasons = append(reasons, plural(st.Uncovered, "changed line")+" no test runs at HEAD got no mutant (changed-line coverage reports them)")
	}
	if len(jobs) == 0 {
		st.Reason = strings.Join(append([]string{"no changed production line has a mutant"}, reasons...), "; ")
		return nil, st, nil
	}
	var testTime time.Duration
	if headM != nil {
		testTime = headM.Duration
	}
	budget := cfg.BudgetFor(testTime)
	st.Budget = budget.String()
	if budget >= time.Second {
		st.Budget = budget.Round(time.Second).String()
	}
	start := time.Now()
	c.runMutants(jobs, budget, max(30*time.Second, 5*testTime), start)
	st.Spent = time.Since(start).Round(time.Second).String()
	var out []gate.Finding
	for _, j := range jobs {
		st.Mutants = append(st.Mutants, j.res)
		switch j.res.Outcome {
		case gate.MutantKilled:
			st.Killed++
		case gate.MutantSurvived:
			st.Survived++
			out = append(out, c.survivor(j.res, st.Lines))
		case gate.MutantNotViable:
			st.NotViable++
		case gate.MutantUnmeasured:
			st.Unmeasured++
		case gate.MutantNotRun:
			st.NotRun++
		}
	}
	st.Ran = st.Killed+st.Survived+st.NotViable+st.Unmeasured > 0
	if n := st.Killed + st.Survived; n > 0 {
		score := float64(int(1000*float64(st.Killed)/float64(n)+0.5)) / 10
		st.Score = &score
	}
	if st.NotRun > 0 {
		reasons = append([]string{fmt.Sprintf("the budget of %s ran out: %d of %d mutants did not run (mutation.budget)", st.Budget, st.NotRun, len(jobs))}, reasons...)
	}
	st.Reason = strings.Join(reasons, "; ")
	for _, j := range jobs {
		for _, s := range j.specs {
			if s.Tests {
				st.Collectors = appendOnce(st.Collectors, s.Name)
			}
		}
	}
	return out, st, nil
}

// runMutants runs the jobs, mutation.jobs at a time (half the cores by
// default: each runs a test suite that uses cores of its own), starting
// none once budget has passed since start.
func (c *comparison) runMutants(jobs []*mutantJob, budget, timeout time.Duration, start time.Time) {
	n := c.p.opt.Config.Mutation.Jobs
	if n <= 0 {
		n = max(1, runtime.NumCPU()/2)
	}
	next := make(chan *mutantJob)
	var wg sync.WaitGroup
	for range min(n, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				c.runMutant(j, timeout)
			}
		}()
	}
	for i, j := range jobs {
		// The first mutant always runs: a budget smaller than one run
		// still says something.
		if i > 0 && time.Since(start) >= budget || c.ctx.Err() != nil {
			for _, k := range jobs[i:] {
				k.res.Outcome = gate.MutantNotRun
			}
			break
		}
		j.label = fmt.Sprintf("mutant %d/%d", i+1, len(jobs))
		next <- j
	}
	close(next)
	wg.Wait()
}

// runMutant runs one mutant's affected tests in a worktree of HEAD with
// the mutated file laid over it, and judges the outcome against HEAD's
// own run.
func (c *comparison) runMutant(j *mutantJob, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(c.ctx, timeout)
	defer cancel()
	side := fmt.Sprintf("%s %s:%d", j.label, j.m.File, j.m.Line)
	opts := c.runOptions(side)
	opts.ReportMissingMeasured = true // a mutant that crashes the run is noticed
	m, _, err := collect.MeasureOverlay(ctx, c.p.opt.Repo, c.p.opt.RepoDir, c.head, map[string][]byte{j.m.File: j.m.Src}, j.specs, c.p.opt.Cache, opts)
	switch {
	case ctx.Err() != nil && c.ctx.Err() == nil:
		j.res.Outcome, j.res.Detail = gate.MutantKilled, fmt.Sprintf("the tests did not finish within %s with the mutant in place", timeout.Round(time.Second))
	case err != nil:
		j.res.Outcome, j.res.Detail = gate.MutantUnmeasured, "the run failed: "+firstLine(err.Error())
	default:
		j.res.Outcome, j.res.KilledBy, j.res.Detail = judgeMutant(m.Result, c.headM)
	}
}

// judgeMutant reads a mutant's run: a build failure makes it not viable
// (it tests nothing); a test that HEAD's run did not fail and that fails
// now kills it, as does a run that ended without its report; a run with
// passing tests and none of these is a survivor.
func judgeMutant(r *collectors.Result, headM *collect.Measurement) (outcome, by, detail string) {
	if r == nil {
		return gate.MutantUnmeasured, "", "the run reported nothing"
	}
	if len(r.BuildFailures) > 0 {
		b := r.BuildFailures[0]
		return gate.MutantNotViable, "", "does not build: " + clipText(orText(buildError(b.Output), "no compiler output"), 240)
	}
	failedAtHead := map[string]bool{}
	if headM != nil && headM.Result != nil && headM.Result.Tests != nil {
		for t := range headM.Result.Tests.All() {
			if t.Outcome == collectors.Failed || t.Outcome == collectors.Errored {
				failedAtHead[t.ID] = true
			}
		}
	}
	passed := 0
	if r.Tests != nil {
		var killers []collectors.Test
		for t := range r.Tests.All() {
			switch t.Outcome {
			case collectors.Failed, collectors.Errored:
				if !failedAtHead[t.ID] {
					killers = append(killers, t)
				}
			case collectors.Passed:
				passed++
			}
		}
		if len(killers) > 0 {
			sort.Slice(killers, func(i, k int) bool { return killers[i].ID < killers[k].ID })
			return gate.MutantKilled, killers[0].ID, clipText(analyze.FailureLines(killers[0].Message, 2), 240)
		}
	}
	if len(r.Integrity) > 0 {
		return gate.MutantKilled, "", "the run ended without its report: " + clipText(r.Integrity[0].Problem, 200)
	}
	if passed == 0 {
		return gate.MutantUnmeasured, "", "no affected test ran"
	}
	return gate.MutantSurvived, "", plural(passed, "affected test") + " passed"
}

// survivor is the finding for a mutant no test noticed.
func (c *comparison) survivor(r gate.MutantResult, changed int) gate.Finding {
	sev := c.p.opt.Config.Mutation.SurvivorSeverity(changed)
	msg := fmt.Sprintf("%s:%d can be broken without any test noticing: with `%s` changed to `%s` (%s), every affected test still passes, so no test pins this line",
		r.File, r.Line, r.Original, r.Mutated, r.Operator)
	if r.Detail != "" {
		msg += " (" + r.Detail + ")"
	}
	return gate.Finding{
		ID:   gate.MakeID(gate.RuleMutantSurvived.Type, gate.RuleMutantSurvived.ID, r.File, r.Original, r.Operator),
		Type: gate.RuleMutantSurvived.Type, Severity: sev, Rule: gate.RuleMutantSurvived.ID, File: r.File, Line: r.Line,
		Net: true, Evidence: gate.EvidenceMeasured, Message: msg + ".",
	}
}

// changedFile is a production file's HEAD content and the lines of it the
// range added or changed.
type changedFile struct {
	src   []byte
	lines []int
}

// changedProductionLines maps each production file whose code the range
// changed to its content at HEAD and the lines the range added or changed.
func (c *comparison) changedProductionLines(h *headTests) (map[string]changedFile, error) {
	prod := toSet(h.production)
	diff, err := c.rangeDiff()
	if err != nil {
		return nil, err
	}
	out := map[string]changedFile{}
	for _, d := range diff {
		if d.To.Path == "" || !prod[d.To.Path] || d.To.Mode != filemode.Regular && d.To.Mode != filemode.Executable {
			continue
		}
		now, err := c.p.opt.Repo.Blob(d.To.Hash)
		if err != nil {
			return nil, fmt.Errorf("HEAD's %s: %w", d.To.Path, err)
		}
		var was []byte
		if d.From.Path != "" && d.From.Mode.IsFile() {
			if was, err = c.p.opt.Repo.Blob(d.From.Hash); err != nil {
				return nil, fmt.Errorf("BASE's %s: %w", d.From.Path, err)
			}
		}
		if ls := addedLines(string(was), string(now)); len(ls) > 0 {
			out[d.To.Path] = changedFile{src: now, lines: ls}
		}
	}
	return out, nil
}

// coveredLines keeps the lines of file that changed-line coverage does not
// list as uncovered; dropped counts the others. A file the coverage report
// does not list at all (it lists files of its kind) ran under no test.
func coveredLines(cl *gate.ChangedLines, file string, lines []int) (kept []int, dropped int) {
	for _, u := range cl.Unmeasured {
		if u == file {
			return nil, len(lines)
		}
	}
	for _, f := range cl.Files {
		if f.File != file {
			continue
		}
		un := map[int]bool{}
		for _, l := range f.Uncovered {
			un[l] = true
		}
		for _, l := range lines {
			if un[l] {
				dropped++
			} else {
				kept = append(kept, l)
			}
		}
		return kept, dropped
	}
	return lines, 0 // no executable changed line measured: the mutator finds none or some
}

// mutantSpecs are the collectors that run a mutated file's affected tests:
// the setup steps, in order, and the language's test collectors, narrowed
// (coverage off; for Go, the file's package and the packages of the Go
// test files the range changed). Nil when no test collector runs them.
func (c *comparison) mutantSpecs(specs []config.Collector, lang, file string, h *headTests) []config.Collector {
	var out []config.Collector
	tests := false
	for _, s := range specs {
		if !s.Tests {
			if len(s.Reports) == 0 {
				out = append(out, s)
			}
			continue
		}
		r := runnerOf(s)
		if r == runner.None {
			out = append(out, s) // a custom command: it runs what it runs
			tests = true
			continue
		}
		mine := false
		for _, want := range mutantRunners[lang] {
			mine = mine || r == want
		}
		if !mine {
			continue
		}
		tests = true
		if r == runner.Go {
			dirs := []string{path.Dir(file)}
			for _, f := range h.files {
				if strings.HasSuffix(f, "_test.go") {
					dirs = appendOnce(dirs, path.Dir(f))
				}
			}
			out = append(out, narrow(s, r, []string{file}, nil, map[string][]string{file: dirs}))
			continue
		}
		out = append(out, wholeRun(s, r))
	}
	if !tests {
		return nil
	}
	return out
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// wholeRun is a test collector running all its tests, its coverage off
// and the tamper check's file list ({tamper_files}) left out: a mutant's
// run needs the test outcomes only.
func wholeRun(s config.Collector, r runner.Runner) config.Collector {
	out := narrow(s, r, nil, nil, nil)
	if !strings.Contains(strings.Join(s.Argv, "\x00"), TamperFiles) {
		return out
	}
	out.Argv = nil
	for _, a := range s.Argv {
		switch {
		case a == TamperFiles && !s.Shell:
			continue
		case strings.HasPrefix(a, "--cov") || strings.HasPrefix(a, "--coverage"):
			continue
		}
		out.Argv = append(out.Argv, strings.ReplaceAll(a, TamperFiles, ""))
	}
	return out
}
