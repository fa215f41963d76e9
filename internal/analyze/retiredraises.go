package analyze

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A change that stops a function failing (`panic(err)` become `c.Error(err)`,
// a property that no longer raises ValueError and returns the text instead)
// makes the checks that it failed wrong: they go, and the test checks what
// the function does now (gin's TestRenderJSONPanics, renamed
// TestRenderJSONError; click's test_stderr, whose `with
// pytest.raises(ValueError): result.stderr` became a check of the text).
// retiredRaiseChecks tells those checks from the others a test gave up. A
// check that code fails (pytest.raises(E), assertThrows, toThrow,
// assert.Panics, a check of what a deferred recover() caught) is retired
// only when:
//   - the change took a raise of what it expects (E, or a panic) out of a
//     production function of the test's language its block names, which
//     raises nothing any more (one that still raises may be what the
//     check was of, or fail another way: a check to rewrite, not drop),
//     and put none back anywhere in the production code it changed (a
//     raise moved into a helper is no failure retired); nor does a
//     function of the same name there still raise (Strict.parse beside the
//     Loose.parse that stopped: the block's name cannot tell them apart);
//   - and the test, or a test the change added next to it, still calls
//     that function: the behaviour is checked as it is now.
//
// Retired checks are a medium finding, not a high one: the behaviour was
// meant to change. A raise of another class, of another function, or a
// test of the function that nothing replaces is lost as before.

// raiseType reads an error exit that raises: the class a Python raise or a
// JavaScript or Java throw names ("ValueError", "TypeError"), "panic" for a
// Go or Rust panic, "" for a value raised again (`raise`, `throw err`).
// ok is false for an exit that raises nothing (a returned error).
func raiseType(e testscan.Exit) (typ string, ok bool) {
	t := strings.TrimSpace(e.Text)
	switch {
	case strings.HasPrefix(t, "panic(") || strings.HasPrefix(t, "panic!"):
		return "panic", true
	case t == "raise" || strings.HasPrefix(t, "raise "):
		t = strings.TrimSpace(t[len("raise"):])
	case strings.HasPrefix(t, "throw "):
		t = strings.TrimPrefix(strings.TrimSpace(t[len("throw "):]), "new ")
	default:
		return "", false
	}
	return className(t), true
}

// className is the class a raise names at the start of t (`errors.Invalid(...)`:
// "Invalid"), "" when t starts with no capitalized name.
func className(t string) string {
	end := strings.IndexFunc(t, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '$')
	})
	if end >= 0 {
		t = t[:end]
	}
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	if t == "" || !unicode.IsUpper(rune(t[0])) {
		return ""
	}
	return t
}

// anyFailure are the classes whose check passes on any failure.
var anyFailure = map[string]bool{
	"Exception": true, "BaseException": true, "Throwable": true, "RuntimeException": true, "Error": true,
}

// expectedFailure is the failure a check expects the code to raise: a
// class ("ValueError"), "panic" (assert.Panics, a check of what a deferred
// recover() caught, should_panic), "" for any. ok is false for a check of
// something else, a warning check included.
func expectedFailure(x testscan.Assertion) (string, bool) {
	if x.Negated {
		return "", false
	}
	for _, a := range x.Arms {
		if a.Cond == testscan.RecoverArm {
			return "panic", true
		}
	}
	k := strings.ToLower(x.Kind)
	if strings.Contains(k, "notpanics") || strings.Contains(k, "warn") || strings.Contains(k, "deprecated") {
		return "", false
	}
	if strings.Contains(k, "panic") {
		return "panic", true
	}
	if !outcomeKind(x.Kind) {
		return "", false
	}
	f := strings.Fields(x.Expected)
	if len(f) == 0 {
		return "", true
	}
	c := className(strings.TrimSuffix(strings.TrimSuffix(f[0], ","), ".class"))
	if anyFailure[c] {
		c = ""
	}
	return c, true
}

// failureMatches reports whether a check expecting failure want is
// answered by a raise of typ.
func failureMatches(want, typ string) bool {
	switch {
	case want == "panic" || typ == "panic":
		return want == typ
	case want == "":
		return true
	}
	return want == typ
}

// retiredRaise is a function the change stopped raising typ from.
type retiredRaise struct {
	fn, file, typ, text string
	lang                testscan.Lang
}

// retiredRaises are the raises the change took out of production functions
// and put nowhere else in the production code it changed, by the
// function's last name, once per change.
func (cr *callReach) retiredRaises() map[string][]retiredRaise {
	if cr.raises != nil {
		return cr.raises
	}
	cr.raises = map[string][]retiredRaise{}
	count := func(fs []testscan.Func, fn string) map[string]int {
		m := map[string]int{}
		for _, f := range fs {
			if fn != "" && f.Name != fn {
				continue
			}
			for _, e := range f.Exits {
				if t, ok := raiseType(e); ok && e.Kind == testscan.ExitError {
					m[t]++
				}
			}
		}
		return m
	}
	before, after := map[string]int{}, map[string]int{} // by language and type, over the change
	raising := map[string]bool{}                        // the functions that still raise, by language and last name
	var lost []retiredRaise
	for _, pr := range cr.pairs {
		o, n := prodFacts(pr.old), prodFacts(pr.new)
		for f, m := range map[*testscan.File]map[string]int{o: before, n: after} {
			if f != nil {
				for t, k := range count(f.Funcs, "") {
					m[string(f.Lang)+"\x00"+t] += k
				}
			}
		}
		if o == nil || n == nil {
			continue
		}
		now := byName(n.Funcs)
		for _, f := range o.Funcs {
			if _, kept := now.funcs[f.Name]; !kept || len(f.Exits) == 0 {
				continue
			}
			was, is := count([]testscan.Func{f}, ""), count(n.Funcs, f.Name)
			if len(is) > 0 {
				// It still fails, maybe in another way (ValueError
				// become TypeError): the check is to be rewritten, not
				// dropped.
				continue
			}
			for _, e := range f.Exits {
				t, ok := raiseType(e)
				if !ok || e.Kind != testscan.ExitError || was[t] == 0 {
					continue
				}
				was[t] = 0 // once per type
				lost = append(lost, retiredRaise{fn: f.Name, file: pr.path(), typ: string(o.Lang) + "\x00" + t, text: e.Text, lang: o.Lang})
			}
		}
	}
	if len(lost) > 0 {
		// The functions of the change's production code that still
		// raise, read whole: a masked version holds only what changed.
		for _, pr := range cr.pairs {
			if prodFacts(pr.new) == nil {
				continue
			}
			if w := cr.whole(pr, false); w != nil && w.facts != nil {
				for _, f := range w.facts.Funcs {
					if len(count([]testscan.Func{f}, "")) > 0 {
						raising[string(w.facts.Lang)+"\x00"+lastSegment(f.Name)] = true
					}
				}
			}
		}
	}
	for _, r := range lost {
		name := lastSegment(r.fn)
		if before[r.typ] <= after[r.typ] || raising[string(r.lang)+"\x00"+name] {
			continue // raised again elsewhere in the change, or a namesake still raises
		}
		r.typ = r.typ[strings.IndexByte(r.typ, 0)+1:]
		cr.raises[name] = append(cr.raises[name], r)
	}
	return cr.raises
}

// prodFacts are the facts of a production side, nil for a test file or
// none.
func prodFacts(s *side) *testscan.File {
	if s == nil || s.isTest {
		return nil
	}
	return s.facts
}

// names are the identifiers of a text.
func names(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isIdentChar(r) && r != '$' })
}

// raiseBlock is the code a failure check x of test o runs and expects to
// fail: a Python with block (its text and lines), the function a check is
// given (its text); a check of a recovered panic runs the whole test (its
// calls).
type raiseBlock struct {
	text       string
	start, end int // a with block's lines, 0 for a text
}

func blockOf(x testscan.Assertion, o *locTest, lines func() []string) raiseBlock {
	for _, a := range x.Arms {
		if a.Cond == testscan.RecoverArm {
			var b strings.Builder
			for _, c := range o.tc.Calls {
				b.WriteString(c.Name + " ")
			}
			return raiseBlock{text: b.String()}
		}
	}
	if o.side.facts.Lang == testscan.Python && x.Subject == "" {
		ls := lines()
		end := pyBlock(ls, x.Line)
		if x.Line < 1 || end > len(ls) {
			return raiseBlock{}
		}
		return raiseBlock{text: strings.Join(ls[x.Line-1:end], "\n"), start: x.Line, end: end}
	}
	return raiseBlock{text: x.Subject}
}

// holds reports whether check x sits in block b: on one of its lines, or
// made on a value its text computes.
func (b raiseBlock) holds(x testscan.Assertion) bool {
	if b.start > 0 {
		return x.Line >= b.start && x.Line <= b.end
	}
	return x.Subject != "" && strings.Contains(b.text, x.Subject)
}

// raiseRetiredBy returns the raise the change retired that failure check x
// of test o expected, nil when none: one the block names.
func raiseRetiredBy(x testscan.Assertion, o *locTest, lines func() []string, raises map[string][]retiredRaise) *retiredRaise {
	want, ok := expectedFailure(x)
	if !ok {
		return nil
	}
	var found *retiredRaise
	for _, w := range names(blockOf(x, o, lines).text) {
		for i, r := range raises[w] {
			if r.lang != o.side.facts.Lang || !failureMatches(want, r.typ) {
				continue
			}
			if dir(r.file) == dir(o.side.path) {
				return &raises[w][i] // the test's own package's, first
			}
			if found == nil {
				found = &raises[w][i]
			}
		}
	}
	return found
}

// exercises reports whether test t still calls fn (by its last name) or
// checks a value it names (`result.stderr`).
func exercises(t *testscan.TestCase, fn string) bool {
	for _, c := range t.Calls {
		if lastSegment(strings.TrimPrefix(c.Name, ".")) == fn {
			return true
		}
	}
	for _, y := range t.Assertions {
		for _, w := range names(y.Subject + " " + y.Expected) {
			if w == fn {
				return true
			}
		}
	}
	return false
}

// failCall reports an unconditional failure (assert.Fail(t, "no panic"),
// t.Fatal("not reached")): in a test that recovers a panic, the check
// that it came.
func failCall(x testscan.Assertion) bool {
	if len(x.Arms) > 0 || x.Subject != "" {
		return false
	}
	k := x.Kind[strings.LastIndexByte(x.Kind, '.')+1:]
	switch k {
	case "Fail", "FailNow", "Fatal", "Fatalf", "Error", "Errorf", "Fatalln":
		return true
	}
	return false
}

// retiredRaiseChecks splits the checks test o gave up (gone) into those
// about a failure the change retired and the rest, and returns the retired
// raise of the first; by is the test that checks the function now.
func (cr *callReach) retiredRaiseChecks(gone []testscan.Assertion, o *locTest, by *testscan.TestCase) (kept, retired []testscan.Assertion, why *retiredRaise) {
	if cr == nil || o.side.facts == nil || len(gone) == 0 {
		return gone, nil, nil
	}
	expecting := false
	for _, x := range gone {
		if _, ok := expectedFailure(x); ok {
			expecting = true
			break
		}
	}
	if !expecting {
		return gone, nil, nil
	}
	raises := cr.retiredRaises()
	if len(raises) == 0 {
		return gone, nil, nil
	}
	var ls []string
	lines := func() []string {
		if ls == nil {
			ls = strings.Split(string(o.pr.text(true)), "\n")
		}
		return ls
	}
	isRetired := make([]bool, len(gone))
	var blocks []raiseBlock // the retired checks' blocks
	recovered := false
	for i, x := range gone {
		r := raiseRetiredBy(x, o, lines, raises)
		if r == nil || by == nil || !exercises(by, lastSegment(r.fn)) {
			continue
		}
		if why == nil {
			why = r
		}
		isRetired[i] = true
		blocks = append(blocks, blockOf(x, o, lines))
		for _, a := range x.Arms {
			recovered = recovered || a.Cond == testscan.RecoverArm
		}
	}
	if why == nil {
		return gone, nil, nil
	}
	// The checks inside a retired check's block (the NoError of the
	// function given to assert.Panics) ran the code that no longer
	// fails; a test that recovered the panic failed when it did not come.
	for i, x := range gone {
		if isRetired[i] {
			continue
		}
		if recovered && failCall(x) {
			isRetired[i] = true
			continue
		}
		for _, b := range blocks {
			if b.holds(x) {
				isRetired[i] = true
				break
			}
		}
	}
	kept, retired = splitMarked(gone, isRetired)
	return kept, retired, why
}

// recastTest reports a deleted test o whose checks were all of a failure
// the change retired, and the test the change added in its file that
// calls the function now (gin's TestRenderJSONPanics, become
// TestRenderJSONError): the message's tail, "" when o is no such test.
func (cr *callReach) recastTest(o *locTest, added []*locTest) string {
	if o.pr.new == nil {
		return ""
	}
	var strong []testscan.Assertion
	for _, x := range o.tc.Assertions {
		if x.Strength >= testscan.Medium {
			strong = append(strong, x)
		}
	}
	if len(strong) == 0 {
		return ""
	}
	for _, n := range added {
		if n.side.path != o.pr.new.path || len(n.tc.Assertions) == 0 {
			continue
		}
		kept, retired, r := cr.retiredRaiseChecks(strong, o, n.tc)
		if len(kept) > 0 || len(retired) == 0 || r == nil {
			continue
		}
		return fmt.Sprintf("; its checks expected %s, which the change took out of %s in %s, and %s, which it added there, calls %s as it is now", raiseText(r), r.fn, r.file, n.tc.ID, lastSegment(r.fn))
	}
	return ""
}

// raiseText names a retired raise for a message.
func raiseText(r *retiredRaise) string {
	t := r.text
	if len(t) > 60 {
		t = t[:57] + "..."
	}
	return fmt.Sprintf("the failure `%s`", t)
}

// recastTail is recast's answer for o, "" when there is none to ask.
func (u *codeUse) recastTail(o *locTest) string {
	if u.recast == nil {
		return ""
	}
	return u.recast(o)
}
