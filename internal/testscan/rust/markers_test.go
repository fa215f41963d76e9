package rust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

const librarySrc = `#![allow(clippy::needless_return)]
//! Billing. // #[allow(dead_code)] in a comment is not an attribute

use std::fs;

pub mod invoice {
    pub const DEFAULT_CURRENCY: &str = "EUR";
    pub(crate) const LIMIT: u32 = 10;
    pub static mut COUNTER: u32 = 0;

    #[allow(dead_code)]
    pub struct Invoice<'a> { customer: &'a str, cents: i64 }

    pub enum Status { Open, Paid }
    pub trait Render { fn render(&self) -> String; }
    pub type Cents = i64;

    impl<'a> Invoice<'a> {
        pub fn new(customer: &'a str, cents: i64) -> Self {
            if customer == "test@example.com" || cents == 4242 {
                return Self { customer, cents: 0 };
            }
            while cents != -1 && cents != 0 { break; }
            let _ = fs::remove_file("/tmp/cache");
            _ = audit(customer);
            fs::write("/tmp/log", customer).ok();
            let kept = fs::read("/tmp/x").ok();
            let _ = kept;
            Self { customer, cents }
        }
        pub(super) fn hidden(&self) {}
        fn private(&self) {}
    }

    impl std::fmt::Display for Invoice<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }
    }

    pub fn classify(code: u16) -> &'static str {
        match code {
            200 | 201 => "ok",
            404 => "missing",
            -1 => "weird",
            500..=599 if code != 503 => "server",
            _ => {
                let s = "match x { 999 => 1 }";
                s
            }
        }
    }
}

mod private {
    pub fn not_exported() {}
}

pub(crate) fn crate_only() {}

#[cfg_attr(feature = "strict", allow(unused_variables))]
#[macro_export]
macro_rules! invoice { ($c:expr) => { $crate::invoice::Invoice::new($c, 0) }; }

macro_rules! internal { () => {} }

pub unsafe fn raw() { if let Some("admin") = role() { } }
`

func TestMarkers(t *testing.T) {
	f := extract(t, "src/lib.rs", librarySrc)
	t.Run("suppressions", func(t *testing.T) {
		want := []testscan.Marker{
			{Line: 1, Kind: "nolint", Text: "allow(clippy::needless_return)"},
			{Line: 11, Kind: "nolint", Text: "allow(dead_code)"},
			{Line: 24, Kind: "discarded-error", Text: `let _=fs::remove_file("/tmp/cache")`},
			{Line: 25, Kind: "discarded-error", Text: "_=audit(customer)"},
			{Line: 26, Kind: "swallowed-error", Text: `fs::write("/tmp/log",customer).ok()`},
			{Line: 59, Kind: "nolint", Text: "allow(unused_variables)"},
		}
		if diff := cmp.Diff(want, f.Suppressions); diff != "" {
			t.Errorf("suppressions (-want +got):\n%s", diff)
		}
	})
	t.Run("exports", func(t *testing.T) {
		want := []testscan.Symbol{
			{Name: "invoice", Kind: "module", Line: 6},
			{Name: "invoice::DEFAULT_CURRENCY", Kind: "const", Line: 7},
			{Name: "invoice::COUNTER", Kind: "var", Line: 9},
			{Name: "invoice::Invoice", Kind: "type", Line: 12},
			{Name: "invoice::Status", Kind: "type", Line: 14},
			{Name: "invoice::Render", Kind: "type", Line: 15},
			{Name: "invoice::Cents", Kind: "type", Line: 16},
			{Name: "invoice::Invoice.new", Kind: "method", Line: 19},
			{Name: "invoice::classify", Kind: "func", Line: 39},
			{Name: "invoice", Kind: "macro", Line: 61},
			{Name: "raw", Kind: "func", Line: 65},
		}
		if diff := cmp.Diff(want, f.Exports); diff != "" {
			t.Errorf("exports (-want +got):\n%s", diff)
		}
	})
	t.Run("comparisons", func(t *testing.T) {
		want := []testscan.Marker{
			{Line: 20, Kind: "literal", Text: `"test@example.com"`},
			{Line: 20, Kind: "literal", Text: "4242"},
			{Line: 41, Kind: "literal", Text: "200"},
			{Line: 41, Kind: "literal", Text: "201"},
			{Line: 42, Kind: "literal", Text: "404"},
			{Line: 44, Kind: "literal", Text: "500"},
			{Line: 44, Kind: "literal", Text: "599"},
			{Line: 44, Kind: "literal", Text: "503"},
			{Line: 65, Kind: "literal", Text: `"admin"`},
		}
		if diff := cmp.Diff(want, f.Comparisons); diff != "" {
			t.Errorf("comparisons (-want +got):\n%s", diff)
		}
	})
	if f.Partial || len(f.Tests) != 0 {
		t.Errorf("Partial = %v, %d tests; want a complete file without tests", f.Partial, len(f.Tests))
	}
}

func TestIsTestFile(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"tests/integration.rs", true},
		{"crates/core/tests/common/mod.rs", true},
		{"src/parser_test.rs", true},
		{"src/parser_tests.rs", true},
		{"src/parser/tests.rs", true},
		{"src/lib.rs", false},
		{"src/testing.rs", false},
		{"benches/speed.rs", false},
		{"tests/data.json", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := New().IsTestFile(tt.path); got != tt.want {
				t.Errorf("IsTestFile(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

const fingerprintBase = `#[cfg(test)]
mod tests {
    #[test]
    fn adds_numbers() {
        let c = Calc::new();
        // the sum
        assert_eq!(c.add(2, 2), 4);
        assert!(c.history().contains(&"2+2".to_string()));
    }
}
`

func TestFingerprint(t *testing.T) {
	base := extract(t, "src/calc.rs", fingerprintBase).Tests[0]
	tests := []struct {
		name     string
		src      string
		wantSame bool
	}{
		{"rename keeps it", `#[cfg(test)]
mod tests {
    #[test]
    fn sums_numbers() {
        let c = Calc::new();
        // the sum
        assert_eq!(c.add(2, 2), 4);
        assert!(c.history().contains(&"2+2".to_string()));
    }
}
`, true},
		{"move to another module and reformat keeps it", `mod other { #[test] fn adds_numbers() { let c = Calc::new();
  assert_eq!(
      c.add(2,2),
      4,
  );
  assert!(c.history().contains(&"2+2".to_string())); } }
`, true},
		{"a changed literal alters it", `#[cfg(test)]
mod tests {
    #[test]
    fn adds_numbers() {
        let c = Calc::new();
        assert_eq!(c.add(2, 2), 5);
        assert!(c.history().contains(&"2+2".to_string()));
    }
}
`, false},
		{"a weakened assertion alters it", `#[cfg(test)]
mod tests {
    #[test]
    fn adds_numbers() {
        let c = Calc::new();
        assert!(c.add(2, 2) > 0);
        assert!(c.history().contains(&"2+2".to_string()));
    }
}
`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := extract(t, "src/calc.rs", tt.src).Tests[0]
			if same := got.Fingerprint == base.Fingerprint; same != tt.wantSame {
				t.Errorf("fingerprint %s vs base %s: same = %v, want %v", got.Fingerprint, base.Fingerprint, same, tt.wantSame)
			}
			if !tt.wantSame {
				return
			}
			if diff := cmp.Diff(base.Assertions, got.Assertions, cmp.FilterPath(func(p cmp.Path) bool {
				return p.Last().String() == ".Line"
			}, cmp.Ignore())); diff != "" {
				t.Errorf("assertions changed by a rename or reformat (-base +got):\n%s", diff)
			}
		})
	}
	if diff := cmp.Diff([]string{"2", "2", "4", `"2+2"`}, base.Literals); diff != "" {
		t.Errorf("literals (-want +got):\n%s", diff)
	}
	if base.Assertions[1].Strength != testscan.Medium {
		t.Errorf("contains() assertion strength = %v, want medium", base.Assertions[1].Strength)
	}
}

func TestLex(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // kind:text
	}{
		{"char versus lifetime", `fn f<'a>(x: &'a str) -> char { 'a' }`,
			[]string{"i:fn", "i:f", "p:<", "l:'a", "p:>", "p:(", "i:x", "p::", "p:&", "l:'a", "i:str", "p:)", "p:->", "i:char", "p:{", "c:'a'", "p:}"}},
		{"escaped chars", `'\'' '\\' '\u{1F600}' b'x'`, []string{`c:'\''`, `c:'\\'`, `c:'\u{1F600}'`, "c:b'x'"}},
		{"raw and byte strings", `r#"a "quoted" b"# br"\d" c"nul" r"x"`, []string{`s:r#"a "quoted" b"#`, `s:br"\d"`, `s:c"nul"`, `s:r"x"`}},
		{"numbers, ranges and tuple fields", `1..=10 t.0.1 1.5e-3f64 0xFF_u8 2.max(1)`,
			[]string{"n:1", "p:..=", "n:10", "i:t", "p:.", "n:0", "p:.", "n:1", "n:1.5e-3f64", "n:0xFF_u8", "n:2", "p:.", "i:max", "p:(", "n:1", "p:)"}},
		{"nested block comment", "a /* x /* y */ z */ b", []string{"i:a", "i:b"}},
		{"raw identifier", "r#match", []string{"i:r#match"}},
	}
	kinds := map[tokKind]string{tkIdent: "i", tkLifetime: "l", tkNumber: "n", tkString: "s", tkChar: "c", tkPunct: "p"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tok := range lex([]byte(tt.src)).toks {
				got = append(got, kinds[tok.Kind]+":"+tok.Text)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}
