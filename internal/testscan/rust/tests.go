package rust

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// testAttrs mark a function as a test by their full path; any path whose last
// segment is "test" (tokio::test, async_std::test, sqlx::test) does too.
var testAttrs = map[string]bool{
	"rstest": true, "quickcheck": true, "proptest": true, "wasm_bindgen_test": true,
	"test_case": true, "test_case::test_case": true, "rstest::rstest": true,
	"quickcheck_macros::quickcheck": true, "test_strategy::proptest": true,
}

func isTestAttr(a attr) bool {
	return testAttrs[a.path] || a.path == "test" || strings.HasSuffix(a.path, "::test")
}

// isTest reports whether f is a test function: it has a test attribute or was
// declared inside quickcheck! { ... }.
func (f *fnDecl) isTest() bool {
	if f.quick {
		return true
	}
	for _, a := range f.attrs {
		if isTestAttr(a) {
			return true
		}
	}
	return false
}

// tests turns the parsed functions into test cases, expanding test_case and
// rstest cases.
func (p *parser) tests(comments []comment) []testscan.TestCase {
	var out []testscan.TestCase
	seen := map[string]int{}
	add := func(tc testscan.TestCase) {
		if n := seen[tc.ID]; n > 0 {
			seen[tc.ID] = n + 1
			// A duplicate (cfg'd twins): number it, keeping a dynamic id's "*" last.
			tc.ID = strings.TrimSuffix(tc.ID, "*") + "#" + strconv.Itoa(n+1)
			if tc.Dynamic {
				tc.ID += "*"
			}
		} else {
			seen[tc.ID] = 1
		}
		out = append(out, tc)
	}
	for _, f := range p.fns {
		if !f.isTest() {
			continue
		}
		body := p.toks[f.bodyOpen+1 : f.bodyClose]
		base := testscan.TestCase{
			ID: join(f.mod.path, f.name), Name: f.name, Line: f.line, EndLine: f.endLine,
			BodyTokens: len(body),
		}
		if base.EndLine < base.Line {
			base.EndLine = base.Line
		}
		base.Assertions = attrAssertions(f.attrs)
		if len(base.Assertions) > 0 && panicsUnconditionally(body, clex.Unquote(base.Assertions[0].Expected)) {
			// #[should_panic] over a body that panics by itself (with the
			// expected message) passes whatever the code under test does.
			base.Assertions[0].Strength = testscan.Trivial
		}
		scan := scanBody(p.toks, p.match, f.bodyOpen, f.bodyClose, &p.callBuf, false, p.asyncFns())
		checks := p.dropLocal(scan.assertions)
		if len(base.Assertions) > 0 && anyPanic(base.Assertions[0]) {
			// #[should_panic] with no expected message (or one an assert's
			// failure prints): the test passes when one of its checks
			// fails.
			arm := testscan.Arm{At: f.line, Cond: testscan.Inverted + "#[should_panic]"}
			for k := range checks {
				checks[k].Arms = append([]testscan.Arm{arm}, checks[k].Arms...)
			}
		}
		base.Assertions = append(base.Assertions, checks...)
		base.Calls = scan.calls
		base.Detached = testscan.OnlyDetached(scan.detached, scan.calls)
		if fx := p.fixtureCalls(nil, f); len(fx) > 0 {
			for _, c := range scan.calls {
				fx = testscan.AddCalls(fx, c.Name, c.Sites)
			}
			base.Calls = fx
		}
		base.Skip = attrSkip(f.attrs)
		if base.Skip == nil {
			base.Skip = f.mod.skip
		}
		if base.Skip == nil {
			base.Skip = scan.skip
		}
		base.CommentedAssertions = commentedAssertions(comments, f.bodyOpen, f.bodyClose)
		cs := cases(f)
		if len(cs) == 0 {
			base.Fingerprint = fingerprint(body, f.name)
			base.Literals = literals(body)
			add(base)
			continue
		}
		dynamicDone := false
		for _, c := range cs {
			tc := base
			tc.Assertions = append(append([]testscan.Assertion(nil), base.Assertions...), c.assertions...)
			input := append(append([]token(nil), c.args...), body...)
			tc.Fingerprint = fingerprint(input, f.name)
			tc.Literals = literals(input)
			tc.Line = c.line
			if c.skip != nil && tc.Skip == nil {
				tc.Skip = c.skip
			}
			if c.name == "" {
				if dynamicDone {
					continue // unnamed cases share one dynamic id
				}
				dynamicDone = true
				tc.ID, tc.Name, tc.Dynamic = base.ID+"::*", "*", true
				tc.Line = f.line
				tc.Fingerprint = fingerprint(body, f.name)
				tc.Literals = literals(body)
			} else {
				tc.ID, tc.Name = base.ID+"::"+c.name, c.name
			}
			add(tc)
		}
	}
	return out
}

// testCase is one #[test_case(...)] or rstest #[case] of a function.
type testCase struct {
	name       string // the generated function name, "" when only known at run time
	args       []token
	line       int
	skip       *testscan.Skip
	assertions []testscan.Assertion
}

// cases expands the test_case and rstest case attributes of f.
func cases(f *fnDecl) []testCase {
	var out []testCase
	var rstestCases []attr
	rstestValues := false
	for _, a := range f.attrs {
		switch {
		case a.path == "test_case" || a.path == "test_case::test_case":
			out = append(out, testCaseAttr(a))
		case a.path == "case" || strings.HasPrefix(a.path, "case::"):
			rstestCases = append(rstestCases, a)
		case a.path == "values":
			rstestValues = true
		}
	}
	if len(rstestCases) > 0 {
		width := len(strconv.Itoa(len(rstestCases)))
		for k, a := range rstestCases {
			name := fmt.Sprintf("case_%0*d", width, k+1)
			if desc := strings.TrimPrefix(a.path, "case::"); desc != a.path {
				name += "_" + desc
			}
			out = append(out, testCase{name: name, args: a.args, line: a.line})
		}
	}
	if rstestValues && len(out) == 0 {
		out = append(out, testCase{line: f.line})
	}
	return out
}

// testCaseAttr reads #[test_case(args [=> result] [; "description"])].
func testCaseAttr(a attr) testCase {
	tc := testCase{line: a.line, args: a.args}
	arrow, semi := -1, -1
	clex.TopPuncts(a.args, tkPunct, func(k int, text string) {
		switch text {
		case "=>":
			if arrow < 0 {
				arrow = k
			}
		case ";":
			semi = k
		}
	})
	if semi >= 0 && semi+1 < len(a.args) && a.args[semi+1].Kind == tkString {
		tc.name = escapeTestName(clex.Unquote(a.args[semi+1].Text))
		tc.args = a.args[:semi]
	}
	if arrow >= 0 {
		result := a.args[arrow+1:]
		if semi > arrow {
			result = a.args[arrow+1 : semi]
		}
		if len(result) > 0 && result[0].Kind == tkIdent && (result[0].Text == "ignore" || result[0].Text == "inconclusive") {
			tc.skip = &testscan.Skip{Kind: testscan.SkipMarked, Line: a.line}
		} else if len(result) > 0 {
			tc.assertions = []testscan.Assertion{{Line: a.line, Kind: "test_case =>", Strength: testscan.Strong, Expected: joinTokens(result)}}
		}
	}
	return tc
}

// escapeTestName turns a test_case description into the generated function name,
// the way the test_case crate does: lowercase, runs of other characters become
// one '_', and a leading digit gets a '_' prefix.
func escapeTestName(s string) string {
	if s == "" {
		return "_empty"
	}
	var b strings.Builder
	lastUnder := false
	for _, r := range strings.ToLower(s) {
		if isAlnum(r) {
			b.WriteRune(r)
			lastUnder = false
		} else if !lastUnder {
			b.WriteByte('_')
			lastUnder = true
		}
	}
	out := b.String()
	if c := out[0]; c != '_' && !(c >= 'a' && c <= 'z') {
		out = "_" + out
	}
	return out
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r > 127 && strconv.IsPrint(r) && r != 0xFFFD
}

// attrSkip reads #[ignore], #[ignore = "reason"], #[cfg_attr(cond, ignore)] and
// a #[cfg(...)] that can compile the test out.
func attrSkip(attrs []attr) *testscan.Skip {
	for _, a := range attrs {
		switch a.path {
		case "ignore":
			reason := ""
			if len(a.args) == 1 && a.args[0].Kind == tkString {
				reason = clex.Unquote(a.args[0].Text)
			}
			return &testscan.Skip{Kind: testscan.SkipMarked, Reason: reason, Line: a.line}
		case "cfg_attr":
			args := splitArgs(a.args)
			for _, arg := range args[min(1, len(args)):] {
				if len(arg) > 0 && arg[0].Text == "ignore" {
					reason := ""
					if len(arg) == 3 && arg[2].Kind == tkString {
						reason = clex.Unquote(arg[2].Text)
					}
					return &testscan.Skip{Kind: testscan.SkipConditional, Reason: reason, Line: a.line}
				}
			}
		}
	}
	return cfgSkip(attrs)
}

// cfgSkip reports a #[cfg(...)] other than cfg(test): the item only exists in
// some builds.
func cfgSkip(attrs []attr) *testscan.Skip {
	for _, a := range attrs {
		if a.path == "cfg" && joinTokens(a.args) != "test" {
			kind := testscan.SkipConditional
			// A predicate no `cargo test` satisfies (a custom cfg flag,
			// not(test), any()) takes the item out of every default run.
			if canTrue, _ := cfgEval(a.args); !canTrue {
				kind = testscan.SkipMarked
			}
			return &testscan.Skip{Kind: kind, Reason: "cfg(" + joinTokens(a.args) + ")", Line: a.line}
		}
	}
	return nil
}

// panicsUnconditionally reports a body with a panic!, unreachable!, todo!
// or unimplemented! statement at its top level, one every run reaches,
// whose message holds want (any message when want is "").
func panicsUnconditionally(body []token, want string) bool {
	depth := 0
	for i, t := range body {
		if t.Kind == tkPunct {
			switch t.Text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			continue
		}
		if depth != 0 || i+1 >= len(body) || body[i+1].Text != "!" || i > 0 && body[i-1].Text != ";" && body[i-1].Text != "}" {
			continue
		}
		switch t.Text {
		case "panic", "unreachable", "todo", "unimplemented":
			if want == "" {
				return true
			}
			for _, a := range body[i+2:] {
				if a.Text == ";" {
					break
				}
				if a.Kind == tkString && strings.Contains(clex.Unquote(a.Text), want) {
					return true
				}
			}
		}
	}
	return false
}

// anyPanic reports a #[should_panic] that a failed assert satisfies: no
// expected message, or one the message of a failed assert, assert_eq! or
// assert_ne! contains ("assertion", "left == right").
func anyPanic(a testscan.Assertion) bool {
	if a.Kind != "should_panic" {
		return false
	}
	if a.Expected == "" {
		return true
	}
	msg := clex.Unquote(a.Expected)
	for _, s := range []string{"assertion `left == right` failed", "assertion `left != right` failed", "assertion failed"} {
		if strings.Contains(s, msg) {
			return true
		}
	}
	return false
}

// attrAssertions reads #[should_panic] and #[should_panic(expected = "...")].
func attrAssertions(attrs []attr) []testscan.Assertion {
	for _, a := range attrs {
		if a.path != "should_panic" {
			continue
		}
		as := testscan.Assertion{Line: a.line, Kind: "should_panic", Strength: testscan.Medium}
		for _, arg := range splitArgs(a.args) {
			if len(arg) == 3 && arg[0].Text == "expected" && arg[1].Text == "=" {
				as.Strength, as.Expected = testscan.Strong, joinTokens(arg[2:])
			}
		}
		if len(a.args) == 1 && a.args[0].Kind == tkString { // #[should_panic = "msg"]
			as.Strength, as.Expected = testscan.Strong, a.args[0].Text
		}
		return []testscan.Assertion{as}
	}
	return nil
}

// unquote is the value of a string literal (see clex.Unquote).

// splitArgs splits tokens at top-level commas, looking through nested groups;
// a trailing comma leaves no empty last argument.
func splitArgs(toks []token) [][]token { return clex.SplitArgs(toks, tkPunct, false) }

// commentedAssertions counts comments inside a body whose text is an assertion
// macro call.
func commentedAssertions(comments []comment, open, close int) int {
	n := 0
	first := sort.Search(len(comments), func(k int) bool { return comments[k].off > open })
	for _, c := range comments[first:] {
		if c.off > close {
			break
		}
		for _, line := range strings.Split(c.text, "\n") {
			toks := lex([]byte(strings.TrimLeft(strings.TrimSpace(line), "*"))).toks
			k := 0
			for k+2 < len(toks) && toks[k].Kind == tkIdent && toks[k+1].Text == "::" {
				k += 2
			}
			if k+2 < len(toks) && toks[k].Kind == tkIdent && toks[k+1].Text == "!" && isAssertMacro(toks[k].Text) {
				n++
				break
			}
		}
	}
	return n
}

// knownCfgs are the cfg names cargo or rustc set on some platform or
// profile; any other bare name is a custom flag a default run does not set.
var knownCfgs = map[string]bool{
	"unix": true, "windows": true, "debug_assertions": true, "target_os": true, "target_family": true,
	"target_arch": true, "target_pointer_width": true, "target_endian": true, "target_env": true,
	"target_vendor": true, "target_has_atomic": true, "target_feature": true, "panic": true,
	"feature": true, "doc": true, "proc_macro": true, "overflow_checks": true, "target_abi": true,
}

// cfgEval reads a cfg predicate under `cargo test`: whether it can hold and
// whether it can fail. test holds; platform and feature predicates may go
// either way; a custom flag does not hold.
func cfgEval(toks []token) (canTrue, canFalse bool) {
	if len(toks) == 0 {
		return true, true
	}
	name := toks[0].Text
	if len(toks) >= 2 && toks[1].Text == "(" {
		var args [][]token
		if len(toks) > 2 {
			args = splitArgs(toks[2 : len(toks)-1])
		}
		switch name {
		case "not":
			if len(args) == 1 {
				t, f := cfgEval(args[0])
				return f, t
			}
		case "all":
			canTrue, canFalse = true, false
			for _, a := range args {
				t, f := cfgEval(a)
				canTrue = canTrue && t
				canFalse = canFalse || f
			}
			return canTrue, canFalse
		case "any":
			canTrue, canFalse = false, true
			for _, a := range args {
				t, f := cfgEval(a)
				canTrue = canTrue || t
				canFalse = canFalse && f
			}
			return canTrue, canFalse
		}
		return true, true
	}
	switch {
	case name == "test":
		return true, false
	case knownCfgs[name]:
		return true, true
	}
	return false, true
}
