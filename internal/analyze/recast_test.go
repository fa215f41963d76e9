package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestKeepsCheckKinds(t *testing.T) {
	eq := testscan.Assertion{Kind: "assert ==", Strength: testscan.Strong, Subject: "r.code", Expected: "0"}
	in := testscan.Assertion{Kind: "assert in", Strength: testscan.Medium, Subject: `"done"`, Expected: "r.output"}
	weak := testscan.Assertion{Kind: "assert is not", Strength: testscan.Weak, Subject: "r", Expected: "None"}
	old := &testscan.TestCase{Assertions: []testscan.Assertion{eq, in}}
	tests := []struct {
		name string
		n    []testscan.Assertion
		want bool
	}{
		{"same kinds", []testscan.Assertion{in, eq}, true},
		{"more", []testscan.Assertion{eq, in, in}, true},
		{"fewer", []testscan.Assertion{in}, false},
		{"one check twice", []testscan.Assertion{eq, eq}, false},
		{"weaker", []testscan.Assertion{eq, weak}, false},
		{"another value", []testscan.Assertion{eq, {Kind: "assert in", Strength: testscan.Medium, Subject: `"after"`, Expected: "r.output"}}, true},
		{"another thing", []testscan.Assertion{eq, {Kind: "assert in", Strength: testscan.Medium, Subject: `"after"`, Expected: "r.stderr"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keepsCheckKinds(old, &testscan.TestCase{Assertions: tt.n}); got != tt.want {
				t.Errorf("keepsCheckKinds = %v, want %v", got, tt.want)
			}
		})
	}
}
