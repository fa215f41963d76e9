package rust

import (
	"reflect"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Functions named assert_* are checks (serde_test's assert_tokens), unless
// the file defines them: then they are helpers, whose own checks count.
func TestAssertFunctionCalls(t *testing.T) {
	src := `use serde_test::{assert_tokens, Token};

fn assert_round_trip(v: u8) {
    assert_eq!(v, v.clone());
}

#[test]
fn round_trip() {
    assert_tokens(&V::A, &[Token::U8(0)]);
    serde_test::assert_de_tokens(&V::A, &[Token::U16(0)]);
    assert_round_trip(3);
}

fn assert_defined_later() {}
`
	f, err := New().Extract("tests/t.rs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tests) != 1 {
		t.Fatalf("tests = %d, want 1", len(f.Tests))
	}
	got := f.Tests[0].Assertions
	want := []testscan.Assertion{
		{Line: 9, Kind: "assert_tokens()", Strength: testscan.Medium, Subject: "&V::A", Expected: "&[Token::U8(0)]"},
		{Line: 10, Kind: "assert_de_tokens()", Strength: testscan.Medium, Subject: "&V::A", Expected: "&[Token::U16(0)]"},
	}
	if len(got) != len(want) {
		t.Fatalf("assertions = %+v, want %+v", got, want)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("assertion %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := len(f.HelperAssertions); n != 1 || f.HelperAssertions[0].Kind != "assert_eq!" {
		t.Errorf("helper assertions = %+v, want the assert_eq! of assert_round_trip", f.HelperAssertions)
	}
}
