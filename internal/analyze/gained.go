package analyze

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// helperChecksGained lists the helper checks the change added across all its
// files (each helper's new checks minus its old ones, check by check: a
// new helper's checks are all gained, whatever other helpers check), once
// per change.
func (cr *callReach) helperChecksGained() []testscan.Assertion {
	if cr.gained != nil {
		return *cr.gained
	}
	had := map[string]int{}
	for _, pr := range cr.pairs {
		if pr.old != nil && pr.old.facts != nil {
			for _, x := range pr.old.facts.HelperAssertions {
				had[x.Helper+"\x00"+assertKey(x)]++
			}
		}
	}
	var out []testscan.Assertion
	for _, pr := range cr.pairs {
		if pr.new != nil && pr.new.facts != nil {
			for _, x := range pr.new.facts.HelperAssertions {
				if k := x.Helper + "\x00" + assertKey(x); had[k] > 0 {
					had[k]--
					continue
				}
				out = append(out, x)
			}
		}
	}
	cr.gained = &out
	return out
}

// movedToHelpers returns the removed checks of test o (now n) that do not
// reappear among the helper checks the change gained, followed from the
// test or not (a helper in a shared file the analysis does not reach): a
// gained check of the same kind, as strong, about the same thing: the same
// specific expected value, an operand word in common (the function called,
// an argument, a literal word), a bound on a local holding the same value,
// or, in a helper the test newly calls, a parameter the test now passes the
// old expected value to (checkAdd(t, 2, 3, 5) for `got != 5`) or one row of
// a loop over the cases it passes (Assertion.RowsOf). A check of another
// value gained by a helper (setup now checks the config's mode) stands in
// for nothing. A helper serves many tests, so the gain is not used up by
// one test.
func (cr *callReach) movedToHelpers(removed []testscan.Assertion, o, n *testscan.TestCase) []testscan.Assertion {
	if cr == nil {
		return removed
	}
	// A custom assertion (Java's assertIncludesClass(c), read as a check
	// by its name) is a call of its helper too.
	called := map[string]bool{}
	for _, c := range o.Calls {
		called[c.Name] = true
	}
	for _, x := range o.Assertions {
		called[x.Kind] = true
	}
	newly := map[string]bool{}
	for _, c := range n.Calls {
		if !called[c.Name] {
			newly[c.Name] = true
		}
	}
	for _, x := range n.Assertions {
		if !called[x.Kind] {
			newly[x.Kind] = true
		}
	}
	lits := map[string]bool{}
	for _, l := range n.Literals {
		lits[l] = true
	}
	// What the test now hands its helpers: its literals, and the operands
	// of its checks (a custom assertion's arguments).
	passed := map[string]bool{}
	for l := range lits {
		passed[l] = true
	}
	for _, x := range n.Assertions {
		passed[x.Subject], passed[x.Expected] = true, true
	}
	// A helper the test starts only where it may never run (a goroutine
	// nothing waits for) carries none of its checks.
	detached := map[string]bool{}
	for _, d := range n.Detached {
		detached[d] = true
	}
	gained := cr.helperChecksGained()
	// A gained check is used up by one removed check, and by its copies:
	// the same check made at each call of a closure (atEachCall) moved
	// into a helper once is one check moved.
	usedBy := make([]string, len(gained))
	var left []testscan.Assertion
	for _, x := range removed {
		moved := false
		xw := operandWords(x)
		for i, y := range gained {
			if y.Negated != x.Negated || y.Strength < x.Strength {
				continue
			}
			if detached[y.Helper] || detached[lastSegment(y.Helper)] {
				continue
			}
			calledNow := newly[y.Helper] || newly[methodName(y.Helper)] || newly["."+methodName(y.Helper)] || newly[lastSegment(y.Helper)]
			// A helper the test newly calls that checks inside a loop over
			// the rows passed to it (RowsOf), of the same code, the same way
			// or by an exact check, where the test passes every value
			// this check was about: one row's check. It stands in for each
			// such check, as a table's loop does for its rows, so it is not
			// used up.
			if calledNow && y.RowsOf != "" && (sameCheckKind(x.Kind, y.Kind) || effStrength(y) >= testscan.Strong) && sameCallee(x, y) && valuesPassed(x, lits) {
				moved = true
				break
			}
			if !sameCheckKind(x.Kind, y.Kind) || usedBy[i] != "" && usedBy[i] != assertKey(x) {
				continue
			}
			// In a helper the test newly calls: the same check of the same
			// subject (expectSuccess(output, err, t) checking err as the
			// test did) or of the same function on the helper's parameter
			// (excluder.excludeClass(MockObject.class, true) ->
			// excluder.excludeClass(c, true), both isFalse), or a parameter
			// the test passes the old expected value to.
			extracted := calledNow && (x.Subject != "" && x.Expected == y.Expected && (x.Subject == y.Subject || onParams(x.Subject, y.Subject, passed)) ||
				x.Expected != "" && lits[x.Expected])
			if opposed(x.Subject, y.Subject) {
				continue // the same value bounded from the other side
			}
			// A bound the helper checks on a local holding the very value
			// the test checked (headChunksLen := s.headChunks.len()).
			throughLocal := y.Origin != "" && x.Subject != "" && y.Origin == x.Subject && (x.Expected == y.Expected || tighterBound(x, y))
			if (namedValue(x.Expected) && x.Expected == y.Expected || shared(xw, operandWords(y)) > 0 || extracted || throughLocal) && !cr.neverRuns(y.Helper) {
				usedBy[i] = assertKey(x)
				moved = true
				break
			}
		}
		if !moved {
			left = append(left, x)
		}
	}
	return left
}

// onParams reports whether check subject y is x made on a helper's
// parameters: the same call (excluder.excludeClass(MockObject.class,
// false) and excluder.excludeClass(c, false)), each argument the same or,
// in y, a name where x has a value the test now passes (MockObject.class).
// excludeClass(c, true) is another check.
func onParams(x, y string, passed map[string]bool) bool {
	fx, ax, okx := callArgs(x)
	fy, ay, oky := callArgs(y)
	if !okx || !oky || fx != fy || len(ax) != len(ay) {
		return false
	}
	for i := range ax {
		if ax[i] == ay[i] {
			continue
		}
		if rootIdent(ay[i]) != ay[i] || !passed[ax[i]] {
			return false
		}
	}
	return true
}

// callArgs splits a subject that is a call (with what comes before it:
// excluder.excludeClass(c,true)) into the text up to its parenthesis and
// its top-level arguments; ok is false for a subject that calls nothing.
func callArgs(s string) (fn string, args []string, ok bool) {
	i := strings.IndexByte(s, '(')
	if i <= 0 || callee(s) == "" {
		return "", nil, false
	}
	depth, start := 0, i+1
	var quote byte
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == '\\' {
				j++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 {
				if a := strings.TrimSpace(s[start:j]); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return s[:i], args, true
			}
		case c == ',' && depth == 1:
			args = append(args, strings.TrimSpace(s[start:j]))
			start = j + 1
		}
	}
	return "", nil, false
}

// callee is the name of the first function a subject calls
// ("excludeClass" of excluder.excludeClass(c, true)), "" when it calls none.
func callee(subject string) string {
	i := strings.IndexByte(subject, '(')
	if i <= 0 {
		return ""
	}
	j := i
	for j > 0 && (subject[j-1] == '_' || 'a' <= subject[j-1] && subject[j-1] <= 'z' || 'A' <= subject[j-1] && subject[j-1] <= 'Z' || '0' <= subject[j-1] && subject[j-1] <= '9') {
		j--
	}
	return subject[j:i]
}

// sameCheckKind reports whether two check kinds fail a test the same way:
// the same kind, Go's t.Errorf and t.Fatalf (on any receiver name), or
// testify's assert.X and require.X.
func sameCheckKind(a, b string) bool {
	norm := func(k string) string {
		recv, m, ok := strings.Cut(k, ".")
		if !ok {
			return k
		}
		if recv == "require" || recv == "assert" {
			return "assert." + m
		}
		switch m {
		case "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow":
			return "fail"
		}
		return k
	}
	return a == b || norm(a) == norm(b)
}

// methodName is the method of a "Recv.name" helper name.
func methodName(h string) string {
	if i := strings.LastIndexByte(h, '.'); i >= 0 {
		return h[i+1:]
	}
	return h
}

// namedValue reports whether an expected value names something particular
// (NullPointerException.class, "ok", 42), unlike true, nil or []. It is
// looser than identity's specific, which wants a literal: a helper check
// the test newly reaches may expect a class or a constant by name.
func namedValue(e string) bool {
	switch e {
	case "true", "false", "True", "False", "None", "null", "undefined", "nil", "[]", "{}", "''", `""`:
		return false
	}
	return len(e) >= 2
}

// tighterBound reports whether y bounds the value at least as tightly as x,
// both testify-style ordering checks against number literals (Greater(n,
// 1) -> Greater(n, 2)); a bound loosened on its way (> 1 to > 0) is not.
func tighterBound(x, y testscan.Assertion) bool {
	if x.Kind != y.Kind {
		return false
	}
	a, errA := strconv.ParseFloat(x.Expected, 64)
	b, errB := strconv.ParseFloat(y.Expected, 64)
	if errA != nil || errB != nil {
		return false
	}
	k := strings.ToLower(x.Kind)
	switch {
	case strings.Contains(k, "greater"):
		return b >= a
	case strings.Contains(k, "less"):
		return b <= a
	}
	return false
}

// sameCallee reports whether two checks are about a call of the same
// function (parse("42") and parse(text), Parse("1") through got and
// Parse(c.in) through got): their subjects', or their subjects' origins',
// last callee.
func sameCallee(x, y testscan.Assertion) bool {
	callee := func(a testscan.Assertion) string {
		if c := testscan.LastCallee(a.Subject); c != "" {
			return c
		}
		return testscan.LastCallee(a.Origin)
	}
	c := callee(x)
	return c != "" && c == callee(y)
}

// valuesPassed reports whether every literal of check x (its subject's
// and its expected value's strings and numbers) is among the literals the
// test now passes (lits), and it has one.
func valuesPassed(x testscan.Assertion, lits map[string]bool) bool {
	n := 0
	for _, e := range []string{x.Subject, x.Origin, x.Expected} {
		for _, q := range quotedLiterals(e) {
			if !lits[q] {
				return false
			}
			n++
		}
		for _, d := range numberTokens(e) {
			if !lits[d] {
				return false
			}
			n++
		}
	}
	return n > 0
}

// quotedLiterals are the closed string literals of a normalized
// expression as written, quotes included ("42", 'x', `y`).
func quotedLiterals(e string) []string {
	var out []string
	literalSpans(e, func(start, end int) {
		if end < len(e) {
			out = append(out, e[start:end+1])
		}
	})
	return out
}

// neverRuns reports whether helper h gained checks in the change and never
// runs: a free function (no receiver, class or module in its name; a Java
// class's methods) that no old version of the change's files names (a
// function of a file the change does not touch gains no check), and that
// the change's new versions name nowhere but in its own definition
// (testscan.Referencer: identifiers and exact string literals, comments
// left out). A name the change adds can only be named by code the change
// writes, so its new versions are all there is to read; a helper named
// anywhere (called, passed on, registered, named in a string) runs as far
// as this reading can tell, and so does one of a language whose extractor
// cannot count names. Asked only of a helper whose check would stand in
// for a lost one; the answer is kept for the change.
func (cr *callReach) neverRuns(h string) bool {
	if v, ok := cr.uncalled[h]; ok {
		return v
	}
	if cr.uncalled == nil {
		cr.uncalled = map[string]bool{}
	}
	v := cr.readNeverRuns(h)
	cr.uncalled[h] = v
	return v
}

func (cr *callReach) readNeverRuns(h string) bool {
	if h == "" || strings.ContainsAny(h, ":#/ ") {
		return false
	}
	n := lastSegment(h)
	if n != h {
		// A method (Recv.m, Class.m) may be called through an interface,
		// a trait or a base class from files the change does not hold;
		// a Java class's helper methods are read, its reader counting a
		// method that may override one as named (see its References).
		java := false
		for _, pr := range cr.pairs {
			if pr.new != nil && pr.new.facts != nil && pr.new.facts.Lang == testscan.Java && slices.Contains(pr.new.facts.Helpers, h) {
				java = true
				break
			}
		}
		if !java || strings.Count(h, ".") != 1 {
			return false
		}
	}
	calls := func(cs []testscan.Call) bool {
		return slices.ContainsFunc(cs, func(c testscan.Call) bool { return lastSegment(strings.TrimPrefix(c.Name, ".")) == n })
	}
	defs := 0
	for _, pr := range cr.pairs {
		for _, sd := range []*side{pr.old, pr.new} {
			if sd == nil || sd.facts == nil {
				continue
			}
			for _, tc := range sd.facts.Tests {
				if calls(tc.Calls) {
					return false
				}
			}
			for _, cs := range sd.facts.HelperCalls {
				if calls(cs) {
					return false
				}
			}
		}
		if pr.new != nil && pr.new.facts != nil {
			for _, d := range pr.new.facts.Helpers {
				if lastSegment(d) == n {
					defs++
				}
			}
		}
	}
	// Named by a version before the change: not new. Named by the new
	// versions beyond its definitions: it may run. Only files that hold
	// the name's bytes are read by their language's lexer.
	names := map[string]bool{n: true}
	named := 0
	for _, pr := range cr.pairs {
		for i, sd := range []*side{pr.old, pr.new} {
			if sd == nil {
				continue
			}
			text := pr.text(i == 0)
			if !bytes.Contains(text, []byte(n)) {
				continue
			}
			if i == 0 {
				return false
			}
			r, ok := sd.ext.(testscan.Referencer)
			if !ok {
				return false
			}
			named += r.References(sd.path, text, names)[n]
		}
	}
	return named <= max(defs, 1)
}
