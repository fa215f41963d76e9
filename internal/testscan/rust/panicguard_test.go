package rust

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestPanicGuard(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		subject string
		exp     string
		neg     bool
	}{
		{"unguarded", `panic!("boom");`, "", "", false},
		{"if fires on a bound", `let leaked = n(); if leaked > max / 2 { panic!("leak {leaked}"); }`, "leaked<=max/2", "", false},
		{"if fires on negation", `if !ok { panic!("not ok"); }`, "ok", "", false},
		{"if fires on equality", `if got == 3 { unreachable!(); }`, "got", "3", true},
		{"if fires on a call", `if list.is_empty() { panic!(); }`, "list.is_empty()", "", true},
		{"if fires on a conjunction", `if a > 1 && b { panic!(); }`, "a>1&&b", "", true},
		{"panic not first in the if", `if a > 1 { log(); panic!(); }`, "", "", false},
		{"if with else", `if a > 1 { panic!(); } else { log(); }`, "", "", false},
		{"else if", `if b { log(); } else if a > 1 { panic!(); }`, "", "", false},
		{"if let", `if let Some(x) = y { panic!(); }`, "", "", false},
		{"poll until a bound", `while start.elapsed() < limit { let leaked = n(); if leaked <= max { return; } } panic!("leak");`, "leaked<=max", "", false},
		{"loop until equal", `loop { if read() == want { return; } } panic!();`, "read()", "want", false},
		{"direct return guard", `if done { return; } panic!("never done");`, "done", "", false},
		{"loop with another return", `while go_on() { if leaked <= max { return; } return; } panic!();`, "", "", false},
		{"loop with an unguarded return", `for x in xs { return; } panic!();`, "", "", false},
		{"return not first in its if", `loop { if ok { log(); return; } } panic!();`, "", "", false},
		{"return guard with else", `if ok { return; } else { log(); } panic!();`, "", "", false},
		{"statement before is no block", `let x = 1; panic!();`, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "fn helper() {\n" + tc.body + "\n}\n"
			f, err := New().Extract("tests/support/mod.rs", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got *testscan.Assertion
			for i, a := range f.HelperAssertions {
				if a.Kind == "panic!" || a.Kind == "unreachable!" {
					got = &f.HelperAssertions[i]
				}
			}
			if got == nil {
				t.Fatalf("no panic! read in %q: %+v", tc.body, f.HelperAssertions)
			}
			if got.Subject != tc.subject || got.Expected != tc.exp || got.Negated != tc.neg {
				t.Errorf("panic! in %q read as subject %q expected %q negated %v, want %q %q %v", tc.body, got.Subject, got.Expected, got.Negated, tc.subject, tc.exp, tc.neg)
			}
		})
	}
}
