package java

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// stub is a call a test body stubbed with Mockito, from the line it was
// stubbed on: a check of that call afterwards compares the stub's answer
// with itself and reaches no production code.
type stub struct {
	call string // the stubbed call as joinTokens spells it: "Checksum.of(data)", "repo.find(1)"
	// callee is set when the stub's arguments are matchers (any(),
	// anyInt(), eq(x)...): every call of it is stubbed ("Checksum.of").
	callee string
	answer string // what the stub returns: thenReturn's or doReturn's arguments, thenAnswer's or doAnswer's function
	line   int
}

// stubs finds the stubbings in the body between open and close:
// when(mock.m(args)).thenReturn(v) (and thenAnswer),
// mocked.when(() -> Type.m(args)).thenReturn(v) (MockedStatic) and
// doReturn(v).when(mock).m(args) (and doAnswer), and BDDMockito's
// given(mock.m(args)).willReturn(v) and willReturn(v).given(mock).m(args).
// thenThrow, doThrow and thenCallRealMethod stub nothing a check could
// compare with.
func (b *bodyScanner) stubs(open, close int) []stub {
	var out []stub
	for i := open + 1; i < close; i++ {
		t := b.toks[i]
		if t.Kind != tkIdent || t.Text != "when" && t.Text != "given" || !b.is(i+1, "(") {
			continue
		}
		c := b.closeOf(i + 1)
		args := b.args(i + 1)
		if len(args) != 1 || !b.is(c+1, ".") || b.at(c+2).Kind != tkIdent || !b.is(c+3, "(") {
			continue
		}
		var call []token
		answer := ""
		switch next := b.at(c + 2).Text; {
		case next == "thenReturn" || next == "thenAnswer" || next == "willReturn" || next == "willAnswer":
			answer = joinTokens(b.toks[c+4 : b.closeOf(c+3)])
			call = args[0]
			if ref := methodRef(call); ref != "" {
				// MockedStatic's when(Type::m): the call Type.m().
				out = append(out, stub{call: ref, answer: answer, line: t.Line})
				continue
			}
			if len(call) > 3 && call[0].Text == "(" && call[1].Text == ")" && call[2].Text == "->" {
				call = call[3:] // MockedStatic's Verification lambda
			}
		case b.is(i-1, ".") && b.doAnswers(i-2):
			// doReturn(v).when(mock).m(args): the call is mock.m(args).
			answer = joinTokens(b.toks[b.match[i-2]+1 : i-2])
			end := b.closeOf(c + 3)
			call = append(append(append([]token(nil), args[0]...), b.toks[c+1:c+3]...), b.toks[c+3:min(end+1, len(b.toks))]...)
		default:
			continue
		}
		if s, ok := stubOf(call, t.Line); ok {
			s.answer = answer
			out = append(out, s)
		}
	}
	if len(out) > 0 {
		out = append(out, b.stubbedLocals(open, close, out)...)
	}
	return out
}

// stubbedLocals finds the variables the body sets to a stubbed call after
// its stub (long sum = Checksum.of(data);): a check of the variable is a
// check of the stub's answer as much as one of the call.
func (b *bodyScanner) stubbedLocals(open, close int, stubs []stub) []stub {
	var out []stub
	for k := open + 1; k+2 < close; k++ {
		name := b.toks[k]
		if name.Kind != tkIdent || !b.is(k+1, "=") {
			continue
		}
		end := k + 2
		for end < close && !b.is(end, ";") {
			if c := b.closeOf(end); b.at(end).Kind == tkPunct && (b.is(end, "(") || b.is(end, "[") || b.is(end, "{")) && c > end && c < close {
				end = c
			}
			end++
		}
		e := joinTokens(b.toks[k+2 : end])
		for _, s := range stubs {
			if name.Line >= s.line && s.stubs(e) {
				out = append(out, stub{call: name.Text, answer: s.answer, line: name.Line})
				break
			}
		}
	}
	return out
}

// stubs reports whether expression e is a call stub s answers.
func (s stub) stubs(e string) bool {
	return e != "" && (e == s.call || s.callee != "" && strings.HasPrefix(e, s.callee+"(") && closesLast(e, len(s.callee)))
}

// doAnswers reports whether the group closing at k is the argument list
// of doReturn(v) or doAnswer(a) (BDDMockito: willReturn(v), willAnswer(a)),
// optionally qualified (Mockito.doReturn).
func (b *bodyScanner) doAnswers(k int) bool {
	if !b.is(k, ")") || k >= len(b.match) || b.match[k] < 0 || b.match[k] >= k {
		return false
	}
	name := b.at(b.match[k] - 1)
	switch name.Text {
	case "doReturn", "doAnswer", "willReturn", "willAnswer":
		return name.Kind == tkIdent
	}
	return false
}

// stubOf reads a stubbed call: a call (a name, maybe qualified, and its
// argument list) and nothing after it.
func stubOf(call []token, line int) (stub, bool) {
	n := len(call)
	if n < 3 || call[n-1].Text != ")" {
		return stub{}, false
	}
	open := -1
	depth := 0
	for k := n - 1; k >= 0; k-- {
		switch call[k].Text {
		case ")":
			depth++
		case "(":
			depth--
		}
		if depth == 0 {
			open = k
			break
		}
	}
	if open < 1 || call[open-1].Kind != tkIdent {
		return stub{}, false
	}
	s := stub{call: joinTokens(call), line: line}
	for _, a := range splitArgs(call[open+1 : n-1]) {
		if len(a) >= 3 && a[0].Kind == tkIdent && a[1].Text == "(" && argumentMatcher(a[0].Text) ||
			len(a) >= 5 && a[0].Text == "ArgumentMatchers" && a[1].Text == "." && argumentMatcher(a[2].Text) {
			s.callee = joinTokens(call[:open])
			break
		}
	}
	return s, true
}

// argumentMatcher reports whether name is one of Mockito's argument
// matchers: any(), anyInt(), eq(x), argThat(m), isA(T.class)...
func argumentMatcher(name string) bool {
	switch name {
	case "eq", "same", "isA", "argThat", "isNull", "notNull", "isNotNull", "nullable", "refEq",
		"contains", "matches", "startsWith", "endsWith", "intThat", "longThat", "booleanThat":
		return true
	}
	return strings.HasPrefix(name, "any")
}

// unstub rewrites check a, made on line a.Line, when it compares a call
// stubbed before it (its subject or its expected value is the call): the
// value compared is the stub's answer, so that operand becomes the
// answer and the check can no longer fail (a check of a stub, not of the
// code). It reports whether it did.
func unstub(a *testscan.Assertion, stubs []stub) bool {
	if strings.HasPrefix(a.Kind, "verify") {
		return false // a verification of a stubbed call checks that it was made
	}
	for _, s := range stubs {
		if a.Line < s.line {
			continue
		}
		for _, e := range []*string{&a.Subject, &a.Expected} {
			if s.stubs(*e) {
				*e = s.answer
				a.Strength = testscan.Trivial
				return true
			}
		}
	}
	return false
}

// closesLast reports whether the parenthesis opened at e[open] closes at
// the end of e: e is one call, not a call with more after it.
func closesLast(e string, open int) bool {
	depth := 0
	for k := open; k < len(e); k++ {
		switch e[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k == len(e)-1
			}
		}
	}
	return false
}
