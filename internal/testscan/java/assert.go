package java

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// callKind groups assertion functions by how their arguments are read.
type callKind int

const (
	ckEquality       callKind = iota + 1 // expected, actual[, delta][, message]
	ckNegEquality                        // assertNotEquals, assertNotSame
	ckTruth                              // assertTrue, assertFalse
	ckSubject                            // assertNull, assertNotNull, assertDoesNotThrow
	ckThrows                             // assertThrows(X.class, executable)
	ckFail                               // fail()
	ckThat                               // assertThat: Hamcrest or AssertJ/Truth
	ckThrownBy                           // AssertJ assertThatThrownBy and friends
	ckVerify                             // Mockito verify
	ckNoInteractions                     // verifyNoMoreInteractions
	ckGroup                              // assertAll: its inner checks count
	ckMessageThat                        // Truth: assertWithMessage(m).that(x).matcher(y), assert_(), assertAbout(f)
)

// assertionKinds maps assertion function names to how they are read.
var assertionKinds = map[string]callKind{
	"assertEquals": ckEquality, "assertArrayEquals": ckEquality, "assertIterableEquals": ckEquality,
	"assertLinesMatch": ckEquality, "assertSame": ckEquality,
	"assertNotEquals": ckNegEquality, "assertNotSame": ckNegEquality, "assertArrayNotEquals": ckNegEquality,
	"assertTrue": ckTruth, "assertFalse": ckTruth,
	"assertNull": ckSubject, "assertNotNull": ckSubject, "assertDoesNotThrow": ckSubject,
	"assertThrows": ckThrows, "assertThrowsExactly": ckThrows, "assertTimeout": ckThrows,
	"assertTimeoutPreemptively": ckThrows, "assertInstanceOf": ckThrows,
	"fail":               ckFail,
	"assertThat":         ckThat,
	"assertThatThrownBy": ckThrownBy, "assertThatCode": ckThrownBy, "assertThatExceptionOfType": ckThrownBy,
	"assertThatIllegalArgumentException": ckThrownBy, "assertThatIllegalStateException": ckThrownBy,
	"assertThatNullPointerException": ckThrownBy, "assertThatIOException": ckThrownBy,
	"assertThatNoException": ckThrownBy,
	// AssertJ's BDDAssertions spell them then...
	"thenThrownBy": ckThrownBy, "thenCode": ckThrownBy, "thenExceptionOfType": ckThrownBy,
	"thenIllegalArgumentException": ckThrownBy, "thenIllegalStateException": ckThrownBy,
	"thenNullPointerException": ckThrownBy, "thenIOException": ckThrownBy, "thenNoException": ckThrownBy,
	"verify":                   ckVerify,
	"verifyNoMoreInteractions": ckNoInteractions, "verifyNoInteractions": ckNoInteractions,
	"verifyZeroInteractions": ckNoInteractions,
	"assertAll":              ckGroup,
	"assertWithMessage":      ckMessageThat, "assert_": ckMessageThat, "assertAbout": ckMessageThat,
}

// customAssertion reports whether name looks like a project's own assertion helper
// (assertValid, assertJsonEquals).
func customAssertion(name string) bool {
	return len(name) > 6 && strings.HasPrefix(name, "assert") && name[6] >= 'A' && name[6] <= 'Z'
}

// call classifies the call whose name is at i; it returns nothing for calls that
// are not assertions.
func (b *bodyScanner) call(i int) []testscan.Assertion {
	name := b.toks[i].Text
	if name == "then" {
		if out := b.bddVerify(i); out != nil || !b.is(i+1, "(") {
			return out
		}
		// AssertJ's BDDAssertions.then(actual) is assertThat(actual).
		return b.chain(testscan.Assertion{Line: b.toks[i].Line, Kind: name, Strength: testscan.Medium}, i, b.args(i+1), false)
	}
	kind, known := assertionKinds[name]
	if !known && !customAssertion(name) {
		return nil
	}
	args := b.args(i + 1)
	a := testscan.Assertion{Line: b.toks[i].Line, Kind: name, Strength: testscan.Medium}
	switch kind {
	case ckGroup:
		return nil
	case ckEquality, ckNegEquality:
		b.equality(&a, args)
		if kind == ckNegEquality {
			a.Negated = true
			a.Strength = testscan.Medium
		}
	case ckTruth:
		subj := args
		if len(subj) == 2 && isMessage(subj[0]) && !b.testng {
			subj = subj[1:]
		}
		if len(subj) > 0 {
			a.Subject = joinTokens(subj[0])
			if isLiteral(subj[0]) && (a.Subject == "true" || a.Subject == "false") {
				a.Strength = testscan.Trivial
			}
		}
		a.Negated = name == "assertFalse"
	case ckSubject:
		a.Subject = lastNonMessage(args)
		if name == "assertNotNull" {
			a.Strength = testscan.Weak
		}
	case ckThrows:
		if len(args) > 0 {
			a.Expected = joinTokens(args[0])
		}
		if len(args) > 1 {
			a.Subject = joinTokens(args[1])
		}
	case ckFail:
	case ckThat:
		if len(args) >= 2 {
			return []testscan.Assertion{b.hamcrest(a, args)}
		}
		return b.chain(a, i, args, false)
	case ckThrownBy:
		return b.chain(a, i, args, true)
	case ckMessageThat:
		// The arguments are the message (a format and its values) or
		// the subject factory: the subject is that(x)'s, the checks the
		// matchers after it.
		return b.chain(a, i, nil, false)
	case ckVerify:
		return []testscan.Assertion{b.verify(a, i, args)}
	case ckNoInteractions:
		if len(args) > 0 {
			a.Subject = joinTokens(args[0])
		} else if b.staticNoInteractions(i) {
			a.Subject = b.at(i - 2).Text
		}
	default: // a custom assertion helper
		if len(args) > 0 {
			a.Subject = joinTokens(args[0])
		}
		if len(args) > 1 {
			a.Expected = joinTokens(args[1])
		}
	}
	return []testscan.Assertion{a}
}

// equality reads assertEquals-style arguments: JUnit puts the expected value
// first and an optional message first (JUnit 4) or last (JUnit 5); TestNG puts
// the actual value first and the message last. A third numeric operand is a delta.
func (b *bodyScanner) equality(a *testscan.Assertion, args [][]token) {
	a.Strength = testscan.Strong
	var exp, act, tol []token
	switch {
	case b.testng && len(args) >= 2:
		act, exp = args[0], args[1]
		if len(args) >= 3 && !isMessage(args[2]) && (len(args) == 4 || isTolerance(args[2])) {
			tol = args[2]
		}
	case len(args) == 2:
		exp, act = args[0], args[1]
	case len(args) == 3:
		switch {
		case isMessage(args[0]) && !isMessage(args[2]):
			exp, act = args[1], args[2]
		case isTolerance(args[2]):
			exp, act, tol = args[0], args[1], args[2]
		default:
			exp, act = args[0], args[1]
		}
	case len(args) >= 4:
		if isMessage(args[0]) {
			exp, act, tol = args[1], args[2], args[3]
		} else {
			exp, act, tol = args[0], args[1], args[2]
		}
	case len(args) == 1:
		act = args[0]
	}
	a.Subject, a.Expected, a.Tolerance = joinTokens(act), joinTokens(exp), joinTokens(tol)
	if isLiteral(exp) && isLiteral(act) && a.Subject == a.Expected {
		a.Strength = testscan.Trivial
	}
}

// isMessage reports whether an argument looks like a failure message: a string
// literal (or a concatenation starting with one), a supplier lambda, or a variable
// named like a message.
func isMessage(arg []token) bool {
	if len(arg) == 0 {
		return false
	}
	if arg[0].Kind == tkString {
		return true
	}
	for _, t := range arg {
		if t.Text == "->" && t.Kind == tkPunct {
			return true
		}
	}
	if len(arg) == 1 && arg[0].Kind == tkIdent {
		n := strings.ToLower(arg[0].Text)
		return strings.Contains(n, "message") || strings.Contains(n, "msg") || strings.Contains(n, "reason")
	}
	return false
}

// isTolerance reports whether an argument looks like a delta: a number, or a name
// such as EPSILON, delta, TOLERANCE.
func isTolerance(arg []token) bool {
	if len(arg) == 0 {
		return false
	}
	last := arg[len(arg)-1]
	if last.Kind == tkNumber {
		return true
	}
	if last.Kind != tkIdent {
		return false
	}
	n := strings.ToLower(last.Text)
	for _, w := range []string{"eps", "delta", "tol", "precision", "margin", "offset", "error", "within"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func lastNonMessage(args [][]token) string {
	for k := len(args) - 1; k >= 0; k-- {
		if k == 0 || !isMessage(args[k]) {
			return joinTokens(args[k])
		}
	}
	return ""
}

// staticVerify reports MockedStatic's verify at i:
// mocked.verify(verification[, mode]), the verification a lambda without
// parameters (() -> Type.method(args), () -> { Type.method(args); }) or a
// method reference (Type::method). It returns nothing: a verify whose
// result is used (chained, passed on) is some other verify.
func (b *bodyScanner) staticVerify(i int) bool {
	if b.at(i).Text != "verify" || !b.is(i-1, ".") || !b.is(i+1, "(") || !b.is(b.closeOf(i+1)+1, ";") {
		return false
	}
	if b.is(i+2, "(") && b.is(i+3, ")") && b.is(i+4, "->") {
		return true
	}
	args := b.args(i + 1)
	return len(args) > 0 && methodRef(args[0]) != ""
}

// staticNoInteractions reports MockedStatic's mocked.verifyNoInteractions()
// and mocked.verifyNoMoreInteractions() at i: Mockito's checks on the
// mocked class, called on the scope's variable with no argument.
func (b *bodyScanner) staticNoInteractions(i int) bool {
	if kind, ok := assertionKinds[b.at(i).Text]; !ok || kind != ckNoInteractions {
		return false
	}
	return b.is(i-1, ".") && b.at(i-2).Kind == tkIdent && b.is(i+1, "(") && b.is(i+2, ")") && b.is(i+3, ";")
}

// methodRef returns the call a method reference names, Type::method as
// "Type.method()" (the call a Verification makes), or "".
func methodRef(arg []token) string {
	n := len(arg)
	if n < 3 || !(arg[n-2].Kind == tkPunct && arg[n-2].Text == "::") || arg[n-1].Kind != tkIdent {
		return ""
	}
	for k, t := range arg[:n-2] {
		if k%2 == 0 && t.Kind != tkIdent || k%2 == 1 && !(t.Kind == tkPunct && t.Text == ".") {
			return ""
		}
	}
	if (n-2)%2 == 0 {
		return "" // a qualifier ends with a dot
	}
	return joinTokens(arg[:n-2]) + "." + arg[n-1].Text + "()"
}

// verification returns the call a MockedStatic verification makes, the
// statement of a one-statement block lambda read as its expression lambda,
// or "" when it calls nothing: () -> {} verifies no interaction.
func verification(arg []token) string {
	if ref := methodRef(arg); ref != "" {
		return ref
	}
	body := arg[3:] // after "( ) ->"
	if n := len(body); n >= 2 && body[0].Text == "{" && body[n-1].Text == "}" {
		body = body[1 : n-1]
		semis := 0
		clex.TopPuncts(body, tkPunct, func(_ int, text string) {
			if text == ";" {
				semis++
			}
		})
		if semis == 1 && body[len(body)-1].Text == ";" {
			body = body[:len(body)-1]
		}
	}
	for k := 0; k+1 < len(body); k++ {
		if body[k].Kind == tkIdent && body[k+1].Kind == tkPunct && body[k+1].Text == "(" {
			return joinTokens(body)
		}
	}
	return ""
}

// verify reads Mockito's verify(mock[, mode]).method(args) and MockedStatic's
// mocked.verify(() -> Type.method(args)[, mode]) (or Type::method).
func (b *bodyScanner) verify(a testscan.Assertion, i int, args [][]token) testscan.Assertion {
	if len(args) > 0 {
		a.Subject = joinTokens(args[0])
	}
	if b.staticVerify(i) && len(args) > 0 {
		a.Subject = b.at(i - 2).Text
		a.Expected = verification(args[0])
		if a.Expected == "" {
			a.Strength = testscan.Trivial
			return a
		}
		a.Strength = testscan.Strong
		if len(args) > 1 {
			verifyMode(&a, args[1])
		}
		return a
	}
	c := b.closeOf(i + 1)
	if !b.is(c+1, ".") || b.at(c+2).Kind != tkIdent || !b.is(c+3, "(") {
		return a // verify without a call: a helper, or an incomplete chain
	}
	a.Strength = testscan.Strong
	a.Expected = joinTokens(b.toks[c+2 : min(b.closeOf(c+3)+1, len(b.toks))])
	if len(args) > 1 {
		verifyMode(&a, args[1])
	}
	return a
}

// bddVerify reads BDDMockito's spelling of a verification at i:
// then(mock).should([mode]).method(args) is verify(mock[, mode]).method(args),
// then(mock).shouldHaveNoMoreInteractions() is verifyNoMoreInteractions(mock).
// AssertJ's then(actual).isEqualTo(x) is not read here (no should).
func (b *bodyScanner) bddVerify(i int) []testscan.Assertion {
	if !b.is(i+1, "(") {
		return nil
	}
	c := b.closeOf(i + 1)
	if !b.is(c+1, ".") || b.at(c+2).Kind != tkIdent || !b.is(c+3, "(") {
		return nil
	}
	a := testscan.Assertion{Line: b.toks[i].Line, Kind: "verify", Strength: testscan.Medium}
	if args := b.args(i + 1); len(args) > 0 {
		a.Subject = joinTokens(args[0])
	}
	switch b.at(c + 2).Text {
	case "shouldHaveNoMoreInteractions", "shouldHaveNoInteractions", "shouldHaveZeroInteractions":
		a.Kind = "verifyNoMoreInteractions"
		return []testscan.Assertion{a}
	case "should":
	default:
		return nil
	}
	s := b.closeOf(c + 3)
	if !b.is(s+1, ".") || b.at(s+2).Kind != tkIdent || !b.is(s+3, "(") {
		return []testscan.Assertion{a} // should() without a call: an incomplete chain
	}
	a.Strength = testscan.Strong
	a.Expected = joinTokens(b.toks[s+2 : min(b.closeOf(s+3)+1, len(b.toks))])
	if mode := b.args(c + 3); len(mode) > 0 {
		verifyMode(&a, mode[0])
	}
	return []testscan.Assertion{a}
}

// verifyMode grades a verification mode and writes it into the check, so
// that a mode changed on the same call is a changed check: times(1) is the
// default and exact, times(n) keeps the check exact on another count,
// never(), times(0) and atMost(0) verify that the call did not happen (the
// opposite sense of a plain verify, Negated), the other bounds loosen it,
// and atLeast(0) checks nothing.
func verifyMode(a *testscan.Assertion, mode []token) {
	if len(mode) > 2 && mode[0].Text == "Mockito" && mode[1].Text == "." {
		mode = mode[2:]
	}
	if len(mode) == 0 {
		return
	}
	zero := len(mode) == 4 && mode[1].Text == "(" && mode[2].Text == "0" && mode[3].Text == ")"
	one := len(mode) == 4 && mode[1].Text == "(" && mode[2].Text == "1" && mode[3].Text == ")"
	switch name := mode[0].Text; {
	case name == "never" || zero && (name == "times" || name == "atMost"):
		a.Negated = true
		a.Strength = testscan.Medium
		return
	case name == "times" && one:
		return
	case name == "atLeast" && zero:
		a.Strength = testscan.Trivial
	case name == "atLeast", name == "atMost", name == "atLeastOnce", name == "atMostOnce":
		a.Strength = testscan.Medium
	}
	a.Expected += ", " + joinTokens(mode)
}
