package python

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// armedWalk calls fn for body's statements and their bodies, depth first in
// source order, with the arms (testscan.Arm) each statement sits in below
// body, outermost first: the arms of an if/elif/else chain (numbered in
// order), of a match's cases, and the bodies of loops and nested defs.
// The handlers and else of a try, and a loop's else, get an arm with no
// Cond, which matches nothing.
func armedWalk(body []*stmt, arms []testscan.Arm, fn func(s *stmt, arms []testscan.Arm)) {
	var chain *testscan.Arm // the arm of the last if/elif of an open chain
	for si, s := range body {
		fn(s, arms)
		if !s.header {
			chain = nil
			continue
		}
		at := s.line<<12 | int(s.col)&0xfff
		var arm *testscan.Arm
		switch kw := s.keyword(); {
		case kw == "if":
			chain = &testscan.Arm{At: at, Cond: headerText(s)}
			arm = chain
		case (kw == "elif" || kw == "else") && chain != nil:
			next := *chain
			next.Index++
			chain, arm = &next, &next
			if kw == "else" {
				chain = nil
			}
		case kw == "for" || kw == "while":
			chain = nil
			arm = &testscan.Arm{At: at, Cond: headerText(s)}
		case kw == "def":
			chain = nil
			arm = &testscan.Arm{At: at, Cond: "def"}
		case kw == "match":
			chain = nil
			cond := headerText(s)
			for i, c := range s.body {
				fn(c, arms)
				armedWalk(c.body, withArm(arms, testscan.Arm{At: at, Cond: cond, Index: i}), fn)
			}
			continue
		case kw == "except" || kw == "else":
			chain = nil
			arm = &testscan.Arm{At: at}
		case kw == "try":
			// A try whose handler drops a failed check: the checks of its
			// body cannot fail the test.
			chain = nil
			if h, kept := droppingHandler(body[si+1:]); h != nil {
				how := testscan.Swallowed
				if kept {
					how = "captured by "
				}
				arm = &testscan.Arm{At: at, Cond: how + headerText(h)}
			}
		case kw == "with":
			// with suppress(AssertionError): drops a failed check; with
			// pytest.raises(AssertionError): expects one.
			chain = nil
			if how := catchingWith(s); how != "" {
				arm = &testscan.Arm{At: at, Cond: how + headerText(s)}
			}
		default: // finally, class
			chain = nil
		}
		if arm == nil {
			armedWalk(s.body, arms, fn)
		} else {
			armedWalk(s.body, withArm(arms, *arm), fn)
		}
	}
}

// droppingHandler returns the first except clause among the handlers that
// follow a try (rest: the statements after it) that catches a failed
// assert (a bare except, Exception, BaseException or AssertionError, alone
// or in a tuple) and drops it: its body neither raises nor checks nor
// fails. nil when no handler does. kept is set when the handler stores
// something in a variable (the caught error, for a check later on): the
// failure is captured rather than dropped.
func droppingHandler(rest []*stmt) (h *stmt, kept bool) {
	for _, h := range rest {
		if !h.header || h.keyword() != "except" {
			return nil, false
		}
		catches := len(h.toks) == 1
		for _, t := range h.toks[1:] {
			if t.text == "as" {
				break
			}
			switch t.text {
			case "Exception", "BaseException", "AssertionError":
				catches = true
			}
		}
		if catches && !reacts(h.body) {
			return h, assigns(h.body)
		}
	}
	return nil, false
}

// assigns reports whether a block assigns a variable anywhere in it.
func assigns(body []*stmt) bool {
	for _, s := range body {
		for _, t := range s.toks {
			if t.kind == tkOp && t.text == "=" {
				return true
			}
		}
		if assigns(s.body) {
			return true
		}
	}
	return false
}

// reacts reports whether a handler's body raises, asserts or fails the test
// (pytest.fail, self.fail) anywhere in it.
func reacts(body []*stmt) bool {
	for _, s := range body {
		for _, t := range s.toks {
			if t.text == "raise" || strings.HasPrefix(t.text, "assert") || strings.HasPrefix(t.text, "fail") {
				return true
			}
		}
		if reacts(s.body) {
			return true
		}
	}
	return false
}

// withArm is arms and then a, in a slice of its own.
func withArm(arms []testscan.Arm, a testscan.Arm) []testscan.Arm {
	out := make([]testscan.Arm, len(arms), len(arms)+1)
	copy(out, arms)
	return append(out, a)
}

// headerText is the normalized text of a header before its colon.
func headerText(s *stmt) string {
	parts := make([]string, len(s.toks))
	for i, t := range s.toks {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}

// catchingWith reads a with statement's context managers: one that
// catches a failed assert (AssertionError, Exception or BaseException
// among its arguments) and drops it (suppress) gives testscan.Swallowed;
// one that expects it (raises, assertRaises, assertRaisesRegex) gives
// testscan.Inverted; "" otherwise.
func catchingWith(s *stmt) string {
	toks := s.toks
	for i := 1; i+1 < len(toks); i++ {
		if toks[i].kind != tkName || toks[i+1].text != "(" {
			continue
		}
		var how string
		switch toks[i].text {
		case "suppress":
			how = testscan.Swallowed
		case "raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp":
			how = testscan.Inverted
		default:
			continue
		}
		end := matchClose(toks, i+1)
		for _, t := range toks[i+2 : end] {
			switch t.text {
			case "AssertionError", "Exception", "BaseException":
				return how
			}
		}
		if how == testscan.Inverted {
			return testscan.Expecting
		}
	}
	return ""
}
