package java

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// An AssertionError thrown on another thread does not fail a JUnit or
// TestNG test: it goes to the thread's uncaught-exception handler (a new
// Thread, an executor's execute), or into a Future nobody reads (submit,
// CompletableFuture.runAsync/supplyAsync without get or join). So the
// checks in the work handed over that way, written in place or as a local
// lambda used only there, are Detached (testscan.Detached), and the calls
// made there are not the test's.

// offThreadSpan is code of a test body whose failure cannot fail the
// test: run only on another thread, or inside a construct that expects or
// catches any failure.
type offThreadSpan struct {
	from, to int    // token indices, exclusive
	cond     string // the arm's condition (testscan.Detached, Inverted or Swallowed and the construct)
	at       int
	// thread marks a span run on another thread: a local lambda named only
	// in it runs there too.
	thread bool
}

// offThreadSpans returns the spans of the body between open and close that
// run only on another thread: the arguments (and an anonymous subclass's
// body) of `new Thread(...)`, and the arguments of execute, and of submit,
// runAsync and supplyAsync when no get( or join( follows them; then the
// blocks of the local lambdas (`Runnable check = () -> {...};`) named only
// inside those spans.
func offThreadSpans(toks []token, match []int, open, close int) []offThreadSpan {
	is := func(k int, s string) bool { return k > open && k < close && toks[k].Text == s }
	var out []offThreadSpan
	for i := open + 1; i+1 < close; i++ {
		t := toks[i]
		if t.Kind != tkIdent || !is(i+1, "(") || match[i+1] <= i+1 || match[i+1] >= close {
			continue
		}
		end := match[i+1]
		span := offThreadSpan{from: i + 1, to: end, at: i, thread: true}
		switch {
		case t.Text == "Thread" && is(i-1, "new"):
			span.cond = testscan.Detached + "new Thread(...)"
			if is(end+1, "{") && match[end+1] > end+1 {
				span.to = match[end+1] // new Thread() { public void run() {...} }
			}
		case t.Text == "execute" && is(i-1, "."):
			span.cond = testscan.Detached + "." + t.Text + "(...)"
		case (t.Text == "submit" || t.Text == "runAsync" || t.Text == "supplyAsync") && is(i-1, "."):
			if futureRead(toks, end, close) {
				continue
			}
			span.cond = testscan.Detached + "." + t.Text + "(...)"
		default:
			how := expectsFailure(toks, i, end, close)
			if how == "" {
				continue
			}
			span.cond, span.thread = how+t.Text+"(...)", false
		}
		out = append(out, span)
	}
	if len(out) == 0 {
		return nil
	}
	// Local lambdas named only in those spans.
	in := func(k int) bool {
		for _, s := range out {
			if s.thread && k > s.from && k < s.to {
				return true
			}
		}
		return false
	}
	for _, l := range localLambdas(toks, match, open, close) {
		named, inside := 0, 0
		for j := open + 1; j < close; j++ {
			if j != l.name && toks[j].Kind == tkIdent && toks[j].Text == toks[l.name].Text {
				named++
				if in(j) {
					inside++
				}
			}
		}
		if named > 0 && named == inside {
			out = append(out, offThreadSpan{from: l.block[0], to: l.block[1], at: l.block[0], cond: testscan.Detached + "new Thread(" + toks[l.name].Text + ")", thread: true})
		}
	}
	return out
}

// futureRead reports whether a future's result is read after the token at
// from: a get( or join( call, or CompletableFuture.allOf / invokeAll.
func futureRead(toks []token, from, close int) bool {
	for k := from + 1; k+1 < close; k++ {
		t := toks[k]
		if t.Kind != tkIdent || toks[k+1].Text != "(" {
			continue
		}
		switch t.Text {
		case "get", "join", "allOf", "invokeAll", "awaitTermination":
			return true
		}
	}
	return false
}

// inOffThread returns the span token i lies in, nil when none.
func inOffThread(spans []offThreadSpan, i int) *offThreadSpan {
	for k, s := range spans {
		if i > s.from && i < s.to {
			return &spans[k]
		}
	}
	return nil
}

// localLambda is a block lambda bound to a local: its name's token and
// its block's braces.
type localLambda struct {
	name  int
	block [2]int
}

// localLambdas returns the block lambdas the body between open and close
// binds to a local (`Runnable check = () -> { ... };`).
func localLambdas(toks []token, match []int, open, close int) []localLambda {
	punct := func(k int, s string) bool {
		return k > open && k < close && toks[k].Kind == tkPunct && toks[k].Text == s
	}
	ident := func(k int) bool { return k > open && k < close && toks[k].Kind == tkIdent }
	var out []localLambda
	for i := open + 1; i+1 < close; i++ {
		if !punct(i, "->") || !punct(i+1, "{") || match[i+1] <= i+1 {
			continue
		}
		k := i - 1
		switch {
		case punct(k, ")") && match[k] >= 0 && match[k] < k:
			k = match[k] - 1
		case ident(k):
			k--
		default:
			continue
		}
		if !punct(k, "=") || !ident(k-1) || !(ident(k-2) || punct(k-2, ">")) {
			continue
		}
		out = append(out, localLambda{name: k - 1, block: [2]int{i + 1, match[i+1]}})
	}
	return out
}

// offThreadArm is the arm of a check in span s.
func offThreadArm(s *offThreadSpan) testscan.Arm {
	return testscan.Arm{At: s.at, Cond: s.cond}
}

// expectsFailure reads the call at i (its arguments closing at end) as one
// that expects its code to fail or catches what it throws, whatever that
// is: assertThrows or expectThrows of AssertionError, AssertionFailedError,
// Error or Throwable (testscan.Inverted), AssertJ's assertThatThrownBy and
// assertThatExceptionOfType(..).isThrownBy unless the statement names only
// other exception types (Inverted), and catchThrowable, catchException
// (testscan.Swallowed); "" for anything else. An expected
// IllegalArgumentException lets a failed check through: the call then
// fails the test.
func expectsFailure(toks []token, i, end, close int) string {
	name := toks[i].Text
	switch name {
	case "assertThrows", "expectThrows", "assertThatThrownBy", "isThrownBy", "catchThrowable", "catchException":
	default:
		return ""
	}
	// The statement: back to the token after the last ';', '{' or '}',
	// forward to the next ';' outside brackets.
	from := i
	for from > 0 && !isPunctAny(toks[from-1], ";", "{", "}") {
		from--
	}
	to := statementEnd(toks, end, close)
	assertion, other := false, false
	for _, t := range toks[from:to] {
		if t.Kind != tkIdent {
			continue
		}
		switch t.Text {
		case "AssertionError", "AssertionFailedError", "Error", "Throwable", "ComparisonFailure", "MultipleFailuresError":
			assertion = true
		default:
			if strings.HasSuffix(t.Text, "Exception") && t.Text != "catchException" {
				other = true
			}
		}
	}
	switch name {
	case "catchThrowable", "catchException":
		if !other || assertion {
			return testscan.Swallowed
		}
		return ""
	case "assertThatThrownBy", "isThrownBy":
		if assertion || !other {
			return testscan.Inverted
		}
	default:
		if assertion {
			return testscan.Inverted
		}
	}
	return testscan.Expecting
}

// statementEnd returns the index of the ';' that ends the statement the
// token at from is in (outside brackets), close when none does.
func statementEnd(toks []token, from, close int) int {
	depth := 0
	for to := from; to < close; to++ {
		switch toks[to].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ";":
			if depth <= 0 {
				return to
			}
		}
	}
	return close
}

func isPunctAny(t token, texts ...string) bool {
	return t.Kind == tkPunct && slices.Contains(texts, t.Text)
}
