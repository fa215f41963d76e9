package java

import (
	"slices"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// bodyScan is what scanBody found in one test body.
type bodyScan struct {
	assertions []testscan.Assertion
	skip       *testscan.Skip
	calls      []testscan.Call // see callSite
}

// assumptionNames are JUnit 4 Assume and JUnit 5 Assumptions calls that abort a
// test when their condition does not hold.
var assumptionNames = map[string]bool{
	"assumeTrue": true, "assumeFalse": true, "assumeThat": true, "assumeNotNull": true,
	"assumeNoException": true,
}

// scanBody finds the assertions of the body between the braces at open and close,
// the assumption or early return that can keep it from running, and its calls.
// scratch is a buffer the calls are gathered in, reused from body to body.
func scanBody(toks []token, match []int, open, close int, testng bool, scratch *[]testscan.Call) bodyScan {
	b := &bodyScanner{toks: toks, match: match, end: close, testng: testng}
	var out bodyScan
	calls := (*scratch)[:0]
	firstAssert := -1
	var earlyReturn, assume *testscan.Skip
	var blocks []bool // per open brace: whether it is the block of an if/else
	parens := 0
	for i := open + 1; i < close; i++ {
		t := toks[i]
		if t.Kind == tkPunct {
			switch t.Text {
			case "(":
				parens++
			case ")":
				parens--
			case "{":
				blocks = append(blocks, b.isIfBlock(i))
			case "}":
				if len(blocks) > 0 {
					blocks = blocks[:len(blocks)-1]
				}
			}
			continue
		}
		topLevel := parens == 0 && (len(blocks) == 0 || len(blocks) == 1 && blocks[0])
		if t.Kind != tkIdent {
			continue
		}
		if t.Text == "return" && topLevel && firstAssert < 0 && earlyReturn == nil && b.is(i+1, ";") {
			earlyReturn = &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: t.Line}
		}
		if !b.is(i+1, "(") {
			continue
		}
		calls = b.callSite(calls, i)
		if !b.rootCall(i) {
			continue
		}
		if assumptionNames[t.Text] && parens == 0 && len(blocks) == 0 && assume == nil {
			args := b.args(i + 1)
			assume = &testscan.Skip{Kind: testscan.SkipConditional, Reason: messageArg(args), Line: t.Line}
			// assumeTrue(false), assumeFalse(true): skipped every time.
			if len(args) > 0 && len(args[0]) == 1 && (t.Text == "assumeTrue" && args[0][0].Text == "false" || t.Text == "assumeFalse" && args[0][0].Text == "true") {
				assume.Kind, assume.Reason = testscan.SkipCall, t.Text+"("+args[0][0].Text+")"
			}
			continue
		}
		if t.Text == "abort" && i > 1 && toks[i-2].Text == "Assumptions" && parens == 0 && len(blocks) == 0 && assume == nil {
			assume = &testscan.Skip{Kind: testscan.SkipCall, Reason: "Assumptions.abort()", Line: t.Line}
			continue
		}
		found := b.call(i)
		if len(found) > 0 && firstAssert < 0 {
			firstAssert = i
		}
		out.assertions = append(out.assertions, found...)
	}
	if len(out.assertions) > 0 {
		if stubs := b.stubs(open, close); len(stubs) > 0 {
			for k := range out.assertions {
				unstub(&out.assertions[k], stubs)
			}
		}
	}
	if len(calls) > 0 {
		out.calls = slices.Clone(calls)
	}
	*scratch = calls[:0]
	if assume != nil {
		out.skip = assume
	} else {
		out.skip = earlyReturn
	}
	return out
}

// bodyScanner holds the token stream while assertions are classified.
type bodyScanner struct {
	toks   []token
	match  []int
	end    int
	testng bool
}

func (b *bodyScanner) at(i int) token {
	if i < 0 || i >= len(b.toks) {
		return token{}
	}
	return b.toks[i]
}

func (b *bodyScanner) is(i int, text string) bool {
	t := b.at(i)
	return t.Text == text && t.Kind == tkPunct
}

// closeOf returns the partner of the opener at i, clamped to the body.
func (b *bodyScanner) closeOf(i int) int {
	if i >= 0 && i < len(b.match) && b.match[i] > i && b.match[i] <= b.end {
		return b.match[i]
	}
	return b.end
}

// args splits the argument list whose '(' is at open.
func (b *bodyScanner) args(open int) [][]token {
	c := b.closeOf(open)
	return splitArgs(b.toks[open+1 : c])
}

// rootCall reports whether the call named at i is a free call or a static call on a
// class (Assertions.assertEquals), not a method of a value or a chain link.
func (b *bodyScanner) rootCall(i int) bool {
	if !b.is(i-1, ".") {
		return !b.is(i-1, "::")
	}
	if b.staticVerify(i) || b.staticNoInteractions(i) {
		return true // mocked.verify(() -> Cleaner.clean(x), times(1)), mocked.verifyNoInteractions()
	}
	q := b.at(i - 2)
	return q.Kind == tkIdent && q.Text != "" && q.Text[0] >= 'A' && q.Text[0] <= 'Z'
}

// isIfBlock reports whether the '{' at i opens the block of an if or else.
func (b *bodyScanner) isIfBlock(i int) bool {
	prev := b.at(i - 1)
	if prev.Kind == tkIdent && prev.Text == "else" {
		return true
	}
	if !b.is(i-1, ")") || i-1 >= len(b.match) {
		return false
	}
	o := b.match[i-1]
	kw := b.at(o - 1)
	return o > 0 && kw.Kind == tkIdent && kw.Text == "if"
}

// messageArg returns the message of an assumption: a string literal given as the
// last argument (JUnit 5) or the first (JUnit 4).
func messageArg(args [][]token) string {
	if len(args) < 2 {
		return ""
	}
	for _, arg := range [][]token{args[len(args)-1], args[0]} {
		if len(arg) == 1 && arg[0].Kind == tkString {
			return clex.Unquote(arg[0].Text)
		}
	}
	return ""
}
