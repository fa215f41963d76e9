package rust

import (
	"slices"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// bodyScan is what scanBody found in one test body.
type bodyScan struct {
	assertions []testscan.Assertion
	skip       *testscan.Skip
	calls      []testscan.Call // see callName
	// detached are the calls made only in a spawned thread nothing joins
	// (see detachedSpawns).
	detached []testscan.Call
}

// scanBody finds the assertion macros of the body between the braces at open and
// close, and a return before the first of them at the top level of the body
// (directly, or inside a top-level if block).
//
// It also gathers the body's calls, in scratch, a buffer reused from body to
// body; a call of one of asyncFns (the file's async fns) that is a
// statement of its own runs nothing and is left out (bodyScan.detached).
func scanBody(toks []token, match []int, open, close int, scratch *[]testscan.Call, loops bool, asyncFns map[string]bool) bodyScan {
	var out bodyScan
	calls := (*scratch)[:0]
	parens := 0
	var blocks []bool // per open brace: whether it is the block of an if/else
	pendingIf, pendingDepth, pendingParens := false, 0, 0
	// With loops set (a helper's body), a `for ... in ...` loop opens an
	// arm of its own (Cond the loop's header): a helper's check in a loop
	// over a parameter is made once per element (Assertion.RowsOf). In a
	// test's body a loop adds no arm.
	pendingFor, forAt, forDepth, forParens := false, 0, 0, 0
	// The branches a check sits in (testscan.Assertion.Arms): per open
	// brace, the arm it opens (nil for a block of no if/else), and per
	// depth, the arm of the if/else block closed last there, which an
	// else continues.
	var arms []*testscan.Arm
	var closed []*testscan.Arm
	pendingAt, pendingElse := 0, false
	firstAssert := false
	attrEnd := -1 // the ']' of an attribute inside the body: #[allow(x)]
	unused := unusedLocalFns(toks, match, open, close)
	spawns := detachedSpawns(toks, match, open, close)
	var offThread []testscan.Call
	deadAfter := -1         // the end of a top-level return after a check
	var guard *testscan.Arm // the arm of a conditional early return
	for i := open + 1; i < close; i++ {
		t := toks[i]
		// A closure or nested fn nothing calls never runs: its checks
		// are not the test's.
		dead := testscan.InSpan(unused, i) || deadAfter >= 0 && i > deadAfter
		if t.Kind == tkPunct {
			switch t.Text {
			case "#":
				k := i + 1
				if k < close && isPunct(toks[k], "!") {
					k++
				}
				if k < close && isPunct(toks[k], "[") && match[k] > k {
					attrEnd = match[k]
				}
			case "(", "[":
				parens++
			case ")", "]":
				parens--
			case "{":
				isIf := pendingIf && pendingDepth == len(blocks) && pendingParens == parens
				var arm *testscan.Arm
				if isIf {
					pendingIf = false
					arm = branchArm(toks, pendingAt, i, pendingElse, armAt(closed, len(blocks)))
				} else if pendingFor && forDepth == len(blocks) && forParens == parens {
					pendingFor = false
					if cond := joinTokens(toks[forAt:i]); loops && toks[forAt].Text == "for" || testscan.NeverLoops(cond) {
						arm = &testscan.Arm{At: forAt, Cond: cond}
					}
				}
				blocks = append(blocks, isIf)
				arms = append(arms, arm)
			case "}":
				if len(blocks) > 0 {
					d := len(blocks) - 1
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
		if t.Kind != tkIdent {
			continue
		}
		if i+1 < close && toks[i+1].Kind == tkPunct && (toks[i+1].Text == "(" || toks[i+1].Text == "::") && i > attrEnd {
			sp := inSpawn(spawns, i)
			if sp == nil && !(asyncFns[t.Text] && unpolledCall(toks, match, i, close)) {
				calls = addCallAt(calls, toks, i)
			} else {
				offThread = addCallAt(offThread, toks, i)
			}
			if a, ok := assertCall(toks, match, i, close); ok && !dead {
				a.Arms = withSpawn(testscan.OpenArms(arms), sp)
				out.assertions = append(out.assertions, a)
				firstAssert = true
			}
		}
		switch t.Text {
		case "for", "while":
			// In a test's body only a loop that never runs (`for _ in
			// 0..0`, `while false`) opens an arm: one that never holds.
			if !pendingIf && (loops && t.Text == "for" || !loops) {
				pendingFor, forAt, forDepth, forParens = true, i, len(blocks), parens
			}
		case "if", "else":
			if t.Text == "else" || i == open+1 || !(toks[i-1].Kind == tkIdent && toks[i-1].Text == "else") {
				pendingAt, pendingElse = i, t.Text == "else"
			}
			pendingIf, pendingDepth, pendingParens = true, len(blocks), parens
		case "return":
			if parens == 0 && len(blocks) == 0 && firstAssert && deadAfter < 0 {
				// A return at the body's top level after a check: the
				// checks after its statement never run.
				for k := i + 1; k < close; k++ {
					if isPunct(toks[k], ";") {
						deadAfter = k
						break
					}
				}
			}
			topLevel := parens == 0 && (len(blocks) == 0 || len(blocks) == 1 && blocks[0])
			if topLevel && !firstAssert && out.skip == nil {
				out.skip = &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: t.Line}
				if len(blocks) == 1 && arms[0] != nil && !alwaysHolds(arms[0].Cond) {
					// Rust has no skip call: `if !io_uring_supported() {
					// return; }` is its conditional skip.
					guard = arms[0]
					out.skip.Kind = testscan.SkipConditional
					out.skip.EnvGuard = strings.Contains(guard.Cond, "env::var") || strings.Contains(guard.Cond, "var_os(")
					out.skip.Platform = cfgPlatform(guard.Cond, guard.Index == 1)
				}
			}
		}
		if i+2 < len(toks) && toks[i+1].Text == "!" && toks[i+1].Kind == tkPunct && isGroupOpen(toks[i+2]) {
			c := match[i+2]
			if c <= i+2 || c > close {
				c = close
			}
			if a, ok := classifyMacro(t, toks[i+3:c]); ok && !dead {
				if a.Subject == "" && (t.Text == "panic" || t.Text == "unreachable") {
					if cond, negate, ok := panicGuard(toks, match, i, open); ok {
						guardCondition(&a, cond, negate)
					}
				}
				a.Arms = withSpawn(testscan.OpenArms(arms), inSpawn(spawns, i))
				out.assertions = append(out.assertions, a)
				firstAssert = true
			}
		}
	}
	out.detached = offThread
	if len(calls) > 0 {
		out.calls = slices.Clone(calls)
	}
	*scratch = calls[:0]
	testscan.ThroughLocals(out.assertions, letValues(toks, match, open, close))
	if guard != nil {
		out.skip.OnResult = readsChecked(guard.Cond, out.assertions)
	}
	return out
}

// alwaysHolds reports an if's condition (Arm.Cond) that is the constant
// true: `if true`, `if !false`, a name bound once to true.
func alwaysHolds(cond string) bool {
	c := strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(cond), "if")), "")
	for strings.HasPrefix(c, "(") && strings.HasSuffix(c, ")") {
		c = c[1 : len(c)-1]
	}
	return c == "true" || c == "!false" || strings.HasPrefix(c, "true/*")
}

// cfgPlatform names the operating system an early return's condition
// skips on (see testscan.Skip.Platform): `cfg!(target_os = "linux")`,
// `cfg!(windows)`, "!" before it for the systems it does not name; else,
// for the else block of the condition. "" for other conditions.
func cfgPlatform(cond string, elseBlock bool) string {
	c := strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(cond), "if")), "")
	not := elseBlock
	if strings.HasPrefix(c, "!") {
		not, c = !not, c[1:]
	}
	var os string
	switch {
	case strings.HasPrefix(c, "cfg!(target_os=") && strings.HasSuffix(c, ")"):
		os = testscan.PlatformOf(c[len("cfg!(target_os=") : len(c)-1])
	case c == "cfg!(windows)":
		os = "windows"
	}
	if os == "" {
		return ""
	}
	if not {
		return "!" + os
	}
	return os
}

// readsChecked reports a condition that reads what the test's checks are
// about: a name the checks' actual or expected values spell (`if add(2,
// 2) != 4 { return; }` before assert_eq!(add(2, 2), 4); a local the checks
// read). Such a skip stops the test exactly when its check would fail.
func readsChecked(cond string, checks []testscan.Assertion) bool {
	names := map[string]bool{}
	for _, a := range checks {
		for _, w := range identWords(a.Subject + " " + a.Expected) {
			names[w] = true
		}
	}
	for _, w := range identWords(cond) {
		if names[w] {
			return true
		}
	}
	return false
}

// identWords returns the identifiers of a normalized source that are not
// Rust keywords or the names every check spells (true, Some, Ok, ...).
func identWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if unicode.IsDigit(rune(w[0])) {
			continue
		}
		switch w {
		case "if", "let", "mut", "as", "true", "false", "Some", "None", "Ok", "Err", "self", "Self", "unwrap", "is_ok", "is_err", "is_some", "is_none", "len", "cfg", "target_os", "windows", "unix", "std", "env", "var", "to_string", "clone", "iter":
			continue
		}
		out = append(out, w)
	}
	return out
}

// letValues reads the body's `let name = expr;` (with `mut` or a type)
// bindings, for testscan.ThroughLocals.
func letValues(toks []token, match []int, open, close int) map[string]*testscan.Local {
	var out map[string]*testscan.Local
	for i := open + 1; i+2 < close; i++ {
		if toks[i].Kind != tkIdent || toks[i].Text != "let" {
			continue
		}
		k := i + 1
		if toks[k].Kind == tkIdent && toks[k].Text == "mut" {
			k++
		}
		if k >= close || toks[k].Kind != tkIdent {
			continue
		}
		name := toks[k].Text
		eq := k + 1
		for eq < close && !isPunct(toks[eq], "=") && !isPunct(toks[eq], ";") {
			eq++
		}
		if eq >= close || !isPunct(toks[eq], "=") {
			continue
		}
		end := eq + 1
		for end < close && !isPunct(toks[end], ";") {
			if isGroupOpen(toks[end]) && match[end] > end {
				end = match[end]
			}
			end++
		}
		if out == nil {
			out = map[string]*testscan.Local{}
		}
		if l := out[name]; l != nil {
			l.Count++
			continue
		}
		out[name] = &testscan.Local{Value: joinTokens(toks[eq+1 : end]), Line: toks[i].Line, Count: 1}
	}
	return out
}

// branchArm returns the arm a block of an if or else opens: an if (from
// the token at at to the brace at brace) is arm 0 of its own conditional;
// an else, and an else if, is the next arm of the conditional of the if
// or else block closed just before at the same depth (prev), whose
// condition names the chain.
func branchArm(toks []token, at, brace int, isElse bool, prev *testscan.Arm) *testscan.Arm {
	if isElse && prev != nil {
		return &testscan.Arm{At: prev.At, Cond: prev.Cond, Index: prev.Index + 1}
	}
	cond := joinTokens(toks[at:brace])
	if c := clex.ConstantIf(toks[at:brace], func() []token { return toks }, tkIdent, tkPunct, isLiteralToken); c != "" {
		cond = c
	}
	return &testscan.Arm{At: at, Cond: cond}
}

// isLiteralToken reports a single-token literal: a number, a string or
// character, true or false.
func isLiteralToken(t token) bool {
	return t.Kind == tkNumber || t.Kind == tkString || t.Kind == tkChar || t.Kind == tkIdent && (t.Text == "true" || t.Text == "false")
}

// armAt returns the arm closed last at depth d, nil when none was.
func armAt(closed []*testscan.Arm, d int) *testscan.Arm {
	if d < len(closed) {
		return closed[d]
	}
	return nil
}

// assertCall reads a call of a function named assert_* at i (serde_test's
// assert_tokens(&v, &[...]), assert_fs's assert_paths_eq(a, b)): by Rust's
// convention a check, the first argument its subject and the second what
// it is checked against. A function of the file's own is a helper, whose
// checks are read from its body instead (dropLocal).
func assertCall(toks []token, match []int, i, close int) (testscan.Assertion, bool) {
	t := toks[i]
	if len(t.Text) <= len("assert_") || t.Text[:len("assert_")] != "assert_" || toks[i+1].Text != "(" ||
		i > 0 && toks[i-1].Kind == tkIdent && toks[i-1].Text == "fn" {
		return testscan.Assertion{}, false
	}
	c := match[i+1]
	if c <= i+1 || c > close {
		return testscan.Assertion{}, false
	}
	a := testscan.Assertion{Line: t.Line, Kind: t.Text + "()", Strength: testscan.Medium}
	parts := splitArgs(toks[i+2 : c])
	if len(parts) > 0 {
		a.Subject = joinTokens(parts[0])
	}
	if len(parts) > 1 {
		a.Expected = joinTokens(parts[1])
	}
	return a, true
}

func isGroupOpen(t token) bool {
	return t.Kind == tkPunct && (t.Text == "(" || t.Text == "[" || t.Text == "{")
}

// unusedLocalFns returns the spans (the braces of their blocks) of the
// closures bound by let (`let check = |x| { ... };`) and the nested fns of
// the body between open and close whose name nothing else in the body
// names: nothing calls or passes them on, so they never run.
func unusedLocalFns(toks []token, match []int, open, close int) [][2]int {
	ident := func(k int) bool { return k < close && toks[k].Kind == tkIdent }
	punct := func(k int, s string) bool { return k < close && isPunct(toks[k], s) }
	var out [][2]int
	for i := open + 1; i+2 < close; i++ {
		name, brace := -1, -1
		switch {
		case ident(i) && toks[i].Text == "fn" && ident(i+1):
			name = i + 1
			for k := i + 2; k < close; k++ {
				if punct(k, "{") {
					brace = k
					break
				}
				if punct(k, ";") {
					break
				}
			}
		case ident(i) && toks[i].Text == "let":
			k := i + 1
			if ident(k) && toks[k].Text == "mut" {
				k++
			}
			if !ident(k) || !punct(k+1, "=") {
				continue
			}
			name, k = k, k+2
			if ident(k) && toks[k].Text == "move" {
				k++
			}
			switch {
			case punct(k, "||"):
				k++
			case punct(k, "|"):
				for k++; k < close && !punct(k, "|"); k++ {
				}
				k++
			default:
				continue
			}
			if punct(k, "{") {
				brace = k
			}
		}
		if brace < 0 || match[brace] <= brace || match[brace] > close {
			continue
		}
		n := toks[name].Text
		// A nested async fn that is only called as a statement, its
		// future dropped unpolled, runs nothing either.
		lazy := name >= 2 && toks[name-1].Text == "fn" && toks[name-2].Kind == tkIdent && toks[name-2].Text == "async"
		used := false
		for j := open + 1; j < close && !used; j++ {
			used = j != name && toks[j].Kind == tkIdent && toks[j].Text == n && !(lazy && unpolledCall(toks, match, j, close))
		}
		if !used {
			out = append(out, [2]int{brace, match[brace]})
		}
	}
	return out
}

// unpolledCall reports whether the identifier at i starts a call that is
// a statement of its own, its value dropped: after `;`, `{`, `}`, an
// attribute or `let _ =`, and its closing parenthesis followed by `;`. A future made so is never
// polled (no .await, no block_on), so the async fn runs nothing.
func unpolledCall(toks []token, match []int, i, close int) bool {
	if i < 1 || i+1 >= close || !isPunct(toks[i+1], "(") {
		return false
	}
	p := toks[i-1]
	dropped := i >= 3 && isPunct(p, "=") && toks[i-2].Text == "_" && toks[i-3].Text == "let" // let _ = f(..);
	attr := isPunct(p, "]") && match[i-1] >= 1 && match[i-1] < i-1 && isPunct(toks[match[i-1]-1], "#")
	if !dropped && !attr && !isPunct(p, ";") && !isPunct(p, "{") && !isPunct(p, "}") {
		return false
	}
	end := match[i+1]
	return end > i+1 && end+1 < close && isPunct(toks[end+1], ";")
}

// withSpawn adds, outermost, the arm of the detached spawn sp (if any) to
// arms.
func withSpawn(arms []testscan.Arm, sp *spawnSpan) []testscan.Arm {
	if sp == nil {
		return arms
	}
	return append([]testscan.Arm{spanArm(sp)}, arms...)
}

// asyncFnNames returns the names of the file's async fns, nil when it has
// none: a call of one that is a statement of its own runs nothing
// (unpolledCall).
func asyncFnNames(toks []token) map[string]bool {
	var out map[string]bool
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].Kind == tkIdent && toks[i].Text == "async" && toks[i+1].Kind == tkIdent && toks[i+1].Text == "fn" && toks[i+2].Kind == tkIdent {
			if out == nil {
				out = map[string]bool{}
			}
			out[toks[i+2].Text] = true
		}
	}
	return out
}
