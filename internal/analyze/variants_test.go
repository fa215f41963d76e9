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
