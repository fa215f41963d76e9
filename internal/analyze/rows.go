package analyze

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A test folded into a parametrized one becomes a row of its table: its
// input and expected values are the row's, its checks the table test's,
// comparing against the row's arguments (assert url.path == path). Such a
// case is the old test only if, read with the row's values, it makes each
// of the old test's checks: the same kind of check of the same subject, at
// least as strong, not inverted. An expected value the row gives otherwise
// is a rewritten expectation (medium, as in place); a check it makes no
// longer, or only weaker, is lost, whatever the literals say.

// rowFit is how a check of a table's case makes an old test's check.
type rowFit int

const (
	rowMissing   rowFit = iota // it does not make it
	rowRewritten               // it makes it against another value, the row's
	rowUnknown                 // it makes it against a value the table does not show
	rowSame                    // it makes it against the same value
)

// fitRow compares old check x with check y of a table's case whose row
// gives its arguments the values row. Not strict, an operand may be a
// local name of the table's test (assert result == expected for assert
// f(2) == 4): the kind, sense and strength of the check, and the other
// operand, decide.
func fitRow(x, y testscan.Assertion, row map[string]string, strict bool) rowFit {
	if y.Strength < x.Strength || y.Negated != x.Negated || y.Kind != x.Kind {
		return rowMissing
	}
	subj := fitOperand(x.Subject, y.Subject, row, strict)
	exp := fitOperand(x.Expected, y.Expected, row, strict)
	switch {
	case subj == rowMissing || exp == rowMissing:
		return rowMissing
	case subj == rowSame && exp == rowSame:
		return rowSame
	case subj == rowRewritten && exp == rowRewritten, subj == rowUnknown && exp == rowUnknown:
		return rowMissing // nothing of the old check is left
	case subj == rowRewritten || exp == rowRewritten:
		return rowRewritten
	}
	return rowUnknown
}

// fitOperand compares an operand of an old check with the table case's:
// the same text once the row's values are put in (same); a bare argument
// of the row that holds another value (rewritten); a bare name the row
// does not give, for a literal (an argument the body assigns again), or,
// not strict, for anything (a local name), or an expression made from the
// row's arguments (unknown).
func fitOperand(old, now string, row map[string]string, strict bool) rowFit {
	if old == now || substituteRow(now, row) == old {
		return rowSame
	}
	if _, ok := row[now]; ok {
		return rowRewritten
	}
	if isIdent(now) && (isLiteralText(old) || !strict) {
		return rowUnknown
	}
	if !strict && mentionsRow(now, row) {
		return rowUnknown // a value made from the row's (f"{expected!r}\n", repr(expected))
	}
	return rowMissing
}

// mentionsRow reports whether an expression names one of the row's
// arguments: a name not after a dot, outside strings or in an f-string's
// braces (f"{expected!r}", repr(expected); not url.query, not "query").
func mentionsRow(expr string, row map[string]string) bool {
	inF := false // inside an f-string
	depth := 0   // braces open inside it
	var quote byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case quote != 0 && depth == 0:
			switch {
			case c == '\\':
				i++
			case c == quote:
				quote, inF = 0, false
			case c == '{' && inF:
				depth++
			}
			continue
		case c == '"' || c == '\'':
			if depth == 0 {
				quote, inF = c, i > 0 && (expr[i-1] == 'f' || expr[i-1] == 'F')
				continue
			}
		case c == '}' && depth > 0:
			depth--
			continue
		}
		if c != '_' && !unicode.IsLetter(rune(c)) {
			continue
		}
		j := i
		for j < len(expr) && (expr[j] == '_' || unicode.IsLetter(rune(expr[j])) || unicode.IsDigit(rune(expr[j]))) {
			j++
		}
		if _, ok := row[expr[i:j]]; ok && (i == 0 || expr[i-1] != '.') && (j >= len(expr) || expr[j] != '"' && expr[j] != '\'') {
			return true
		}
		i = j - 1
	}
	return false
}

// isLiteralText reports whether normalized source text is one string or
// number literal (b"x", "x", 42).
func isLiteralText(s string) bool {
	s = strings.TrimPrefix(s, "b")
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return true
	}
	return s != "" && strings.Trim(s, "0123456789.-_") == ""
}

// substituteRow puts the row's values in for the names of its arguments
// in an expression (not after a dot, not inside a string).
func substituteRow(expr string, row map[string]string) string {
	if len(row) == 0 {
		return expr
	}
	if v, ok := row[expr]; ok {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(expr) && expr[j] != c {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(expr))
			b.WriteString(expr[i:j])
			i = j
		case c == '_' || unicode.IsLetter(rune(c)):
			j := i
			for j < len(expr) && (expr[j] == '_' || unicode.IsLetter(rune(expr[j])) || unicode.IsDigit(rune(expr[j]))) {
				j++
			}
			name := expr[i:j]
			if v, ok := row[name]; ok && (i == 0 || expr[i-1] != '.') && (j >= len(expr) || expr[j] != '"' && expr[j] != '\'') {
				b.WriteString(v)
			} else {
				b.WriteString(name)
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// rowChecks reads the checks of a table's case n against those of the old
// test o, with the row of n's table that fits best: how many of o's checks
// of at least medium strength n does not make (lost), and the expected
// values the row gives otherwise (rewritten). ok is false when n is not a
// case of a table whose rows are known.
func rowChecks(o, n *testscan.TestCase, strict bool) (lost int, rewritten []string, ok bool) {
	if _, param := baseID(n.ID); !param || len(n.Params) == 0 {
		return 0, nil, false
	}
	lost = -1
	for _, row := range n.Params {
		l, r := rowChecksOf(o, n, row, strict)
		if lost < 0 || l < lost || l == lost && len(r) < len(rewritten) {
			lost, rewritten = l, r
		}
	}
	return lost, rewritten, true
}

func rowChecksOf(o, n *testscan.TestCase, row map[string]string, strict bool) (int, []string) {
	used := make([]bool, len(n.Assertions))
	lost := 0
	var rewritten []string
	for _, x := range o.Assertions {
		if x.Strength < testscan.Medium {
			continue
		}
		best, at := rowMissing, -1
		for i, y := range n.Assertions {
			if used[i] {
				continue
			}
			if f := fitRow(x, y, row, strict); f > best {
				best, at = f, i
			}
		}
		switch best {
		case rowMissing:
			lost++
			continue
		case rowRewritten:
			rewritten = append(rewritten, x.Expected)
		}
		used[at] = true
	}
	return lost, rewritten
}

// rowReworked reports whether n, a case of a parametrized test the change
// created, is the old test o folded into its table with expected values
// rewritten: o's inputs (its literals that no check expects) are all in
// n's row, one of them specific; n makes each of o's checks, with the
// row's values; and n's name shares a word with o's, or the row keeps one
// of o's specific expected values.
func rowReworked(o, n *locTest) bool {
	if _, param := baseID(o.tc.ID); param || checks(o.tc) == 0 || !runs(n.tc) || !collected(n) {
		return false
	}
	lost, rewritten, ok := rowChecks(o.tc, n.tc, true)
	if !ok || lost > 0 {
		return false
	}
	if inputs := rowInputs(o.tc); inputs == nil || !containsAll(n.tc.Literals, inputs) {
		return false
	}
	if base, _ := baseID(n.tc.Name); nameShared(o, []*locTest{{tc: &testscan.TestCase{Name: base}}}) {
		return true
	}
	return keptSpecific(o.tc, rewritten)
}

// keptSpecific reports whether one of o's checks expects a specific value
// that is not among those rewritten.
func keptSpecific(o *testscan.TestCase, rewritten []string) bool {
	gone := map[string]int{}
	for _, r := range rewritten {
		gone[r]++
	}
	for _, x := range o.Assertions {
		if x.Strength < testscan.Medium {
			continue
		}
		if gone[x.Expected] > 0 {
			gone[x.Expected]--
			continue
		}
		if specific(x.Expected) && len(strings.Trim(x.Expected, `b"'`)) >= 3 {
			return true
		}
	}
	return false
}

// reportRow reports an old test that became a case of a table and gave up
// checks (high), or whose expected values the row rewrote (medium).
func reportRow(o, n *locTest) []gate.Finding {
	if ob, _ := baseID(o.tc.ID); strings.HasPrefix(n.tc.ID, ob+"[") {
		return nil // its own table: family's and rowKept's to judge
	}
	lost, rewritten, ok := rowChecks(o.tc, n.tc, false)
	if !ok {
		return nil
	}
	if lost > 0 {
		msg := fmt.Sprintf("test %s became %s, a case of a table, whose checks no longer make %d of its %d %s (the same check of the same subject, at least as strong)",
			o.tc.ID, n.tc.ID, lost, checks(o.tc), ci.Plural(checks(o.tc), "check", "checks"))
		return []gate.Finding{gate.NewFinding(gate.RuleAssertionRemoved, gate.SeverityHigh, n.side.path, n.tc.Line, n.tc.ID, "", "row", msg+".")}
	}
	if len(rewritten) == 0 {
		return nil
	}
	msg := fmt.Sprintf("test %s became %s, a case of a table whose row expects other values (%s no longer expected); a behaviour change the task asked for also does this, so check that the code, not the test, was meant to change",
		o.tc.ID, n.tc.ID, quoteList(rewritten, 3))
	return []gate.Finding{gate.NewFinding(gate.RuleExpectedRewritten, gate.SeverityMedium, n.side.path, n.tc.Line, n.tc.ID, "", strings.Join(rewritten, ","), msg+".")}
}

// rowInputs returns the inputs of a test: its literals that none of its
// checks expects or checks, when one of them is distinct (five characters
// or more), else nil.
func rowInputs(o *testscan.TestCase) []string {
	var inputs []string
	distinct := false
	for _, l := range o.Literals {
		expected := false
		for _, x := range o.Assertions {
			expected = expected || strings.Contains(x.Expected, l) || strings.Contains(x.Subject, l)
		}
		if !expected {
			inputs = append(inputs, l)
			distinct = distinct || len(strings.Trim(l, `b"'`)) >= 5
		}
	}
	if !distinct {
		return nil
	}
	return inputs
}

// splitRowLosses separates from the deleted tests those the change folded
// into rows of tables it created (a case whose row holds all of the old
// test's inputs) while dropping checks: a check of the old test that no
// such case makes, read with its row's values, nor a test the change
// created carries. A table whose test compares less cannot pass for a
// replacement because its rows hold the old values.
func splitRowLosses(deleted, news []*locTest, fresh func(*locTest) bool) ([]*locTest, []gate.Finding) {
	var rest []*locTest
	var out []gate.Finding
	for _, o := range deleted {
		if f := rowLoss(o, news, fresh); f != nil {
			out = append(out, *f)
			continue
		}
		rest = append(rest, o)
	}
	return rest, out
}

// rowLoss returns the finding of a deleted test folded into table rows
// that lost checks, or nil.
func rowLoss(o *locTest, news []*locTest, fresh func(*locTest) bool) *gate.Finding {
	if _, param := baseID(o.tc.ID); param || checks(o.tc) == 0 {
		return nil
	}
	inputs := rowInputs(o.tc)
	if inputs == nil {
		return nil
	}
	var rows, made []*locTest
	for _, n := range news {
		if !fresh(n) || n.side.ext != o.side.ext {
			continue
		}
		made = append(made, n)
		if _, param := baseID(n.tc.ID); param && len(n.tc.Params) > 0 && containsAll(n.tc.Literals, inputs) {
			rows = append(rows, n)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	lost := 0
	for _, x := range o.tc.Assertions {
		if x.Strength < testscan.Medium || rowMakes(x, rows) {
			continue
		}
		kept := false
		for _, c := range made {
			for _, y := range c.tc.Assertions {
				kept = kept || runs(c.tc) && carries(x, y)
			}
		}
		if !kept {
			lost++
		}
	}
	if lost == 0 {
		return nil
	}
	n := rows[0]
	msg := fmt.Sprintf("test %s was folded into %s, a case of a table whose row holds its inputs, but the table's checks no longer make %d of its %d %s (the same check of the same subject, at least as strong)",
		o.tc.ID, n.tc.ID, lost, checks(o.tc), ci.Plural(checks(o.tc), "check", "checks"))
	f := gate.NewFinding(gate.RuleAssertionRemoved, gate.SeverityHigh, n.side.path, n.tc.Line, n.tc.ID, "", "row", msg+".")
	return &f
}

// rowMakes reports whether a check of one of the table cases makes x,
// read with one of its rows' values (not strict: see fitRow).
func rowMakes(x testscan.Assertion, rows []*locTest) bool {
	for _, n := range rows {
		for _, row := range n.tc.Params {
			for _, y := range n.tc.Assertions {
				if fitRow(x, y, row, false) != rowMissing {
					return true
				}
			}
		}
	}
	return false
}
