package python

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// constantArms respells, in the arms of a test's checks, a condition that
// is a name (or `not` a name) bound once to a literal, at the module's top
// level or in the test, as that literal with the name in a comment (`if
// False /* SLOW */`), so that testscan.NeverHolds folds it. A name written
// anywhere else (reassigned, a loop or with target, global, a parameter of
// the test) is not a constant.
func constantArms(root, def *stmt, out []testscan.Assertion) {
	cache := map[string]string{}
	for i := range out {
		var arms []testscan.Arm
		for j, a := range out[i].Arms {
			kw, rest, ok := strings.Cut(a.Cond, " ")
			if !ok || kw != "if" && kw != "elif" {
				continue
			}
			neg := ""
			if r, isNot := strings.CutPrefix(rest, "not "); isNot {
				neg, rest = "not ", r
			}
			if !isIdent(rest) {
				continue
			}
			lit, seen := cache[rest]
			if !seen {
				lit = constantOf(root, def, rest)
				cache[rest] = lit
			}
			if lit == "" {
				continue
			}
			if arms == nil {
				arms = append([]testscan.Arm(nil), out[i].Arms...)
			}
			arms[j].Cond = kw + " " + neg + lit + " /* " + rest + " */"
		}
		if arms != nil {
			out[i].Arms = arms
		}
	}
}

func isIdent(s string) bool {
	if s == "" || s == "True" || s == "False" || s == "None" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	return true
}

// constantOf returns the literal name is bound to once, at the module's top
// level or in the test def, "" when it is bound otherwise or more than once.
func constantOf(root, def *stmt, name string) string {
	lit, bound := "", 0
	read := func(s *stmt) {
		toks := s.toks
		for k, t := range toks {
			if t.kind != tkName || t.text != name {
				continue
			}
			prev := ""
			if k > 0 {
				prev = toks[k-1].text
			}
			next := ""
			if k+1 < len(toks) {
				next = toks[k+1].text
			}
			switch {
			case k == 0 && next == "=" && len(toks) == 3 && (toks[2].kind == tkNumber || toks[2].kind == tkString || toks[2].text == "True" || toks[2].text == "False" || toks[2].text == "None"):
				bound++
				lit = toks[2].text
			case next == "=" || len(next) == 2 && next[1] == '=' && next != "==" && next != "!=" && next != "<=" && next != ">=" || next == ":=":
				bound += 2
			case prev == "for" || prev == "as" || prev == "global" || prev == "nonlocal" || prev == "import" || prev == "def" || prev == "class":
				bound += 2
			}
		}
	}
	for _, s := range root.body {
		if !s.header {
			read(s)
		}
	}
	for _, t := range def.toks {
		if t.kind == tkName && t.text == name {
			bound += 2 // a parameter (a fixture) of the test
		}
	}
	walk(def.body, func(s *stmt) bool {
		read(s)
		return true
	})
	if bound != 1 {
		return ""
	}
	return lit
}
