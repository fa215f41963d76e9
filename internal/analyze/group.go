package analyze

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// Group folds the findings a person reads as one into one, so that each is
// printed once: the tests of a deleted test file (150 deleted tests are one
// deleted file, with the count and the names), and exact duplicates (one
// id). A group is net when any member is, suppressed only when all are, and
// as severe as its most severe member. Call it after the measured findings
// were merged into the static ones and the configuration applied, before
// the verdict.
func Group(fs []gate.Finding) []gate.Finding {
	type fileKey struct {
		file, commit, rule string
		net                bool
	}
	deletion := func(f gate.Finding) bool {
		return f.Type == gate.TestDeletion && (f.Rule == gate.RuleTestDeleted.ID || f.Rule == gate.RuleTestDeletedWithCode.ID)
	}
	groups := map[fileKey][]int{}
	for i, f := range fs {
		if deletion(f) && f.File != "" && f.Suppressed == "" &&
			strings.Contains(f.Message, "together with its file") {
			k := fileKey{f.File, f.Commit, f.Rule, f.Net}
			groups[k] = append(groups[k], i)
		}
	}
	drop := map[int]bool{}
	var out []gate.Finding
	seen := map[string]bool{}
	for i, f := range fs {
		if drop[i] {
			continue
		}
		if deletion(f) {
			k := fileKey{f.File, f.Commit, f.Rule, f.Net}
			if members := groups[k]; len(members) > 1 && members[0] == i {
				for _, j := range members {
					drop[j] = true
				}
				f = deletedFile(fs, members)
			}
		}
		key := fmt.Sprint(f.ID, "\x00", f.Commit, f.Net, f.Line, "\x00", f.Message)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, f)
	}
	out = mergeTamper(out)
	uniqueIDs(out)
	return out
}

// mergeTamper folds the static assertion_weakening findings on a test into
// the tamper check's measured finding on the same test, so that a person
// reads one finding with both facts: what the diff shows and what running
// BASE's version against HEAD's code proved. The merged finding keeps the
// stronger evidence and the higher severity.
func mergeTamper(fs []gate.Finding) []gate.Finding {
	type key struct {
		file, test, commit string
		net                bool
	}
	tamper := map[key]int{}
	for i, f := range fs {
		if f.Rule == gate.RuleTamperCheck.ID && f.Type == gate.AssertionWeakening && f.Test != "" {
			tamper[key{f.File, leaf(f.Test), f.Commit, f.Net}] = i
		}
	}
	if len(tamper) == 0 {
		return fs
	}
	drop := map[int]bool{}
	for i, f := range fs {
		if f.Type != gate.AssertionWeakening || f.Evidence != gate.EvidenceStatic || f.Test == "" || f.Suppressed != "" {
			continue
		}
		j, ok := tamper[key{f.File, leaf(f.Test), f.Commit, f.Net}]
		if !ok {
			continue
		}
		t := &fs[j]
		if f.Severity > t.Severity {
			t.Severity = f.Severity
		}
		if t.Line == 0 {
			t.Line = f.Line
		}
		t.Message = strings.TrimSuffix(t.Message, ".") + "; the diff shows: " + f.Message
		drop[i] = true
	}
	out := fs[:0:0]
	for i, f := range fs {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}

// uniqueIDs gives distinct findings that share an id (two assertions removed
// from one test: same type, rule, file and test) ids of their own, derived
// from what tells them apart, never from line numbers, so that each stays
// stable across runs and edits elsewhere in the file: the message, and an
// ordinal among findings still alike. The same finding in several commits
// of a range (and its net copy) keeps one id.
func uniqueIDs(fs []gate.Finding) {
	type variant struct{ id, msg string }
	byID := map[string]map[string]bool{}
	for _, f := range fs {
		if byID[f.ID] == nil {
			byID[f.ID] = map[string]bool{}
		}
		byID[f.ID][f.Message] = true
	}
	assigned := map[variant]string{}
	used := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		if len(byID[f.ID]) < 2 {
			continue
		}
		v := variant{f.ID, f.Message}
		if id, ok := assigned[v]; ok {
			f.ID = id
			continue
		}
		id := gate.MakeID(f.Type, f.Rule, f.File, f.ID, f.Message)
		for n := 2; used[id]; n++ {
			id = gate.MakeID(f.Type, f.Rule, f.File, f.ID, fmt.Sprintf("%s\x00%d", f.Message, n))
		}
		used[id] = true
		assigned[v] = id
		f.ID = id
	}
}

// deletedFile is the one finding for the tests deleted with their file.
func deletedFile(fs []gate.Finding, members []int) gate.Finding {
	first := fs[members[0]]
	g := first
	g.Test, g.Line = "", 0
	g.Rule = gate.RuleTestFileDeleted.ID
	withCode := first.Rule == gate.RuleTestDeletedWithCode.ID
	if withCode {
		g.Rule = gate.RuleTestFileDeletedWithCode.ID
	}
	g.ID = gate.MakeID(gate.TestDeletion, g.Rule, first.File, "", "")
	var names []string
	for _, j := range members {
		m := fs[j]
		names = append(names, m.Test)
		if m.Severity > g.Severity {
			g.Severity = m.Severity
		}
		if m.Evidence == gate.EvidenceMeasured {
			g.Evidence = gate.EvidenceMeasured
		}
	}
	sort.Strings(names)
	g.Tests = names
	shown := names
	more := ""
	if len(shown) > maxNamed {
		shown, more = shown[:maxNamed], fmt.Sprintf(" and %d more", len(names)-maxNamed)
	}
	g.Message = fmt.Sprintf("test file %s was deleted with its %d tests (%s%s)", first.File, len(names), strings.Join(shown, ", "), more)
	if withCode {
		g.Message += ", each of which tested production code the change deleted"
	} else if g.Severity <= gate.SeverityMedium {
		// Why each deletion is medium, when they all say the same (a
		// file that builds on no supported toolchain).
		_, why, _ := strings.Cut(first.Message, "; ")
		for _, j := range members {
			if _, w, _ := strings.Cut(fs[j].Message, "; "); w != why {
				why = ""
			}
		}
		if why = strings.TrimSuffix(why, "."); why != "" {
			g.Message += "; " + why
		}
	}
	if g.Evidence == gate.EvidenceMeasured {
		g.Message += "; the test runs confirm they ran at BASE and not at HEAD"
	}
	g.Message += "."
	return g
}
