package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestMergeVariants(t *testing.T) {
	arm := func(at int, cond string, i int) testscan.Arm { return testscan.Arm{At: at, Cond: cond, Index: i} }
	chk := func(kind, subj, exp string, arms ...testscan.Arm) testscan.Assertion {
		return testscan.Assertion{Kind: kind, Subject: subj, Expected: exp, Strength: testscan.Strong, Arms: arms}
	}
	webkit := func(i int) testscan.Arm { return arm(7, "if(webkit)", i) }
	pair := []testscan.Assertion{chk("toBe", "frame", "38", webkit(0)), chk("toBe", "frame", "33", webkit(1))}
	tests := []struct {
		name string
		old  []testscan.Assertion
		cur  []testscan.Assertion
		want int // checks of old left
	}{
		{"merged unconditionally", pair, []testscan.Assertion{chk("toBe", "frame", "34")}, 1},
		{"merged into one arm", pair, []testscan.Assertion{chk("toBe", "frame", "34", arm(3, "if(webkit)", 0))}, 2},
		{"other subject", pair, []testscan.Assertion{chk("toBe", "stderr", "34")}, 2},
		{"other kind", pair, []testscan.Assertion{chk("toBeDefined", "frame", "")}, 2},
		{"weaker", pair, []testscan.Assertion{{Kind: "toBe", Subject: "frame", Strength: testscan.Weak}}, 2},
		{"needed by an unconditional twin", append([]testscan.Assertion{chk("toBe", "frame", "34")}, pair...), []testscan.Assertion{chk("toBe", "frame", "34")}, 3},
		{"same arm, not exclusive", []testscan.Assertion{chk("toBe", "frame", "1", webkit(0)), chk("toBe", "frame", "2", webkit(0))}, []testscan.Assertion{chk("toBe", "frame", "3")}, 2},
		{"sequential conditionals", []testscan.Assertion{chk("toBe", "frame", "1", webkit(0)), chk("toBe", "frame", "2", arm(9, "if(webkit)", 1))}, []testscan.Assertion{chk("toBe", "frame", "3")}, 2},
		{"unread conditional", []testscan.Assertion{chk("toBe", "frame", "1", arm(3, "", 1), webkit(0)), chk("toBe", "frame", "2", arm(3, "", 1), webkit(1))}, []testscan.Assertion{chk("toBe", "frame", "3", arm(2, "", 1))}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mergeVariants(tc.old, tc.cur); len(got) != tc.want {
				t.Errorf("mergeVariants left %d checks, want %d: %+v", len(got), tc.want, got)
			}
		})
	}
}

// Of two equal checks, the one about the value that is still assigned
// the same way is shared; the other is left over.
func TestAssertionDiffPrefersOrigin(t *testing.T) {
	fatal := func(line int, origin string) testscan.Assertion {
		return testscan.Assertion{Line: line, Kind: "t.Fatal", Subject: "err", Strength: testscan.Medium, Origin: origin}
	}
	old := []testscan.Assertion{fatal(9, "c.Create()"), fatal(14, "compare()")}
	cur := []testscan.Assertion{fatal(12, "compare()")}
	remOld, remNew := assertionDiff(old, cur)
	if len(remOld) != 1 || remOld[0].Origin != "c.Create()" || len(remNew) != 0 {
		t.Errorf("assertionDiff left %+v and %+v, want the check of c.Create() alone", remOld, remNew)
	}
	// Without origins, the first equal check is shared, as before.
	remOld, _ = assertionDiff([]testscan.Assertion{fatal(9, ""), fatal(14, "")}, []testscan.Assertion{fatal(12, "")})
	if len(remOld) != 1 || remOld[0].Line != 14 {
		t.Errorf("assertionDiff left %+v, want the second check", remOld)
	}
}

func TestNumbersVariant(t *testing.T) {
	check := func(kind, subj, exp string) testscan.Assertion {
		return testscan.Assertion{Kind: kind, Subject: subj, Expected: exp}
	}
	for _, c := range []struct {
		x, z testscan.Assertion
		want bool
	}{
		{check("toMatch", "stdout", `"logs.test.ts:58:14"`), check("toMatch", "stdout", `"logs.test.ts:58:10"`), true},
		{check("assert in", `"t.py:58:14"`, "out"), check("assert in", `"t.py:58:10"`, "out"), true},
		{check("toMatch", "stdout", `"webkit warns"`), check("toMatch", "stdout", `"logs.test.ts:58:10"`), false},
		{check("toMatch", "stderr", `"logs.test.ts:58:14"`), check("toMatch", "stdout", `"logs.test.ts:58:10"`), false},
		{check("toContain", "stdout", `"logs.test.ts:58:14"`), check("toMatch", "stdout", `"logs.test.ts:58:10"`), false},
		{check("toMatch", "stdout", `"no digits"`), check("toMatch", "stdout", `"no digits"`), false},
		{check("toMatch", "stdout", `"a 1"`), check("toMatch", "stdout", `"a 123"`), true},
	} {
		if got := numbersVariant(c.x, c.z); got != c.want {
			t.Errorf("numbersVariant(%+v, %+v) = %v, want %v", c.x, c.z, got, c.want)
		}
	}
}
