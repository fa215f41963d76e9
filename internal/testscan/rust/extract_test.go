package rust

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// ignoreBodyHashes leaves fingerprints, literals and calls to their own tests.
var ignoreBodyHashes = cmpopts.IgnoreFields(testscan.TestCase{}, "Fingerprint", "BodyTokens", "Literals", "Calls")

func extract(t *testing.T, path, src string) *testscan.File {
	t.Helper()
	f, err := New().Extract(path, []byte(src))
	if err != nil {
		t.Fatalf("Extract(%s): %v", path, err)
	}
	return f
}

func TestExtractTests(t *testing.T) {
	tests := []struct {
		name        string
		path        string
		src         string
		want        []testscan.TestCase
		wantPartial bool
	}{
		{
			name: "unit tests in a cfg(test) module",
			path: "src/parser.rs",
			src: `pub fn parse(s: &str) -> Result<Vec<Token>, Error> { todo!() }

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn parses_empty() {
        assert_eq!(parse("").unwrap(), vec![]);
        assert!(parse("(").is_err());
        // assert_eq!(parse("x").unwrap().len(), 1);
        assert!(!tokens.is_empty(), "tokens: {:?}", tokens);
        assert_ne!(a, b);
        assert!(a == b, "equal");
        assert!(matches!(tok, Token::Ident(_)));
        assert!(true);
    }

    #[test]
    #[ignore = "slow on CI"]
    fn slow() {
        pretty_assertions::assert_eq!(heavy(), 42);
    }

    #[tokio::test]
    async fn guarded() -> Result<(), Error> {
        if std::env::var("CI").is_ok() {
            return Ok(());
        }
        approx::assert_relative_eq!(ratio(), 1.5, epsilon = 1e-6);
        Ok(())
    }

    #[test]
    #[should_panic(expected = "unbalanced")]
    #[cfg_attr(windows, ignore)]
    fn panics() {
        parse(")").unwrap();
    }

    mod nested {
        #[test]
        #[should_panic]
        fn deep() { insta::assert_snapshot!(render(), @"ok"); }
    }
}
`,
			want: []testscan.TestCase{
				{ID: "tests::parses_empty", Name: "parses_empty", Line: 8, EndLine: 18, CommentedAssertions: 1, Assertions: []testscan.Assertion{
					{Line: 10, Kind: "assert_eq!", Strength: testscan.Strong, Subject: `parse("").unwrap()`, Expected: "vec![]"},
					{Line: 11, Kind: "assert!", Strength: testscan.Weak, Subject: `parse("(").is_err()`},
					{Line: 13, Kind: "assert!", Strength: testscan.Weak, Negated: true, Subject: "tokens.is_empty()"},
					{Line: 14, Kind: "assert_ne!", Strength: testscan.Medium, Negated: true, Subject: "a", Expected: "b"},
					{Line: 15, Kind: "assert!", Strength: testscan.Strong, Subject: "a", Expected: "b"},
					{Line: 16, Kind: "assert!", Strength: testscan.Medium, Subject: "tok", Expected: "Token::Ident(_)"},
					{Line: 17, Kind: "assert!", Strength: testscan.Trivial, Subject: "true"},
				}},
				{ID: "tests::slow", Name: "slow", Line: 20, EndLine: 24,
					Skip:       &testscan.Skip{Kind: testscan.SkipMarked, Reason: "slow on CI", Line: 21},
					Assertions: []testscan.Assertion{{Line: 23, Kind: "assert_eq!", Strength: testscan.Strong, Subject: "heavy()", Expected: "42"}}},
				{ID: "tests::guarded", Name: "guarded", Line: 26, EndLine: 33,
					Skip:       &testscan.Skip{Kind: testscan.SkipConditional, Line: 29, EnvGuard: true},
					Assertions: []testscan.Assertion{{Line: 31, Kind: "assert_relative_eq!", Strength: testscan.Strong, Subject: "ratio()", Expected: "1.5", Tolerance: "epsilon=1e-6"}}},
				{ID: "tests::panics", Name: "panics", Line: 35, EndLine: 40,
					Skip:       &testscan.Skip{Kind: testscan.SkipConditional, Line: 37},
					Assertions: []testscan.Assertion{{Line: 36, Kind: "should_panic", Strength: testscan.Strong, Expected: `"unbalanced"`}}},
				{ID: "tests::nested::deep", Name: "deep", Line: 43, EndLine: 45, Assertions: []testscan.Assertion{
					{Line: 44, Kind: "should_panic", Strength: testscan.Medium},
					// Under a #[should_panic] with no message: it passes when
					// the snapshot does not match.
					{Line: 45, Kind: "assert_snapshot!", Strength: testscan.Strong, Subject: "render()", Expected: `"ok"`,
						Arms: []testscan.Arm{{At: 43, Cond: testscan.Inverted + "#[should_panic]"}}},
				}},
			},
		},
		{
			name: "test_case, rstest, proptest and quickcheck",
			path: "tests/math.rs",
			src: `use test_case::test_case;

#[test_case(1, 2 => 3 ; "one plus two")]
#[test_case(-4, 4 => 0 ; "Cancels Out!")]
#[test_case(2, 2 => ignore 4 ; "ignored case")]
#[test_case(5, 6)]
#[test_case(7, 8)]
fn adds(a: i32, b: i32) -> i32 {
    a + b
}

#[rstest]
#[case(0, 1)]
#[case::big(10, 89)]
fn fib(#[case] n: u32, #[case] want: u64) {
    assert_eq!(fibonacci(n), want)
}

proptest! {
    #[test]
    fn roundtrip(s in "\\PC*") {
        prop_assert_eq!(decode(&encode(&s)), s);
    }
}

quickcheck! {
    fn reverse_twice(xs: Vec<u32>) -> bool {
        xs == reverse(&reverse(&xs))
    }
}
`,
			want: []testscan.TestCase{
				{ID: "adds::one_plus_two", Name: "one_plus_two", Line: 3, EndLine: 10,
					Assertions: []testscan.Assertion{{Line: 3, Kind: "test_case =>", Strength: testscan.Strong, Expected: "3"}}},
				{ID: "adds::cancels_out_", Name: "cancels_out_", Line: 4, EndLine: 10,
					Assertions: []testscan.Assertion{{Line: 4, Kind: "test_case =>", Strength: testscan.Strong, Expected: "0"}}},
				{ID: "adds::ignored_case", Name: "ignored_case", Line: 5, EndLine: 10,
					Skip: &testscan.Skip{Kind: testscan.SkipMarked, Line: 5}},
				{ID: "adds::*", Name: "*", Line: 3, EndLine: 10, Dynamic: true},
				{ID: "fib::case_1", Name: "case_1", Line: 13, EndLine: 17,
					Assertions: []testscan.Assertion{{Line: 16, Kind: "assert_eq!", Strength: testscan.Strong, Subject: "fibonacci(n)", Expected: "want"}}},
				{ID: "fib::case_2_big", Name: "case_2_big", Line: 14, EndLine: 17,
					Assertions: []testscan.Assertion{{Line: 16, Kind: "assert_eq!", Strength: testscan.Strong, Subject: "fibonacci(n)", Expected: "want"}}},
				{ID: "roundtrip", Name: "roundtrip", Line: 20, EndLine: 23,
					Assertions: []testscan.Assertion{{Line: 22, Kind: "prop_assert_eq!", Strength: testscan.Strong, Subject: "decode(&encode(&s))", Expected: "s"}}},
				{ID: "reverse_twice", Name: "reverse_twice", Line: 27, EndLine: 29},
			},
		},
		{
			name: "raw strings, lifetimes, nested comments and macros that look like tests",
			path: "src/lex.rs",
			src: `const DOC: &str = r##"
#[test]
fn fake() { assert!(true); }
"##;
/* outer /* #[test] fn nested_fake() {} */ still comment #[test] fn x() {} */
/// #[test]
/// fn doc_fake() {}
fn longest<'a>(a: &'a str, b: &'a str) -> &'a str { if a.len() > b.len() { a } else { b } }

#[cfg(test)]
mod tests {
    #[test]
    fn chars_and_lifetimes() {
        let q = '"';
        let brace = '}';
        let s: &'static str = "}{ assert!(false) return;";
        let b = br#"\"#;
        let r = r"C:\dir\";
        assert_eq!(longest("ab", "c"), "ab");
    }
}
`,
			want: []testscan.TestCase{
				{ID: "tests::chars_and_lifetimes", Name: "chars_and_lifetimes", Line: 12, EndLine: 20,
					Assertions: []testscan.Assertion{{Line: 19, Kind: "assert_eq!", Strength: testscan.Strong, Subject: `longest("ab","c")`, Expected: `"ab"`}}},
			},
		},
		{
			name: "fragment starting mid-function with blank gaps",
			path: "src/cache.rs",
			src: `        cache.insert(1, "a");
        assert_eq!(cache.len(), 1);
    }



    #[test]
    fn evicts_oldest() {
        let mut cache = Cache::new(1);
        cache.insert(2, "b");
        assert!(cache.get(&1).is_none());
    }
`,
			wantPartial: true,
			want: []testscan.TestCase{
				{ID: "evicts_oldest", Name: "evicts_oldest", Line: 7, EndLine: 12,
					Assertions: []testscan.Assertion{{Line: 11, Kind: "assert!", Strength: testscan.Weak, Subject: "cache.get(&1).is_none()"}}},
			},
		},
		{
			name: "unterminated module",
			path: "src/lib.rs",
			src: `#[cfg(test)]
mod tests {
    #[test]
    fn ok() { assert_eq!(1 + 1, 2); }

    #[test]
    fn cut() {
        assert!(x`,
			wantPartial: true,
			want: []testscan.TestCase{
				{ID: "tests::ok", Name: "ok", Line: 3, EndLine: 4,
					Assertions: []testscan.Assertion{{Line: 4, Kind: "assert_eq!", Strength: testscan.Strong, Subject: "1+1", Expected: "2"}}},
				{ID: "tests::cut", Name: "cut", Line: 6, EndLine: 8,
					Assertions: []testscan.Assertion{{Line: 8, Kind: "assert!", Strength: testscan.Weak, Subject: "x"}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, tt.path, tt.src)
			if diff := cmp.Diff(tt.want, f.Tests, ignoreBodyHashes); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			if f.Partial != tt.wantPartial {
				t.Errorf("Partial = %v, want %v", f.Partial, tt.wantPartial)
			}
		})
	}
}

func TestShouldPanicOverOwnPanic(t *testing.T) {
	src := `#[test]
#[should_panic]
fn panics_itself() {
    let _ = run();
    panic!("done");
}

#[test]
#[should_panic(expected = "boom")]
fn panics_itself_with_the_message() {
    run();
    panic!("boom");
}

#[test]
#[should_panic(expected = "boom")]
fn guards_with_another_message() {
    run();
    panic!("run did not panic");
}

#[test]
#[should_panic]
fn panics_on_a_branch() {
    if run() {
        panic!("done");
    }
}
`
	want := map[string]testscan.Strength{
		"panics_itself":                  testscan.Trivial,
		"panics_itself_with_the_message": testscan.Trivial,
		"guards_with_another_message":    testscan.Strong,
		"panics_on_a_branch":             testscan.Medium,
	}
	f := extract(t, "tests/p.rs", src)
	for _, tc := range f.Tests {
		if len(tc.Assertions) == 0 || tc.Assertions[0].Kind != "should_panic" {
			t.Errorf("%s: no should_panic assertion first: %+v", tc.ID, tc.Assertions)
			continue
		}
		if got := tc.Assertions[0].Strength; got != want[tc.ID] {
			t.Errorf("%s: should_panic is %v, want %v", tc.ID, got, want[tc.ID])
		}
	}
	if len(f.Tests) != len(want) {
		t.Errorf("got %d tests, want %d", len(f.Tests), len(want))
	}
}

// The branches a check sits in are its arms: an if is arm 0 of its own
// conditional, an else or else if the next arm of the same chain; checks
// outside any if/else have none, and a block of no if (a loop, a plain
// block) adds none.
func TestCheckArms(t *testing.T) {
	f := extract(t, "src/lib.rs", `
#[cfg(test)]
mod tests {
    #[test]
    fn t() {
        assert_eq!(a(), 1);
        if std::env::var("X").is_ok() {
            assert_eq!(b(), 2);
        } else if cfg!(windows) {
            assert_eq!(c(), 3);
        } else {
            for i in 0..2 {
                assert_eq!(d(i), 4);
            }
        }
        let v = if flag { 5 } else { 6 };
        assert_eq!(v, 5);
    }
}
`)
	if len(f.Tests) != 1 {
		t.Fatalf("tests = %d", len(f.Tests))
	}
	type arm struct {
		cond  string
		index int
	}
	want := map[string][]arm{
		"a()":  nil,
		"b()":  {{`if std::env::var("X").is_ok()`, 0}},
		"c()":  {{`if std::env::var("X").is_ok()`, 1}},
		"d(i)": {{`if std::env::var("X").is_ok()`, 2}},
		"v":    nil,
	}
	for _, a := range f.Tests[0].Assertions {
		w, ok := want[a.Subject]
		if !ok {
			t.Errorf("unexpected check of %s", a.Subject)
			continue
		}
		var got []arm
		for _, x := range a.Arms {
			got = append(got, arm{strings.Join(strings.Fields(x.Cond), ""), x.Index})
		}
		for i := range w {
			w[i].cond = strings.Join(strings.Fields(w[i].cond), "")
		}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: arms %v, want %v", a.Subject, got, w)
		}
	}
	if at := f.Tests[0].Assertions; len(at) == 5 && (at[1].Arms[0].At != at[2].Arms[0].At || at[2].Arms[0].At != at[3].Arms[0].At) {
		t.Errorf("the if, else if and else of one chain are not one conditional: %+v", at)
	}
}

// TestConditionalReturn reads an early return under a condition, Rust's
// only way to skip at run time, as a conditional skip, with what decides
// how it is judged: where it skips, whether the environment says so, and
// whether it reads what the checks are about.
func TestConditionalReturn(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       *testscan.Skip
	}{
		{"a capability probe", "if !io_uring_supported() {\n        return;\n    }\n    assert_eq!(open(), 3);", &testscan.Skip{Kind: testscan.SkipConditional, Line: 4}},
		{"its else block", "if io_uring_supported() {\n    } else {\n        return;\n    }\n    assert_eq!(open(), 3);", &testscan.Skip{Kind: testscan.SkipConditional, Line: 5}},
		{"always", "if true {\n        return;\n    }\n    assert_eq!(open(), 3);", &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: 4}},
		{"unconditional", "return;\n    assert_eq!(open(), 3);", &testscan.Skip{Kind: testscan.SkipEarlyReturn, Line: 3}},
		{"on linux", "if cfg!(target_os = \"linux\") {\n        return;\n    }\n    assert_eq!(open(), 3);", &testscan.Skip{Kind: testscan.SkipConditional, Line: 4, Platform: "linux"}},
		{"off windows", "if !cfg!(windows) {\n        return;\n    }\n    assert_eq!(open(), 3);", &testscan.Skip{Kind: testscan.SkipConditional, Line: 4, Platform: "!windows"}},
		{"an environment variable", "if std::env::var_os(\"NO_NET\").is_some() {\n        return;\n    }\n    assert_eq!(open(), 3);", &testscan.Skip{Kind: testscan.SkipConditional, Line: 4, EnvGuard: true}},
		{"on the checked result", "if add(2, 2) != 4 {\n        return;\n    }\n    assert_eq!(add(2, 2), 4);", &testscan.Skip{Kind: testscan.SkipConditional, Line: 4, OnResult: true}},
		{"on a checked local", "let got = add(2, 2);\n    if got != 4 {\n        return;\n    }\n    assert_eq!(got, 4);", &testscan.Skip{Kind: testscan.SkipConditional, Line: 5, OnResult: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "#[test]\nfn t() {\n    " + tc.body + "\n}\n"
			f, err := New().Extract("tests/t.rs", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Tests) != 1 {
				t.Fatalf("want one test, got %d", len(f.Tests))
			}
			if diff := cmp.Diff(tc.want, f.Tests[0].Skip); diff != "" {
				t.Errorf("skip (-want +got):\n%s", diff)
			}
		})
	}
}
