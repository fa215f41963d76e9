package python

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A check run on another thread cannot fail a Python test: an exception a
// thread raises goes to threading.excepthook (pytest turns it into a
// warning), whether the thread is joined or not. So the checks of a nested
// def used only as a thread's work (threading.Thread(target=check),
// threading.Timer(0.1, check), _thread.start_new_thread(check, ())) and of
// a lambda given as one are Detached (testscan.Detached).

// threadStart is one hand-over of work to a thread in a test body.
type threadStart struct {
	text   string // the call's source, cut: "threading.Thread(target=check)"
	target string // the nested def's name; "" for a lambda
	from   int    // the lines of the call
	to     int
	names  int // the target name's tokens inside the call
	// lambda holds the byte offsets of a lambda's span (from its keyword
	// to the call's closing parenthesis).
	lambda [2]int32
}

// threadStarts finds the thread hand-overs of a body, nested blocks
// included.
func threadStarts(body []*stmt) []threadStart {
	var out []threadStart
	var walk func(ss []*stmt)
	walk = func(ss []*stmt) {
		for _, s := range ss {
			out = append(out, stmtThreadStarts(s.toks)...)
			walk(s.body)
		}
	}
	walk(body)
	return out
}

// stmtThreadStarts reads the calls of Thread, Timer and start_new_thread
// in one statement's tokens.
func stmtThreadStarts(toks []token) []threadStart {
	var out []threadStart
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tkName || toks[i+1].text != "(" || (i > 0 && toks[i-1].text == "def") {
			continue
		}
		var pos int // the positional argument that is the thread's work
		kw := "target"
		switch t.text {
		case "Thread":
			pos = -1
		case "Timer":
			pos, kw = 1, "function"
		case "start_new_thread":
			pos, kw = 0, "function"
		default:
			continue
		}
		end := matchClose(toks, i+1)
		if end < i+2 {
			continue // `Thread(` left open at the end of the statement
		}
		st := threadStart{from: int(t.line), to: toks[end].lastLine()}
		work, keyword := threadWork(toks[i+2:end], pos, kw)
		switch {
		case len(work) == 1 && work[0].kind == tkName:
			st.target = work[0].text
		case len(work) > 0 && work[0].text == "lambda":
			st.lambda = [2]int32{work[0].off, toks[end].off}
		default:
			continue
		}
		what := st.target
		if what == "" {
			what = "lambda: ..."
		}
		name := t.text
		if i >= 2 && toks[i-1].text == "." && toks[i-2].kind == tkName {
			name = toks[i-2].text + "." + name
		}
		switch {
		case keyword:
			st.text = name + "(" + kw + "=" + what + ")"
		case pos == 0:
			st.text = name + "(" + what + ", ...)"
		default:
			st.text = name + "(..., " + what + ")"
		}
		for _, y := range toks[i+2 : end] {
			if st.target != "" && y.kind == tkName && y.text == st.target {
				st.names++
			}
		}
		out = append(out, st)
	}
	return out
}

// detachedRegion is code of a test body that runs only on a thread.
type detachedRegion struct {
	text     string   // the hand-over's source (threadStart.text)
	at       int      // tells the hand-over apart (Arm.At)
	from, to int      // its lines
	offs     [2]int32 // its byte offsets
}

// detachedRegions returns the code of body that runs only on a thread: the
// nested defs the body uses only as a thread's work, and the lambdas given
// as one.
func detachedRegions(body []*stmt) []detachedRegion {
	starts := threadStarts(body)
	if len(starts) == 0 {
		return nil
	}
	uses := map[string]int{} // a name's tokens outside def headers
	var defs []*stmt
	var walk func(ss []*stmt)
	walk = func(ss []*stmt) {
		for _, s := range ss {
			for _, d := range s.decos {
				countNames(d.toks, uses)
			}
			if s.isDef() {
				defs = append(defs, s)
				name := s.defName()
				for k, t := range s.toks {
					if t.kind == tkName && !(t.text == name && k <= 2) {
						uses[t.text]++
					}
				}
			} else {
				countNames(s.toks, uses)
			}
			walk(s.body)
		}
	}
	walk(body)
	threaded := map[string]int{}
	for _, st := range starts {
		threaded[st.target] += st.names
	}
	var out []detachedRegion
	for _, st := range starts {
		if st.target == "" {
			out = append(out, detachedRegion{text: st.text, at: st.from << 12, from: st.from, to: st.to, offs: st.lambda})
			continue
		}
		if uses[st.target] != threaded[st.target] {
			continue // also called, or handed on, elsewhere
		}
		for _, d := range defs {
			if d.defName() == st.target && len(d.toks) > 0 {
				out = append(out, detachedRegion{text: st.text, at: st.from << 12, from: d.line, to: d.endLine,
					offs: [2]int32{d.toks[0].off, lastOff(d)}})
			}
		}
	}
	return out
}

// lastOff is the byte offset of the last token of a statement, its body
// included.
func lastOff(s *stmt) int32 {
	for len(s.body) > 0 {
		s = s.body[len(s.body)-1]
	}
	if len(s.toks) == 0 {
		return 0
	}
	return s.toks[len(s.toks)-1].off
}

// inDetached returns the region a token at byte offset off lies in.
func inDetached(regions []detachedRegion, off int32) *detachedRegion {
	for i, r := range regions {
		if off >= r.offs[0] && off <= r.offs[1] {
			return &regions[i]
		}
	}
	return nil
}

// detachedChecks gives the checks of out that run only on a thread (in a
// detached region of body) a Detached arm.
func detachedChecks(body []*stmt, out []testscan.Assertion) {
	for _, r := range detachedRegions(body) {
		for i := range out {
			if out[i].Line >= r.from && out[i].Line <= r.to {
				arms := make([]testscan.Arm, 0, len(out[i].Arms)+1)
				arms = append(arms, testscan.Arm{At: r.at, Cond: testscan.Detached + r.text})
				out[i].Arms = append(arms, out[i].Arms...)
			}
		}
	}
}

func countNames(toks []token, uses map[string]int) {
	for _, t := range toks {
		if t.kind == tkName {
			uses[t.text]++
		}
	}
}

// threadWork returns the argument of a call (args: the tokens between its
// parentheses) that is the thread's work: the one named kw, else the
// positional one at pos (none when pos < 0). keyword says it was named.
func threadWork(args []token, pos int, kw string) (work []token, keyword bool) {
	var split [][]token
	depth, start := 0, 0
	for j := 0; j <= len(args); j++ {
		if j < len(args) {
			x := args[j]
			switch {
			case isOpener(x):
				depth++
				continue
			case isCloser(x):
				depth--
				continue
			case depth > 0 || x.text != ",":
				continue
			}
		}
		split = append(split, args[start:j])
		start = j + 1
	}
	n := 0
	for _, a := range split {
		if len(a) >= 2 && a[1].text == "=" {
			if a[0].text == kw {
				return a[2:], true
			}
			continue
		}
		if n == pos {
			work = a
		}
		n++
	}
	return work, false
}
