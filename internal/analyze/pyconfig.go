package analyze

import (
	"bytes"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// A marker filter added to pytest's options (addopts = "-m 'not stress'")
// deselects the tests that carry the marker. When the change introduced the
// marker (registered now, not at BASE) and put it only on tests it created,
// the filter stops no test of BASE: those tests are new work run elsewhere
// (their own tox env or CI job), not old checks switched off.

// markerFilter is a `-m "not A and not B"` in a line of options: the marker
// names it deselects and the line without it.
var markerFilter = lazyre.New(`(^|[\s"'=\[,])-m(\s+|=)("[^"]*"|'[^']*'|[A-Za-z_]\w*)`)

// deselectedMarkers reads the marker expression of a line when it only
// deselects markers (`not A`, `not A and not B`); ok is false for any other
// expression (a selection, an or, parentheses), which may stop old tests.
func deselectedMarkers(line string) (names []string, rest string, ok bool) {
	line = strings.ReplaceAll(line, `\"`, `"`)
	ms := markerFilter.FindAllStringSubmatchIndex(line, -1)
	if len(ms) != 1 {
		return nil, line, false
	}
	m := ms[0]
	expr := strings.Trim(line[m[6]:m[7]], `"'`)
	rest = line[:m[3]] + line[m[7]:]
	words := strings.Fields(expr)
	for i := 0; i < len(words); i += 3 {
		if i+1 >= len(words) || words[i] != "not" || !isIdent(words[i+1]) {
			return nil, rest, false
		}
		if i+2 < len(words) && (words[i+2] != "and" || i+3 >= len(words)) {
			return nil, rest, false
		}
		names = append(names, words[i+1])
	}
	return names, rest, len(names) > 0
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != "" && s != "not" && s != "and" && s != "or"
}

// pytestMarkers are the markers a pytest configuration registers (markers =
// "name: description" lines), by name.
func pytestMarkers(p string, data []byte) map[string]bool {
	out := map[string]bool{}
	if data == nil {
		return out
	}
	var lines []string
	switch path.Base(p) {
	case "pyproject.toml":
		doc, err := ci.ReadTOML(data)
		if err != nil {
			return out
		}
		for _, t := range []map[string]any{ci.TOMLTable(doc, "tool", "pytest", "ini_options"), ci.TOMLTable(doc, "tool", "pytest")} {
			if list, ok := t["markers"].([]any); ok {
				for _, v := range list {
					if s, ok := v.(string); ok {
						lines = append(lines, s)
					}
				}
			}
		}
	default:
		f, err := ci.ReadINI(data)
		if err != nil {
			return out
		}
		for _, sec := range []string{"pytest", "tool:pytest"} {
			if v, ok := f.Value(sec, "markers"); ok {
				lines = append(lines, strings.Split(v, "\n")...)
			}
		}
	}
	for _, l := range lines {
		name, _, _ := strings.Cut(l, ":")
		name, _, _ = strings.Cut(name, "(")
		if name = strings.TrimSpace(name); name != "" {
			out[name] = true
		}
	}
	return out
}

// pytestConfig reports whether a path is a file pytest reads its options from.
func pytestConfig(p string) bool {
	switch path.Base(p) {
	case "pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini":
		return true
	}
	return false
}

// newMarkerDeselection reports whether a runner-filter finding of a pytest
// configuration is a marker filter that stops only tests the change
// created: the line's only filter is `-m "not NAME..."`, each NAME is a
// marker registered by the change (not at BASE), no Python file of BASE the
// change touched uses it, and every test that carries it now is one BASE
// did not have, marked by a decorator (no conftest hook adds markers).
func newMarkerDeselection(pr *pair, pairs []*pair, f gate.Finding) bool {
	if f.Rule != gate.RuleRunnerFilter.ID || !pytestConfig(pr.path()) || pr.fc.New == nil {
		return false
	}
	lines := ci.SplitLines(pr.fc.New)
	if f.Line < 1 || f.Line > len(lines) {
		return false
	}
	names, rest, ok := deselectedMarkers(lines[f.Line-1])
	if !ok || ci.RunnerFilter.MatchString(rest) {
		return false
	}
	had, has := pytestMarkers(pr.fc.OldPath, pr.fc.Old), pytestMarkers(pr.path(), pr.fc.New)
	for _, n := range names {
		if had[n] || !has[n] || !onlyNewTestsMarked(pairs, n) {
			return false
		}
	}
	return true
}

// onlyNewTestsMarked reports whether the tests that carry marker name at
// the change's head are all tests it created (at least one), and nothing of
// BASE the change shows uses the marker: every test of BASE in the files it
// touched is still there under its id, unmarked (a test moved or renamed
// onto a marked one is an old test deselected), and no hook adds markers.
func onlyNewTestsMarked(pairs []*pair, name string) bool {
	mark := []byte("mark." + name)
	now := map[string]bool{} // the head's tests in the files touched, by id: marked
	marked := 0
	for _, pr := range pairs {
		if !strings.HasSuffix(pr.fc.NewPath, ".py") {
			continue
		}
		if bytes.Contains(pr.fc.New, []byte("add_marker")) || pr.new == nil || pr.new.facts == nil {
			return false
		}
		for _, t := range pr.new.facts.Tests {
			m := slices.Contains(t.Marks, name)
			now[t.ID] = now[t.ID] || m
			if m {
				marked++
			}
		}
	}
	for _, pr := range pairs {
		if !strings.HasSuffix(pr.fc.OldPath, ".py") {
			continue
		}
		if bytes.Contains(pr.fc.Old, mark) {
			return false
		}
		if pr.old == nil || pr.old.facts == nil {
			return false
		}
		for _, t := range pr.old.facts.Tests {
			if m, ok := now[t.ID]; !ok || m {
				return false
			}
		}
	}
	return marked > 0
}

// dropNewMarkerFilters removes from a configuration file's findings the
// marker filters that stop only the change's new tests (newMarkerDeselection).
func dropNewMarkerFilters(fs []gate.Finding, pr *pair, pairs []*pair) []gate.Finding {
	out := fs[:0]
	for _, f := range fs {
		if !newMarkerDeselection(pr, pairs, f) {
			out = append(out, f)
		}
	}
	return out
}
