package analyze

import (
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// CommitFindings are the findings one commit of a range introduced.
type CommitFindings struct {
	SHA      string
	Subject  string
	Findings []gate.Finding
}

// Combine merges the findings of each commit with those of the net change. A net
// finding is attributed to the first commit that introduced it; a commit's finding
// that does not hold at HEAD is kept with Net=false (reported, never blocking).
// The result is sorted, and the commit list counts what each commit introduced.
func Combine(commits []CommitFindings, net []gate.Finding) ([]gate.Finding, []gate.Commit) {
	type loose struct {
		t               gate.FindingType
		rule, test, sym string
	}
	looseKey := func(f gate.Finding) loose { return loose{f.Type, f.Rule, f.Test, f.Symbol} }

	firstByID := map[string]string{}
	firstByLoose := map[loose]string{}
	for _, c := range commits {
		for _, f := range c.Findings {
			if _, ok := firstByID[f.ID]; !ok {
				firstByID[f.ID] = c.SHA
			}
			if _, ok := firstByLoose[looseKey(f)]; !ok {
				firstByLoose[looseKey(f)] = c.SHA
			}
		}
	}
	netIDs := map[string]bool{}
	netLoose := map[loose]bool{}
	for _, f := range net {
		netIDs[f.ID] = true
		netLoose[looseKey(f)] = true
	}
	// The step-by-step reading of a net test deletion holds only when no
	// commit weakened a test on the way: a test renamed in one commit, then
	// deleted, skipped or emptied in the next, shows as a finding of that
	// commit which does not hold at HEAD (the test it names was born in the
	// range); the net deletion of the test BASE had is then that commit's.
	var step *gate.Finding
	stepCommit := ""
	for _, c := range commits {
		for i, f := range c.Findings {
			if step == nil && f.Test != "" && f.Severity > gate.SeverityMedium && !netIDs[f.ID] && !netLoose[looseKey(f)] &&
				(f.Type == gate.TestDeletion || f.Type == gate.TestSkipping || f.Type == gate.AssertionWeakening) {
				step, stepCommit = &c.Findings[i], c.SHA
			}
		}
	}
	out := make([]gate.Finding, 0, len(net))
	for _, f := range net {
		f.Net = true
		if sha, ok := firstByID[f.ID]; ok {
			f.Commit = sha
		} else if sha, ok := firstByLoose[looseKey(f)]; ok {
			f.Commit = sha
		} else if len(commits) == 1 {
			f.Commit = commits[0].SHA
		} else if f.Type == gate.TestDeletion && f.Severity > gate.SeverityMedium && step != nil {
			f.Commit = stepCommit
			f.Message = fmt.Sprintf("%s; no single commit deleted it by that name, and a commit of the range weakened test %s, which the range had made of it or put in its place (%s: %s)",
				strings.TrimSuffix(f.Message, "."), step.Test, step.Type, strings.TrimSuffix(step.Message, ".")) + "."
		} else if f.Type == gate.TestDeletion && f.Severity > gate.SeverityMedium {
			// Every commit accounted for the test (renamed, moved or reworked one
			// step at a time); only the two ends no longer line up.
			f.Severity = gate.SeverityMedium
			f.Message = strings.TrimSuffix(f.Message, ".") + "; no single commit deleted it: it was renamed or reworked step by step across the range."
		}
		out = append(out, f)
	}
	list := make([]gate.Commit, 0, len(commits))
	seen := map[string]bool{}
	for _, c := range commits {
		list = append(list, gate.Commit{SHA: c.SHA, Subject: c.Subject, Findings: len(c.Findings)})
		for _, f := range c.Findings {
			if netIDs[f.ID] || netLoose[looseKey(f)] || seen[f.ID] {
				continue
			}
			seen[f.ID] = true
			f.Net = false
			f.Commit = c.SHA
			out = append(out, f)
		}
	}
	Sort(out)
	return out, list
}
