package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// tamperCheck runs BASE's versions of the test files the range modified or
// deleted against HEAD's code. A test that passed at BASE and fails there, while
// HEAD's own run passes (or no longer has it), shows that the test edit covers a
// behaviour change: intended by the task, or a regression the edit hid. Either
// way a person decides, with both outcomes and the failure in front of them.
func (c *comparison) tamperCheck(baseM, headM *collect.Measurement) ([]gate.Finding, error) {
	if c.flags.noTamper || (c.cfg.Compare.TamperCheck != nil && !*c.cfg.Compare.TamperCheck) {
		return nil, nil
	}
	if len(c.flags.reports) > 0 || len(c.specs) == 0 {
		return nil, nil // the check needs to run tests, not read reports
	}
	var specs []config.Collector
	for _, s := range c.specs {
		if s.Tests {
			specs = append(specs, s)
		}
	}
	if len(specs) == 0 {
		c.note("", "tamper check skipped: no collector runs tests")
		return nil, nil
	}
	overlay, files, err := c.tamperOverlay()
	if err != nil || len(overlay) == 0 {
		return nil, err
	}
	m, _, err := collect.MeasureOverlay(c.ctx, c.repo, c.repo.Root(), c.head, overlay, specs, c.cache, c.progress()("tamper"))
	if err != nil {
		c.note("", "tamper check failed to run: "+err.Error())
		return nil, nil
	}
	if m.Result == nil || m.Result.Tests == nil {
		c.note("", "tamper check produced no test results")
		return nil, nil
	}
	for _, b := range m.Result.BuildFailures {
		c.note(b.Package, "tamper check: BASE's tests do not build against HEAD's code: "+firstLine(b.Output))
	}
	var out []gate.Finding
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
			continue // failing at HEAD anyway: an ordinary failure, not hidden
		}
		file := t.File
		if file == "" && len(files) == 1 {
			file = files[0]
		}
		why := firstLine(t.Message)
		if why == "" {
			why = "no message"
		}
		typ, headSays := gate.AssertionWeakening, "HEAD's edited version passes"
		if !inHead {
			typ, headSays = gate.TestDeletion, "HEAD no longer has it"
		} else if ht.Outcome == collectors.Skipped {
			headSays = "HEAD skips it"
		}
		msg := fmt.Sprintf("test %s passed at BASE; BASE's version of it fails against HEAD's code (%s), and %s: the test edit hides a behaviour change, intended by the task or a regression, for a person to decide", t.ID, clipText(why, 160), headSays)
		f := gate.Finding{
			ID:       gate.MakeID(typ, "tamper-check", file, t.ID, ""),
			Type:     typ,
			Severity: gate.SeverityHigh,
			File:     file,
			Test:     t.ID,
			Net:      true,
			Message:  msg + ".",
			Evidence: gate.EvidenceMeasured,
			Rule:     "tamper-check",
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Test < out[j].Test })
	return out, nil
}

// tamperOverlay maps each test file BASE..HEAD modified, renamed or deleted to
// its BASE content (a renamed file's new path is removed, so no test is defined
// twice).
func (c *comparison) tamperOverlay() (map[string][]byte, []string, error) {
	diff, err := c.repo.Diff(c.base, c.head)
	if err != nil {
		return nil, nil, classifyGit(err)
	}
	overlay := map[string][]byte{}
	var files []string
	for _, d := range diff {
		if d.From.Path == "" {
			continue // added files change nothing BASE had
		}
		ext := scanners.ForPath(d.From.Path)
		if ext == nil || !ext.IsTestFile(d.From.Path) || c.cfg.Ignored(d.From.Path) {
			continue
		}
		b, err := c.repo.Blob(d.From.Hash)
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
	return overlay, files, nil
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
