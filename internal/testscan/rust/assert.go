package rust

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// macroKind groups assertion macros by how their arguments are read.
type macroKind int

const (
	mkEq          macroKind = iota + 1 // subject, expected
	mkNe                               // subject, unexpected
	mkCond                             // a boolean condition
	mkMatches                          // subject, pattern
	mkApprox                           // subject, expected, tolerance settings
	mkApproxNe                         // subject, unexpected, tolerance settings
	mkSnapshot                         // insta snapshots
	mkPresence                         // claims: assert_ok!, assert_some!
	mkPanic                            // panic!, unreachable!: a failure path
	mkOtherAssert                      // any other assert* macro
)

// assertMacros maps assertion macro names to how they are read.
var assertMacros = map[string]macroKind{
	"assert_eq": mkEq, "debug_assert_eq": mkEq, "prop_assert_eq": mkEq,
	"assert_ne": mkNe, "debug_assert_ne": mkNe, "prop_assert_ne": mkNe,
	"assert": mkCond, "debug_assert": mkCond, "prop_assert": mkCond,
	"assert_matches": mkMatches, "debug_assert_matches": mkMatches,
	"assert_relative_eq": mkApprox, "assert_abs_diff_eq": mkApprox, "assert_ulps_eq": mkApprox,
	"assert_approx_eq": mkApprox, "assert_float_eq": mkApprox,
	"assert_relative_ne": mkApproxNe, "assert_abs_diff_ne": mkApproxNe, "assert_ulps_ne": mkApproxNe,
	"assert_float_ne": mkApproxNe,
	"assert_ok":       mkPresence, "assert_some": mkPresence, "assert_err": mkPresence, "assert_none": mkPresence,
	"panic": mkPanic, "unreachable": mkPanic,
}

func macroKindOf(name string) (macroKind, bool) {
	if k, ok := assertMacros[name]; ok {
		return k, true
	}
	switch {
	case strings.HasPrefix(name, "assert_") && strings.HasSuffix(name, "snapshot"):
		return mkSnapshot, true
	case strings.HasPrefix(name, "assert_") && strings.HasSuffix(name, "_eq"):
		return mkEq, true
	case strings.HasPrefix(name, "assert_") && strings.HasSuffix(name, "_ne"):
		return mkNe, true
	case strings.HasPrefix(name, "assert_"):
		return mkOtherAssert, true
	}
	return 0, false
}

// isAssertMacro reports whether name is an assertion macro other than panic!.
func isAssertMacro(name string) bool {
	k, ok := macroKindOf(name)
	return ok && k != mkPanic
}

// classifyMacro reads the assertion macro named by t with the argument tokens args.
func classifyMacro(t token, args []token) (testscan.Assertion, bool) {
	kind, ok := macroKindOf(t.Text)
	if !ok {
		return testscan.Assertion{}, false
	}
	a := testscan.Assertion{Line: t.Line, Kind: t.Text + "!", Strength: testscan.Medium}
	parts := splitArgs(args)
	arg := func(k int) []token {
		if k < len(parts) {
			return parts[k]
		}
		return nil
	}
	switch kind {
	case mkEq, mkApprox:
		a.Strength = testscan.Strong
		a.Subject, a.Expected = joinTokens(arg(0)), joinTokens(arg(1))
		if kind == mkApprox && len(parts) > 2 {
			var tol []string
			for _, p := range parts[2:] {
				tol = append(tol, joinTokens(p))
			}
			a.Tolerance = strings.Join(tol, ",")
		}
		if isLiteral(arg(0)) && isLiteral(arg(1)) && a.Subject == a.Expected {
			a.Strength = testscan.Trivial
		}
	case mkNe, mkApproxNe:
		a.Negated = true
		a.Subject, a.Expected = joinTokens(arg(0)), joinTokens(arg(1))
	case mkCond:
		condition(&a, arg(0))
	case mkMatches:
		a.Subject, a.Expected = joinTokens(arg(0)), joinTokens(arg(1))
	case mkSnapshot:
		a.Strength = testscan.Strong
		subj := arg(0)
		if len(parts) >= 2 && len(subj) == 1 && subj[0].Kind == tkString && !isInline(parts[1]) {
			subj = parts[1] // assert_snapshot!("name", value)
		}
		a.Subject = joinTokens(subj)
		for _, p := range parts[min(1, len(parts)):] {
			if isInline(p) {
				a.Expected = joinTokens(p[1:])
			}
		}
	case mkPresence:
		a.Strength = testscan.Weak
		a.Subject = joinTokens(arg(0))
	case mkPanic:
	case mkOtherAssert:
		a.Subject, a.Expected = joinTokens(arg(0)), joinTokens(arg(1))
	}
	return a, true
}

// isInline reports an insta inline snapshot argument: @"..." or @r#"..."#.
func isInline(p []token) bool {
	return len(p) == 2 && p[0].Text == "@" && p[1].Kind == tkString
}

// condition reads the condition of assert!: a == b is strong, a != b a negated
// check, !x a weak negated one, matches!(..) and comparisons a property,
// anything else a truthiness check; assert!(true) is trivial.
func condition(a *testscan.Assertion, cond []token) {
	a.Subject = joinTokens(cond)
	a.Strength = testscan.Weak
	if len(cond) == 1 && cond[0].Kind == tkIdent && cond[0].Text == "true" {
		a.Strength = testscan.Trivial
		return
	}
	eq, cmp, logical := -1, -1, false
	clex.TopPuncts(cond, tkPunct, func(k int, text string) {
		switch text {
		case "==", "!=":
			if eq < 0 {
				eq = k
			}
		case "<=", ">=":
			cmp = k
		case "<", ">":
			if k > 0 && cond[k-1].Text != "::" && (k+1 >= len(cond) || cond[k+1].Text != "::") {
				cmp = k
			}
		case "&&", "||":
			logical = true
		}
	})
	switch {
	case logical:
		a.Strength = testscan.Medium
	case eq >= 0:
		a.Subject, a.Expected = joinTokens(cond[:eq]), joinTokens(cond[eq+1:])
		if cond[eq].Text == "!=" {
			a.Negated = true
			a.Strength = testscan.Medium
		} else {
			a.Strength = testscan.Strong
			if isLiteral(cond[:eq]) && isLiteral(cond[eq+1:]) && a.Subject == a.Expected {
				a.Strength = testscan.Trivial
			}
		}
	case cmp >= 0:
		a.Strength = testscan.Medium
	case len(cond) > 0 && cond[0].Text == "!" && cond[0].Kind == tkPunct:
		a.Negated = true
		a.Subject = joinTokens(cond[1:])
	case len(cond) > 2 && cond[0].Text == "matches" && cond[1].Text == "!":
		a.Strength = testscan.Medium
		if len(cond) > 3 {
			parts := splitArgs(cond[3 : len(cond)-1])
			if len(parts) > 0 {
				a.Subject = joinTokens(parts[0])
			}
			if len(parts) > 1 {
				a.Expected = joinTokens(parts[1])
			}
		}
	default:
		// The outermost call decides: x.contains(y) checks a property.
		if m := outerMethod(cond); m == "contains" || m == "starts_with" || m == "ends_with" || m == "contains_key" {
			a.Strength = testscan.Medium
		}
	}
}

// outerMethod returns the name of the method whose call ends the expression:
// "contains" for a.b().contains(&c).
func outerMethod(expr []token) string {
	n := len(expr)
	if n < 4 || expr[n-1].Text != ")" {
		return ""
	}
	depth := 0
	for k := n - 1; k >= 2; k-- {
		switch expr[k].Text {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			depth--
			if depth == 0 {
				if expr[k-1].Kind == tkIdent && expr[k-2].Text == "." {
					return expr[k-1].Text
				}
				return ""
			}
		}
	}
	return ""
}
