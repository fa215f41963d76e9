package analyze

import (
	"fmt"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// checked reports whether a path is one whose change the gate must read to
// vouch for a range: a test file, a test-runner, coverage, lint or CI
// configuration, a build script, or the gate's own configuration. Such a
// file that cannot be read is evidence missing, never "no regression".
func checked(p string) (what string, ok bool) {
	if p == config.FileName {
		return "the gate's configuration", true
	}
	if ci.Classify(p) != ci.NotConfig {
		return "a test, CI or checker configuration file", true
	}
	if ext := scanners.ForPath(p); ext != nil && ext.IsTestFile(p) {
		return "a test file", true
	}
	return "", false
}

// unreadable turns a changed file whose contents were not available (binary,
// NUL bytes, over the size limit, a symbolic link, a submodule) into an
// unverified finding when the file is one the gate must read.
func unreadable(fc *FileChange, p string) (gate.Finding, bool) {
	what, ok := checked(p)
	if !ok && fc.OldPath != "" && fc.OldPath != p {
		what, ok = checked(fc.OldPath)
	}
	if !ok {
		return gate.Finding{}, false
	}
	msg := fmt.Sprintf("%s (%s) changed and could not be checked: %s; a person must review it.", p, what, fc.Skip)
	return gate.NewFinding(gate.RuleUnreadableFile, gate.SeverityHigh, p, 0, "", "", fc.Skip, msg), true
}

// unparsed reports a changed test file that its language's extractor could
// not read at all: its tests cannot be compared, so nothing about them is
// verified.
func unparsed(pr *pair) []gate.Finding {
	var out []gate.Finding
	for _, s := range []*side{pr.old, pr.new} {
		if s == nil || s.failed == "" || !s.isTest {
			continue
		}
		msg := fmt.Sprintf("test file %s changed and could not be checked: %s; its tests were not compared, so a person must review it.", s.path, s.failed)
		out = append(out, gate.NewFinding(gate.RuleUnparsedTestFile, gate.SeverityHigh, s.path, 0, "", "", s.failed, msg))
		break
	}
	return out
}
