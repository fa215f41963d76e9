package java

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// bodyScan is what scanBody found in one test body.
type bodyScan struct {
	assertions []testscan.Assertion
	skip       *testscan.Skip
	calls      []testscan.Call // see callSite
	// detached are the calls made only on another thread (see
	// offThreadSpans).
	detached []testscan.Call
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
	// The branches a check sits in (testscan.Assertion.Arms): per open
	// brace, the arm it opens (nil for none), and per depth, the arm of the
	// block closed last there, which an else continues.
	var arms, closed []*testscan.Arm
	parens := 0
	unused := unusedLambdas(toks, match, open, close)
	off := offThreadSpans(toks, match, open, close)
	deadAfter := -1 // the end of a return that always runs, after a check
	for i := open + 1; i < close; i++ {
		t := toks[i]
		if t.Kind == tkPunct {
			switch t.Text {
			case "(":
				parens++
			case ")":
				parens--
			case "{":
				var prev *testscan.Arm
				if d := len(blocks); d < len(closed) {
					prev = closed[d]
				}
				blocks = append(blocks, b.isIfBlock(i))
				arms = append(arms, b.blockArm(i, prev))
			case "}":
				if d := len(blocks) - 1; d >= 0 {
					for len(closed) <= d {
						closed = append(closed, nil)
					}
					closed[d] = arms[d]
					closed = closed[:d+1]
					blocks, arms = blocks[:d], arms[:d]
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
		if t.Text == "return" && firstAssert >= 0 && deadAfter < 0 && b.alwaysReturns(i, parens, len(blocks)) {
			// `if (true) return;` after a check (javac rejects a bare
			// return before more statements): the checks after it never run.
			for k := i + 1; k < close; k++ {
				if b.is(k, ";") {
					deadAfter = k
					break
				}
			}
		}
		if !b.is(i+1, "(") {
			continue
		}
		sp := inOffThread(off, i)
		if sp == nil || strings.HasPrefix(sp.cond, testscan.Expecting) {
			calls = b.callSite(calls, i)
		} else {
			out.detached = b.callSite(out.detached, i)
		}
		if !b.rootCall(i) {
			continue
		}
		if assumptionNames[t.Text] && parens == 0 && len(blocks) == 0 && assume == nil {
			args := b.args(i + 1)
			assume = &testscan.Skip{Kind: testscan.SkipConditional, Reason: messageArg(args), Line: t.Line}
			// assumeTrue(System.getenv("CI") == null): the environment
			// decides whether the test runs where the gate runs.
			for _, a := range args {
				for _, tk := range a {
					if tk.Kind == tkIdent && tk.Text == "getenv" {
						assume.EnvGuard = true
					}
				}
			}
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
		if testscan.InSpan(unused, i) || deadAfter >= 0 && i > deadAfter {
			found = nil // in a lambda nothing runs: `Runnable check = () -> {...};` never used
		}
		if len(found) > 0 && firstAssert < 0 {
			firstAssert = i
		}
		if len(found) > 0 {
			armed := testscan.OpenArms(arms)
			if sp != nil {
				armed = append([]testscan.Arm{offThreadArm(sp)}, armed...)
			}
			if a := b.bracelessArm(i); a != nil {
				armed = append(armed, *a)
			}
			for k := range found {
				found[k].Arms = armed
			}
		}
		out.assertions = append(out.assertions, found...)
	}
	if len(out.assertions) > 0 {
		testscan.ThroughLocals(out.assertions, b.localValues(open, close))
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

// blockArm returns the arm the block opened at i is: an if's (arm 0 of its
// own conditional), an else's or else if's (the next arm of the chain of
// prev, the if or else block closed just before at the same depth), or a
// try block's whose catch drops a failed assertion; nil for any other.
func (b *bodyScanner) blockArm(i int, prev *testscan.Arm) *testscan.Arm {
	if p := b.at(i - 1); p.Kind == tkIdent && p.Text == "else" {
		if prev != nil {
			return &testscan.Arm{At: prev.At, Cond: prev.Cond, Index: prev.Index + 1}
		}
		return &testscan.Arm{At: i, Index: 1}
	}
	if b.is(i-1, ")") && i-1 < len(b.match) {
		o := b.match[i-1]
		if kw := b.at(o - 1); o > 0 && kw.Kind == tkIdent && kw.Text == "if" {
			if e := b.at(o - 2); e.Kind == tkIdent && e.Text == "else" && prev != nil {
				return &testscan.Arm{At: prev.At, Cond: prev.Cond, Index: prev.Index + 1}
			}
			return &testscan.Arm{At: o - 1, Cond: b.ifCond(o-1, i)}
		}
		if kw := b.at(o - 1); o > 0 && kw.Kind == tkIdent && kw.Text == "try" {
			return b.droppingCatch(i) // try-with-resources
		}
		if kw := b.at(o - 1); o > 0 && kw.Kind == tkIdent && (kw.Text == "for" || kw.Text == "while") {
			// A loop is no branch, but one that never runs (`for (int i
			// = 0; i < 0; i++)`, `while (false)`) is one that never holds.
			if cond := joinTokens(b.toks[o-1 : i]); testscan.NeverLoops(cond) {
				return &testscan.Arm{At: o - 1, Cond: cond}
			}
		}
	}
	if p := b.at(i - 1); p.Kind == tkIdent && p.Text == "try" {
		return b.droppingCatch(i)
	}
	return nil
}

// droppingCatch returns, for the try block opened at i, the arm of a catch
// clause after it that catches a failed assertion (AssertionError, its
// AssertionFailedError, Error or Throwable) and drops it: its block neither
// throws nor fails nor asserts. nil when no clause does.
func (b *bodyScanner) droppingCatch(i int) *testscan.Arm {
	end := b.closeOf(i)
	for c := end + 1; c < b.end; {
		kw := b.at(c)
		if kw.Kind != tkIdent || kw.Text != "catch" || !b.is(c+1, "(") {
			return nil
		}
		pc := b.closeOf(c + 1)
		if !b.is(pc+1, "{") {
			return nil
		}
		bc := b.closeOf(pc + 1)
		catches := false
		for k := c + 2; k < pc; k++ {
			switch b.at(k).Text {
			case "AssertionError", "AssertionFailedError", "Error", "Throwable":
				catches = true
			}
		}
		reacts, kept := false, false
		for k := pc + 2; k < bc; k++ {
			if t := b.at(k); t.Kind == tkIdent && (t.Text == "throw" || t.Text == "fail" || strings.HasPrefix(t.Text, "assert")) {
				reacts = true
			}
			kept = kept || b.is(k, "=")
		}
		if catches && !reacts {
			how := "swallowed by "
			if kept {
				how = "captured by " // stored for a check later on
			}
			return &testscan.Arm{At: i, Cond: how + joinTokens(b.toks[c:pc+1])}
		}
		c = bc + 1
	}
	return nil
}

// bracelessArm returns the arm of a check that is the whole braceless body
// of an if (`if (c) assertEquals(..);`), the root call at i; nil when it is
// not one.
func (b *bodyScanner) bracelessArm(i int) *testscan.Arm {
	s := i
	for s >= 2 && b.is(s-1, ".") && b.at(s-2).Kind == tkIdent {
		s -= 2
	}
	if !b.is(s-1, ")") || s-1 >= len(b.match) {
		return nil
	}
	o := b.match[s-1]
	if kw := b.at(o - 1); o > 0 && kw.Kind == tkIdent && kw.Text == "if" {
		return &testscan.Arm{At: o - 1, Cond: b.ifCond(o-1, s)}
	}
	return nil
}

// localValues reads the body's local declarations with a value (`int x =
// expr;`, `var x = expr;`, `final List<T> x = expr;`), for
// testscan.ThroughLocals; a name assigned again counts twice.
func (b *bodyScanner) localValues(open, close int) map[string]*testscan.Local {
	var out map[string]*testscan.Local
	for i := open + 1; i+2 < close; i++ {
		t := b.at(i)
		if t.Kind != tkIdent || !b.is(i+1, "=") {
			continue
		}
		prev := b.at(i - 1)
		declared := prev.Kind == tkIdent && prev.Text != "return" && prev.Text != "new" || b.is(i-1, ">") || b.is(i-1, "]")
		if out == nil {
			out = map[string]*testscan.Local{}
		}
		if l := out[t.Text]; l != nil || !declared {
			if l != nil {
				l.Count++
			}
			continue
		}
		end := i + 2
		for end < close && !b.is(end, ";") {
			if (b.is(end, "(") || b.is(end, "[") || b.is(end, "{")) && end < len(b.match) && b.match[end] > end {
				end = b.match[end]
			}
			end++
		}
		out[t.Text] = &testscan.Local{Value: joinTokens(b.toks[i+2 : end]), Line: t.Line, Count: 1}
	}
	return out
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

// unusedLambdas returns the spans (the braces of their blocks) of the
// block lambdas the body between open and close binds to a local
// (`Runnable check = () -> { ... };`) whose name nothing else in the body
// names: nothing runs or passes them on.
func unusedLambdas(toks []token, match []int, open, close int) [][2]int {
	var out [][2]int
	for _, l := range localLambdas(toks, match, open, close) {
		used := false
		for j := open + 1; j < close && !used; j++ {
			used = j != l.name && toks[j].Kind == tkIdent && toks[j].Text == toks[l.name].Text
		}
		if !used {
			out = append(out, l.block)
		}
	}
	return out
}

// alwaysReturns reports whether the return at i always runs at the body's
// top level: `if (true) return;` there, or the first statement of an
// `if (true) {` block there (depth: the braces open at i).
func (b *bodyScanner) alwaysReturns(i, parens, depth int) bool {
	ifTrue := func(c int) bool { // the ')' at c closes `if (true)`
		o := c - 2
		word := func(k int, w string) bool { t := b.at(k); return t.Kind == tkIdent && t.Text == w }
		return b.is(c, ")") && b.is(o, "(") && word(o+1, "true") && word(o-1, "if")
	}
	switch {
	case parens != 0:
		return false
	case depth == 0:
		return ifTrue(i - 1)
	case depth == 1:
		return b.is(i-1, "{") && ifTrue(i-2)
	}
	return false
}

// ifCond is the text of the if whose tokens run from i to end, a name
// bound once to a literal spelled as that literal (clex.ConstantIf).
func (b *bodyScanner) ifCond(i, end int) string {
	if c := clex.ConstantIf(b.toks[i:end], func() []token { return b.toks }, tkIdent, tkPunct, isLiteralToken); c != "" {
		return c
	}
	return joinTokens(b.toks[i:end])
}

// isLiteralToken reports a single-token literal: a number, a string or
// character, true or false.
func isLiteralToken(t token) bool {
	return t.Kind == tkNumber || t.Kind == tkString || t.Kind == tkChar || t.Kind == tkIdent && (t.Text == "true" || t.Text == "false")
}
