package rust

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// bodyScan is what scanBody found in one test body.
type bodyScan struct {
	assertions []testscan.Assertion
	skip       *testscan.Skip
}

// scanBody finds the assertion macros of the body between the braces at open and
// close, and a return before the first of them at the top level of the body
// (directly, or inside a top-level if block).
func scanBody(toks []token, match []int, open, close int) bodyScan {
	var out bodyScan
	parens := 0
	var blocks []bool // per open brace: whether it is the block of an if/else
	pendingIf, pendingDepth, pendingParens := false, 0, 0
	firstAssert := false
	for i := open + 1; i < close; i++ {
		t := toks[i]
		if t.kind == tkPunct {
			switch t.text {
			case "(", "[":
				parens++
			case ")", "]":
				parens--
			case "{":
				isIf := pendingIf && pendingDepth == len(blocks) && pendingParens == parens
				if isIf {
					pendingIf = false
				}
				blocks = append(blocks, isIf)
			case "}":
				if len(blocks) > 0 {
					blocks = blocks[:len(blocks)-1]
				}
			}
			continue
		}
		if t.kind != tkIdent {
			continue
		}
		switch t.text {
		case "if", "else":
			pendingIf, pendingDepth, pendingParens = true, len(blocks), parens
		case "return":
			topLevel := parens == 0 && (len(blocks) == 0 || len(blocks) == 1 && blocks[0])
			if topLevel && !firstAssert && out.skip == nil {
				out.skip = &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: t.line}
			}
		}
		if i+2 < len(toks) && toks[i+1].text == "!" && toks[i+1].kind == tkPunct && isGroupOpen(toks[i+2]) {
			c := match[i+2]
			if c <= i+2 || c > close {
				c = close
			}
			if a, ok := classifyMacro(t, toks[i+3:c]); ok {
				out.assertions = append(out.assertions, a)
				firstAssert = true
			}
		}
	}
	return out
}

func isGroupOpen(t token) bool {
	return t.kind == tkPunct && (t.text == "(" || t.text == "[" || t.text == "{")
}
