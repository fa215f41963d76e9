package analyze

import (
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
	out := make([]gate.Finding, 0, len(net))
	for _, f := range net {
		f.Net = true
		if sha, ok := firstByID[f.ID]; ok {
			f.Commit = sha
		} else if sha, ok := firstByLoose[looseKey(f)]; ok {
			f.Commit = sha
		} else if len(commits) == 1 {
			f.Commit = commits[0].SHA
		} else if f.Type == gate.TestDeletion && f.Severity > gate.SeverityMedium {
			// Every commit accounted for the test (renamed, moved or reworked one
			// step at a time); only the two ends no longer line up.
			f.Severity = gate.SeverityMedium
			f.Message = strings.TrimSuffix(f.Message, ".") + "; no single commit deleted it: it was renamed or reworked step by step across the range."
		}
		netIDs[f.ID] = true
		netLoose[looseKey(f)] = true
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
