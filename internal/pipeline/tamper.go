package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testscan/rust"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// tamperCheck runs BASE's versions of the test files the range modified or
// deleted against HEAD's code. A test that passed at BASE and fails there, while
// HEAD's own run passes (or no longer has it), shows that the test edit covers a
// behaviour change: intended by the task, or a regression the edit hid. Either
// way a person decides, with both outcomes and the failure in front of them.
//
// It runs whenever the range edits existing tests, whether the ends were
// measured or read from reports: it needs only the collectors of the edited
// files' languages, narrowed to those files. When it cannot run, the status
// says why, and a reason that leaves the edit unchecked (no collector for the
// files, a failed run, BASE's tests not building against HEAD) is an
// unverified finding: never a silent pass.
func (c *comparison) tamperCheck(baseM, headM *collect.Measurement, static []gate.Finding) ([]gate.Finding, gate.TamperCheck, error) {
	opt := c.p.opt
	overlay, files, err := c.tamperOverlay()
	if err != nil {
		return nil, gate.TamperCheck{}, err
	}
	if len(files) == 0 {
		return nil, gate.TamperCheck{Reason: "the range modifies or deletes no existing test file"}, nil
	}
	switch {
	case opt.NoTamper:
		return nil, gate.TamperCheck{Reason: "switched off by --no-tamper-check", Files: files}, nil
	case opt.Config.Compare.TamperCheck != nil && !*opt.Config.Compare.TamperCheck:
		return nil, gate.TamperCheck{Reason: "switched off by compare.tamper_check: false in the configuration", Files: files}, nil
	case opt.Collect == "none":
		return nil, gate.TamperCheck{Reason: "collect is none: the tamper check runs tests, and nothing may run", Files: files}, nil
	}
	specs, err := c.collectorSpecs()
	if err != nil {
		return nil, gate.TamperCheck{}, err
	}
	plan := planTamper(specs, files, overlay)
	var out []gate.Finding
	for _, f := range plan.uncovered {
		out = append(out, unverifiedTamper(f, "", "no collector runs it: "+plan.why(f)))
	}
	status := gate.TamperCheck{Files: plan.files, Collectors: plan.names()}
	if len(plan.files) == 0 {
		status.Reason = "no collector runs the edited test files (" + strings.Join(files, ", ") + ")"
		return out, status, nil
	}
	if len(plan.uncovered) > 0 {
		status.Reason = "not covered: " + strings.Join(plan.uncovered, ", ")
	}
	m, _, err := collect.MeasureOverlay(c.ctx, opt.Repo, opt.RepoDir, c.head, overlay, plan.specs, opt.Cache, c.runOptions("tamper"))
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, status, err
		}
		status.Reason = "the run failed: " + firstLine(err.Error())
		for _, f := range plan.files {
			out = append(out, unverifiedTamper(f, "", "the tamper check could not run: "+firstLine(err.Error())))
		}
		return out, status, nil
	}
	status.Ran = true
	if m.Result == nil || m.Result.Tests == nil || m.Result.Tests.Len() == 0 {
		for _, f := range plan.files {
			out = append(out, unverifiedTamper(f, "", "the tamper check ran but reported no test results"))
		}
		return out, status, nil
	}
	for _, b := range m.Result.BuildFailures {
		file := fileInPackage(plan.files, b.Package)
		out = append(out, unverifiedTamper(file, b.Package,
			fmt.Sprintf("BASE's version of the tests of %s does not build against HEAD's code, so the edit could not be checked: %s", b.Package, orText(buildError(b.Output), "no compiler output"))))
	}
	var found []gate.Finding
	pins := &pinCheck{c: c, specs: specs}
	for t := range m.Result.Tests.All() {
		if t.Outcome != collectors.Failed && t.Outcome != collectors.Errored {
			continue
		}
		bt, inBase := baseM.Result.Tests.Get(t.ID)
		if !inBase || bt.Outcome != collectors.Passed {
			continue
		}
		ht, inHead := headM.Result.Tests.Get(t.ID)
		if inHead && ht.Outcome != collectors.Passed && ht.Outcome != collectors.Skipped {
			continue // failing at HEAD anyway: a test_regression, not hidden
		}
		file := t.File
		if file == "" {
			file = bt.File
		}
		if file == "" && len(plan.files) == 1 {
			file = plan.files[0]
		}
		why := orText(analyze.FailureLines(t.Message, 3), "no message")
		typ, headSays := gate.AssertionWeakening, "HEAD's edited version passes"
		if !inHead {
			typ, headSays = gate.TestDeletion, "HEAD no longer has it"
		} else if ht.Outcome == collectors.Skipped {
			headSays = "HEAD skips it"
		}
		sev, grade := gradeTamper(t, typ, headSays, static, baseM, headM, pins.pinned)
		msg := fmt.Sprintf("test %s passed at BASE; BASE's version of it fails against HEAD's code (%s), and %s: %s", t.ID, clipText(why, 200), headSays, grade)
		found = append(found, gate.Finding{
			ID:       gate.MakeID(typ, "tamper-check", file, t.ID, ""),
			Type:     typ,
			Severity: sev,
			File:     file,
			Test:     t.ID,
			Net:      true,
			Message:  msg + ".",
			Evidence: gate.EvidenceMeasured,
			Rule:     "tamper-check",
		})
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Test < found[j].Test })
	return append(out, found...), status, nil
}

// unverifiedTamper is a tamper check that could not check a file: medium,
// since the edit may be innocent, but never nothing.
func unverifiedTamper(file, pkg, why string) gate.Finding {
	return gate.Finding{
		ID:       gate.MakeID(gate.Unverified, "tamper-check-unverified", file, pkg, ""),
		Type:     gate.Unverified,
		Severity: gate.SeverityMedium,
		File:     file,
		Net:      true,
		Message:  fmt.Sprintf("the edit of %s was not checked against HEAD's code: %s.", orText(file, pkg), strings.TrimSuffix(why, ".")),
		Evidence: gate.EvidenceMeasured,
		Rule:     "tamper-check-unverified",
	}
}

// tamperOverlay maps each test file BASE..HEAD modified, renamed or deleted to
// its BASE content (a renamed file's new path is removed, so no test is defined
// twice).
func (c *comparison) tamperOverlay() (map[string][]byte, []string, error) {
	opt := c.p.opt
	diff, err := opt.Repo.Diff(c.base, c.head)
	if err != nil {
		return nil, nil, err
	}
	overlay := map[string][]byte{}
	var files []string
	for _, d := range diff {
		if d.From.Path == "" {
			continue // added files change nothing BASE had
		}
		ext := scanners.ForPath(d.From.Path)
		if ext == nil || opt.Config.Ignored(d.From.Path) {
			continue
		}
		if !ext.IsTestFile(d.From.Path) {
			// A Rust source file whose unit tests changed: HEAD's code
			// with BASE's test modules spliced in.
			if spliced := c.rustTests(d); spliced != nil {
				overlay[d.To.Path] = spliced
				files = append(files, d.To.Path)
			}
			continue
		}
		b, err := opt.Repo.Blob(d.From.Hash)
		if err != nil {
			c.note(d.From.Path, "tamper check: BASE's version could not be read: "+err.Error())
			continue
		}
		overlay[d.From.Path] = b
		if d.To.Path != "" && d.To.Path != d.From.Path {
			overlay[d.To.Path] = nil
		}
		files = append(files, d.From.Path)
	}
	sort.Strings(files)
	return overlay, files, nil
}

// rustTests returns, for a Rust source file both ends have whose inline
// test modules (`#[cfg(test)] mod tests { .. }`) the change edited, HEAD's
// file with BASE's test modules in their place; nil for any other file.
func (c *comparison) rustTests(d gitrepo.Change) []byte {
	if !strings.HasSuffix(d.From.Path, ".rs") || d.To.Path == "" {
		return nil
	}
	base, err := c.p.opt.Repo.Blob(d.From.Hash)
	if err != nil {
		return nil
	}
	head, err := c.p.opt.Repo.Blob(d.To.Hash)
	if err != nil || !rust.TestModulesDiffer(base, head) {
		return nil
	}
	spliced, ok := rust.SpliceTestModules(head, base)
	if !ok {
		c.note(d.To.Path, "tamper check: BASE's test modules could not be put into HEAD's version")
		return nil
	}
	return spliced
}

// fileInPackage picks the edited file of a Go package ("example.com/m/calc"
// holds calc/x_test.go), or the only file.
func fileInPackage(files []string, pkg string) string {
	for _, f := range files {
		dir := f
		if i := strings.LastIndex(f, "/"); i >= 0 {
			dir = f[:i]
		} else {
			dir = ""
		}
		if dir != "" && (strings.HasSuffix(pkg, "/"+dir) || pkg == dir) {
			return f
		}
	}
	if len(files) == 1 {
		return files[0]
	}
	return ""
}

// buildError is the first compiler error of go's build output, without the
// "# pkg" header lines.
func buildError(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && l != "FAIL" {
			return l
		}
	}
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func orText(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// gradeTamper grades a tamper result by what the change did, so a person
// sees at once which ones need a look. High when the edit took the test
// away or made it weaker (HEAD deletes or skips it, or the static analysis
// saw its checks removed or loosened: a high finding on the same test), or
// when the range added no test beside it: an expectation rewritten to what
// HEAD's code now returns, with nothing new pinning the new behaviour, is the
// shape of a hidden regression. Medium when the edited test checks as much
// as before and the range added tests to its suite: the shape of a requested
// behaviour change, shown with both outcomes for a person to confirm.
func gradeTamper(t collectors.Test, typ gate.FindingType, headSays string, static []gate.Finding, baseM, headM *collect.Measurement, pinned func([]string) ([]string, string)) (gate.Severity, string) {
	if typ == gate.TestDeletion || strings.Contains(headSays, "skips") {
		return gate.SeverityHigh, "the edit took away a test that caught a behaviour change"
	}
	leaf := testLeaf(t.ID)
	for _, f := range static {
		if f.Net && f.Severity >= gate.SeverityHigh && f.Test != "" && testLeaf(f.Test) == leaf &&
			(f.Type == gate.AssertionWeakening || f.Type == gate.TestSkipping) {
			return gate.SeverityHigh, "the edit made the test weaker (" + f.Rule + ") where it caught a behaviour change"
		}
	}
	var added []string
	for h := range headM.Result.Tests.All() {
		if _, ok := baseM.Result.Tests.Get(h.ID); !ok && h.Suite == t.Suite && h.Outcome == collectors.Passed {
			added = append(added, h.ID)
		}
	}
	if len(added) == 0 {
		return gate.SeverityHigh, "the test edit hides a behaviour change and the range added no test for a new behaviour, the shape of a regression hidden by rewriting the expectation"
	}
	sort.Strings(added)
	// A new test pins a new behaviour only if BASE's code does not pass it:
	// one that passes there too (a trivial test added beside the edit) pins
	// nothing, and does not lower the grade.
	if pinned != nil {
		pins, why := pinned(added)
		if why != "" {
			return gate.SeverityHigh, "the range added " + plural(len(added), "test") + " beside it, but whether they pin a new behaviour could not be checked (" + why + ")"
		}
		if len(pins) == 0 {
			return gate.SeverityHigh, fmt.Sprintf("the range added %s beside it (%s), but BASE's code passes them too, so they pin no new behaviour: the shape of a regression hidden by rewriting the expectation",
				plural(len(added), "test"), clipText(strings.Join(added, ", "), 160))
		}
		added = pins
	}
	return gate.SeverityMedium, fmt.Sprintf("the edit replaced the expected behaviour, checking as much as before, and the range added %d %s beside it that BASE's code does not pass (%s): the shape of a requested behaviour change, for a person to confirm",
		len(added), map[bool]string{true: "test", false: "tests"}[len(added) == 1], clipText(strings.Join(added, ", "), 160))
}

// pinCheck runs HEAD's new and edited test files against BASE's code, once
// per comparison and only when a grade needs it, to tell which new tests pin
// a new behaviour (BASE's code fails them, or they do not build there).
type pinCheck struct {
	c     *comparison
	specs []config.Collector
	done  bool
	m     *collect.Measurement
	why   string
}

// pinned returns the tests of added that BASE's code does not pass; why says
// what kept the check from running.
func (p *pinCheck) pinned(added []string) ([]string, string) {
	if !p.done {
		p.done = true
		p.m, p.why = p.run()
	}
	if p.why != "" {
		return nil, p.why
	}
	var out []string
	for _, id := range added {
		if t, ok := p.m.Result.Tests.Get(id); !ok || t.Outcome != collectors.Passed {
			out = append(out, id)
		}
	}
	return out, ""
}

func (p *pinCheck) run() (*collect.Measurement, string) {
	c := p.c
	opt := c.p.opt
	diff, err := opt.Repo.Diff(c.base, c.head)
	if err != nil {
		return nil, "the range could not be read: " + firstLine(err.Error())
	}
	overlay := map[string][]byte{}
	var files []string
	for _, d := range diff {
		if d.To.Path == "" {
			continue
		}
		ext := scanners.ForPath(d.To.Path)
		if ext == nil || !ext.IsTestFile(d.To.Path) || opt.Config.Ignored(d.To.Path) {
			continue
		}
		b, err := opt.Repo.Blob(d.To.Hash)
		if err != nil {
			return nil, "HEAD's " + d.To.Path + " could not be read"
		}
		overlay[d.To.Path] = b
		if d.From.Path != "" && d.From.Path != d.To.Path {
			overlay[d.From.Path] = nil
		}
		files = append(files, d.To.Path)
	}
	sort.Strings(files)
	plan := planTamper(p.specs, files, overlay)
	if len(plan.files) == 0 {
		return nil, "no collector runs HEAD's new tests"
	}
	m, _, err := collect.MeasureOverlay(c.ctx, opt.Repo, opt.RepoDir, c.base, overlay, plan.specs, opt.Cache, c.runOptions("tamper"))
	if err != nil {
		return nil, "the run failed: " + firstLine(err.Error())
	}
	if m.Result == nil || m.Result.Tests == nil {
		return nil, "the run reported no test results"
	}
	return m, ""
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
