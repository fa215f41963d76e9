package analyze

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// compareExports reports public names that the old sides declare and no new side
// does (feature_removal). A name that reappears anywhere in the change moved.
// Go files under internal/ or cmd/ are not public API; test files are skipped.
func (a *Analyzer) compareExports(pairs []*pair) []gate.Finding {
	newNames := map[string]bool{}    // dir + name
	newAnywhere := map[string]bool{} // name
	partialDirs := map[string]bool{} // a new side that did not parse hides its names
	for _, pr := range pairs {
		if pr.new == nil || pr.new.facts == nil {
			continue
		}
		if pr.new.facts.Partial && !pr.fc.Fragment {
			partialDirs[dir(pr.new.path)] = true
		}
		for _, s := range pr.new.facts.Exports {
			newNames[dir(pr.new.path)+"\x00"+s.Name] = true
			newAnywhere[s.Name] = true
		}
	}
	var out []gate.Finding
	for _, pr := range pairs {
		if pr.old == nil || pr.old.facts == nil || pr.old.isTest || !publicAPI(pr.old) {
			continue
		}
		if partialDirs[dir(pr.old.path)] || (pr.new != nil && pr.new.facts != nil && pr.new.facts.Partial && !pr.fc.Fragment) {
			continue
		}
		var gone []testscan.Symbol
		for _, s := range pr.old.facts.Exports {
			if newNames[dir(pr.old.path)+"\x00"+s.Name] || newAnywhere[s.Name] {
				continue
			}
			if pr.new != nil && newNames[dir(pr.new.path)+"\x00"+s.Name] {
				continue
			}
			gone = append(gone, s)
		}
		if len(gone) == 0 {
			continue
		}
		file := pr.old.path
		if len(gone) > 5 {
			names := make([]string, len(gone))
			for i, s := range gone {
				names[i] = s.Name
			}
			sort.Strings(names)
			what := "had them removed"
			if pr.new == nil {
				what = "was deleted"
			}
			msg := fmt.Sprintf("%s %s: %d public names are gone without replacement (%s)", file, what, len(gone), quoteList(names, 6))
			out = append(out, gate.NewFinding(gate.RuleExportsRemoved, gate.SeverityMedium, file, gone[0].Line, "", strings.Join(names, ","), "", msg+"."))
			continue
		}
		for _, s := range gone {
			msg := fmt.Sprintf("public %s %s was removed from %s without replacement", s.Kind, s.Name, file)
			out = append(out, gate.NewFinding(gate.RuleExportRemoved, gate.SeverityMedium, file, s.Line, "", s.Name, "", msg+"."))
		}
	}
	return out
}

// publicAPI reports whether a file's exports are API other code may use.
func publicAPI(s *side) bool {
	if s.facts.Lang != testscan.Go {
		return true
	}
	p := "/" + s.path
	return !strings.Contains(p, "/internal/") && !strings.HasPrefix(s.path, "cmd/") && !strings.Contains(p, "/cmd/")
}
