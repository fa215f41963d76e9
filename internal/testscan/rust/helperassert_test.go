package rust

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestHelperAssertions(t *testing.T) {
	at := func(line int, kind string, s testscan.Strength, neg bool, subject, expected string) testscan.Assertion {
		return testscan.Assertion{Line: line, Kind: kind, Strength: s, Negated: neg, Subject: subject, Expected: expected}
	}
	const (
		weak   = testscan.Weak
		medium = testscan.Medium
		strong = testscan.Strong
	)
	tests := []struct {
		name        string
		path        string
		src         string
		wantHelpers []testscan.Assertion
		wantTests   map[string][]testscan.Assertion
	}{
		{
			name: "helper in a cfg(test) module called by two tests",
			path: "src/lexer.rs",
			src: `pub fn lex(s: &str) -> Vec<Token> {
    debug_assert!(!s.is_empty());
    todo!()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_ident(tok: &Token, name: &str) {
        assert_eq!(tok.kind, Kind::Ident);
        assert_eq!(tok.text, name, "token {:?}", tok);
    }

    #[test]
    fn lexes_one_ident() {
        let toks = lex("abc");
        assert_ident(&toks[0], "abc");
        assert_eq!(toks.len(), 1);
    }

    #[test]
    fn lexes_keyword_as_ident() {
        assert_ident(&lex("fn")[0], "fn");
    }
}
`,
			wantHelpers: []testscan.Assertion{
				at(2, "debug_assert!", weak, true, "s.is_empty()", ""),
				at(11, "assert_eq!", strong, false, "tok.kind", "Kind::Ident"),
				at(12, "assert_eq!", strong, false, "tok.text", "name"),
			},
			wantTests: map[string][]testscan.Assertion{
				"tests::lexes_one_ident":        {at(19, "assert_eq!", strong, false, "toks.len()", "1")},
				"tests::lexes_keyword_as_ident": nil,
			},
		},
		{
			name: "shared setup in tests/common/mod.rs",
			path: "tests/common/mod.rs",
			src: `use app::Db;

pub fn setup() -> Db {
    let db = Db::open_in_memory();
    assert!(db.is_empty());
    db
}

pub fn check_row(db: &Db, id: u32, want: &str) {
    let row = db.get(id).expect("row");
    assert_eq!(row.name, want);
    assert_ne!(row.id, 0);
}
`,
			wantHelpers: []testscan.Assertion{
				at(5, "assert!", weak, false, "db.is_empty()", ""),
				at(11, "assert_eq!", strong, false, "row.name", "want"),
				at(12, "assert_ne!", medium, true, "row.id", "0"),
			},
			wantTests: map[string][]testscan.Assertion{},
		},
		{
			name: "harness methods, fixtures and nested fns in an integration test",
			path: "tests/api.rs",
			src: `use rstest::*;

struct Harness { server: Server }

impl Harness {
    pub fn expect_status(&self, path: &str, code: u16) {
        assert_eq!(self.server.get(path).status(), code);
    }
}

#[fixture]
fn harness() -> Harness {
    let server = Server::start();
    assert!(server.is_up());
    Harness { server }
}

#[rstest]
fn serves_index(harness: Harness) {
    harness.expect_status("/", 200);
    fn local(x: u16) { assert!(x > 0); }
    local(1);
}

#[rstest]
fn rejects_unknown(harness: Harness) {
    harness.expect_status("/nope", 404);
}
`,
			wantHelpers: []testscan.Assertion{
				at(7, "assert_eq!", strong, false, "self.server.get(path).status()", "code"),
				at(14, "assert!", weak, false, "server.is_up()", ""),
			},
			wantTests: map[string][]testscan.Assertion{
				"serves_index":    {at(21, "assert!", medium, false, "x>0", "")},
				"rejects_unknown": nil,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.wantHelpers, f.HelperAssertions, cmpopts.IgnoreFields(testscan.Assertion{}, "Helper")); diff != "" {
				t.Errorf("HelperAssertions (-want +got):\n%s", diff)
			}
			got := map[string][]testscan.Assertion{}
			for _, tc := range f.Tests {
				got[tc.ID] = tc.Assertions
			}
			if diff := cmp.Diff(tt.wantTests, got); diff != "" {
				t.Errorf("test assertions (-want +got):\n%s", diff)
			}
		})
	}
}
