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
	for _, s := range body {
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
		default: // try, finally, with, class
			chain = nil
		}
		if arm == nil {
			armedWalk(s.body, arms, fn)
		} else {
			armedWalk(s.body, withArm(arms, *arm), fn)
		}
	}
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
