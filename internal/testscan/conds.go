package testscan

import (
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"strings"
)

// NeverHolds reports whether a branch's condition (Arm.Cond) is a constant
// that is never true (`if False:`, `if (false)`, `if 0`, or literals that
// fold to false: `if 1 == 2`, `if false && x`, see constFalse) or a loop
// that never runs (NeverLoops): a check in it is made on no run.
func NeverHolds(cond string) bool {
	if NeverLoops(cond) {
		return true
	}
	if c := strings.TrimSpace(cond); strings.HasPrefix(c, "if ") || strings.HasPrefix(c, "elif ") || strings.HasPrefix(c, "if(") {
		c = strings.TrimSpace(strings.TrimSuffix(c[strings.IndexAny(c, " (")+boolInt(c[2] != '('):], ":"))
		if i := strings.LastIndex(c, ";"); i >= 0 && !strings.HasPrefix(c, "(") {
			c = c[i+1:] // Go's `if x := f(); cond`
		}
		if constFalse(c) {
			return true
		}
	}
	c := strings.Join(strings.Fields(cond), "")
	for _, kw := range []string{"elif", "if"} {
		if strings.HasPrefix(c, kw) {
			c = c[len(kw):]
			break
		}
	}
	c = strings.TrimSuffix(c, ":")
	for strings.HasPrefix(c, "(") && strings.HasSuffix(c, ")") {
		c = c[1 : len(c)-1]
	}
	switch c {
	case "False", "false", "0", "None", "nil", "null", "undefined", "!true", "notTrue":
		return true
	}
	return false
}

// countedLoop reads a counted loop that starts at 0 and runs while the
// counter is below 0 or a negative bound (`for i := 0; i < 0; i++`,
// `for (let i = 0; i < 0; i++)`, Java's `for (int i = 0; i < 0; i++)`),
// spaces removed.
var countedLoop = lazyre.New(`^for\(?(?:let|var|int|long|short|byte)?([A-Za-z_]\w*):?=0;?([A-Za-z_]\w*)<(?:0|-\d+)(?:[^0-9.]|$)`)

// emptyIteration reads a loop over an empty literal, spaces removed:
// Python's `for x in []:` (or (), {}, "", range(0), list()...), Rust's
// `for _ in 0..0` or `in []`, JavaScript's `for (const x of [])` or
// `for (k in {})`, and Java's `for (String s : List.of())` (or an empty
// Set.of, Collections.emptyList, new T[0]).
var emptyIteration = lazyre.New(`^for(?:.+?in(?:\[\]|\(\)|\{\}|""|''|range\(0\)|(?:list|tuple|set|dict)\(\)|0\.\.0):?|\((?:const|let|var)?.+?(?:of|in)(?:\[\]|\{\})\)|\(.+?:(?:(?:List|Set)\.of\(\)|Collections\.empty(?:List|Set)\(\)|new\w+\[0\]|new\w+\[\]\{\})\))$`)

// NeverLoops reports whether an arm's Cond is a loop whose body never runs:
// over an empty literal (`for _ in []:`, `for (const x of [])`, `range
// []int{}`), a counted loop below zero, or `while` on a constant that never
// holds. A check in it is made on no run.
func NeverLoops(cond string) bool {
	c := strings.Join(strings.Fields(cond), "")
	switch {
	case strings.HasPrefix(c, "while"):
		rest := strings.TrimSuffix(c[len("while"):], ":")
		return rest != "" && NeverHolds(rest)
	case strings.HasPrefix(c, "range"):
		// Go: range over an empty composite literal.
		it := c[len("range"):]
		return strings.HasSuffix(it, "{}") && strings.Count(it, "{") == 1 &&
			(strings.HasPrefix(it, "[]") || strings.HasPrefix(it, "[0]") || strings.HasPrefix(it, "map["))
	case strings.HasPrefix(c, "for"):
		if m := countedLoop.FindStringSubmatch(c); m != nil && m[1] == m[2] {
			return true
		}
		return emptyIteration.MatchString(c)
	}
	return false
}

// InSpan reports whether token i lies strictly inside one of spans (each
// the indices of a block's opening and closing brace): the extractors'
// spans of code that never runs.
func InSpan(spans [][2]int, i int) bool {
	for _, s := range spans {
		if i > s[0] && i < s[1] {
			return true
		}
	}
	return false
}

// Detached is the prefix of an Arm.Cond the extractors give a check that
// runs off the test's own thread with nothing waiting for it, or whose
// failure cannot reach the test: a goroutine nothing waits for (Go), a
// thread's or executor's task (Python, Java: an error raised there is
// reported by the thread, never by the test), a spawned thread whose
// handle is not joined (Rust). What follows the prefix is the construct's
// source. Such a check may run after the test has ended, or never, and
// does not fail it: it is made on no run the gate can rely on.
const Detached = "detached: "

// IsDetached reports whether an arm's condition is a Detached one.
func IsDetached(cond string) bool { return strings.HasPrefix(cond, Detached) }

// Inverted is the prefix of an Arm.Cond the extractors give a check inside
// a construct that expects a failure of any kind, the check's own included
// (`with pytest.raises(AssertionError):`, `assertThrows(AssertionError.class,
// () -> ...)`, `expect(() => ...).toThrow()`): the test passes only when
// the check fails. What follows is the construct's source.
const Inverted = "inverted by "

// Expecting is the prefix of an Arm.Cond the extractors give a check inside
// a construct that expects a particular failure (`expect(fn).toThrow(/m/)`,
// `assertThrows(IllegalStateException.class, ..)`, `pytest.raises(ValueError)`):
// a failed check either is that failure (a test of a matcher or an
// assertion helper) or escapes and fails the test. It guards nothing, but a
// check that sat in one expected a failure already, so the same check in
// an Inverted construct is no new inversion.
const Expecting = "expecting a failure: "

// RecoverArm is the Arm.Cond the Go extractor gives a check in a deferred
// function literal that recovers a panic (`defer func() { r := recover();
// assert.Equal(t, "boom", fmt.Sprint(r)) }()`): a check of the panic the
// test expected. Like any function literal's, the arm is no branch.
const RecoverArm = "func recover()"

// ExpectsFailure reports whether cond is an Inverted or Expecting arm's.
func ExpectsFailure(cond string) bool {
	return strings.HasPrefix(cond, Inverted) || strings.HasPrefix(cond, Expecting)
}

// Swallowed is the prefix of an Arm.Cond the extractors give a check whose
// failure a construct catches and drops (a try whose handler does nothing,
// `with contextlib.suppress(AssertionError):`, a Rust catch_unwind whose
// result is thrown away). What follows is the construct's source.
const Swallowed = "swallowed by "

// FailureLost reports whether a check under an arm with condition cond
// cannot fail its test: it is Detached, Swallowed or Inverted.
func FailureLost(cond string) bool {
	return IsDetached(cond) || strings.HasPrefix(cond, Swallowed) || strings.HasPrefix(cond, Inverted)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
