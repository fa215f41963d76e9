package rust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestFuncs: a production file's functions and methods, named as
// FuncNames names them, with their own exits (returns, tails of the body
// and of the if, match or block it ends with, `Err(..)?`, panic! and
// bail!; a closure's, an async block's and a nested fn's are theirs) and
// the branches that answer a literal with a literal; raw strings,
// lifetimes and comments that read like code are not code, and test
// functions and test files have none.
func TestFuncs(t *testing.T) {
	got, err := New().Extract("src/parse.rs", []byte(funcsSrc))
	if err != nil {
		t.Fatal(err)
	}
	want := []testscan.Func{
		{Name: "parse", Line: 4, Returns: "Result<Option<u32>,Error>", Exits: []testscan.Exit{
			{Line: 6, Kind: testscan.ExitError, Text: `return Err(Error::new("empty"))`},
			{Line: 8, Kind: testscan.ExitEmpty, Text: "return Ok(None)"},
			{Line: 11, Kind: testscan.ExitError, Text: `bail!("no {}","return None;")`},
			{Line: 16, Kind: testscan.ExitError, Text: `Err(Error::Neg)?`},
			{Line: 18, Kind: testscan.ExitError, Text: `return Err(Error::Big)`},
			{Line: 20, Kind: testscan.ExitOther, Text: "Ok(Some(n))"},
		}},
		{Name: "Parser.kind", Line: 24, Returns: "Option<&'static str>", Exits: []testscan.Exit{
			{Line: 26, Kind: testscan.ExitEmpty, Text: "None"},
			{Line: 27, Kind: testscan.ExitError, Text: `panic!("bad")`},
			{Line: 28, Kind: testscan.ExitOther, Text: `unreachable!()`},
			{Line: 29, Kind: testscan.ExitEmpty, Text: "Default::default()"},
			{Line: 30, Kind: testscan.ExitOther, Text: `Some("x")`},
			{Line: 30, Kind: testscan.ExitEmpty, Text: "String::new()"},
		}},
		{Name: "describe", Line: 35, Returns: "&'static str", Branches: []testscan.Branch{
			{Line: 36, Subject: "n", Literal: "5", Answer: `"five"`},
			{Line: 37, Subject: "*name", Literal: `'x'`, Answer: "true"},
			{Line: 38, Subject: "self.label", Literal: `"a"`, Answer: "2"},
			{Line: 40, Subject: "n", Literal: "42", Answer: `"answer"`, Case: true},
			{Line: 41, Subject: "n", Literal: "7, 8", Answer: `"seven"`, Case: true},
			{Line: 42, Subject: "n", Literal: "-1", Answer: `"neg"`, Case: true},
		}},
	}
	if diff := cmp.Diff(want, got.Funcs); diff != "" {
		t.Errorf("funcs (-want +got):\n%s", diff)
	}
	if f, _ := New().Extract("tests/parse.rs", []byte(funcsSrc)); len(f.Funcs) != 0 {
		t.Errorf("a test file's funcs: %+v", f.Funcs)
	}
}

// funcsSrc is TestFuncs's production file, a seed of FuzzExtract.
const funcsSrc = `use std::fmt;

/// Parses; never return None here.
pub fn parse<'a>(s: &'a str) -> Result<Option<u32>, Error> {
    if s.is_empty() {
        return Err(Error::new("empty"));
    } else if s == "-" {
        return Ok(None);
    }
    if s.len() > 9 {
        bail!("no {}", "return None;");
    }
    let doc = r#"return Err(x); }"#;
    let c = '}';
    let n: u32 = s.parse().map_err(|e| { return Error::from(e); })?;
    if n > 99 { Err(Error::Neg)?; }
    let f = |x: u32| x + 1;
    if !(n < 100) { return Err(Error::Big); }
    let g = async move { return Ok::<_, Error>(None) };
    Ok(Some(n))
}

impl<'a> Parser<'a> {
    pub fn kind(&self) -> Option<&'static str> {
        match self.mode {
            0 => None,
            1 => panic!("bad"),
            2 => unreachable!(),
            3 => { Default::default() }
            _ => if self.x == 'x' { Some("x") } else { String::new() },
        }
    }
}

fn describe(n: i32, name: &char) -> &'static str {
    if n == 5 { return "five"; }
    if *name == 'x' { ok = true; }
    if "a" == self.label { 2 } else if n == MAX { "max" } else { "" };
    match n {
        42 => "answer",
        7 | 8 => { "seven" }
        -1 => return "neg",
        1..=3 => "few",
        _ if n == 9 => "nine",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    fn helper() -> Option<u8> { None }
    #[test]
    fn t() { if x == 1 { return; } }
}
`

// TestFuncsMatchSubject: a match on a conversion (`c as u8`), a borrow or
// a call without arguments (`name.as_str()`) matches on the variable; a
// match on a computation has no literal branches.
func TestFuncsMatchSubject(t *testing.T) {
	for subject, want := range map[string]string{
		"c":             "c",
		"c as u8":       "c",
		"&*c":           "&*c",
		"c.as_str()":    "c.as_str()",
		"self.kind":     "self.kind",
		"c + 1":         "",
		"f(c)":          "",
		"c as u8 + 1":   "",
		"(c, d)":        "",
		"c.get(0)":      "",
		"Kind::from(c)": "",
	} {
		src := "fn unescape(c: u8) -> u8 {\n    match " + subject + " {\n        98 => 8,\n        _ => 0,\n    }\n}\n"
		f, err := New().Extract("src/lib.rs", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if len(f.Funcs) == 1 && len(f.Funcs[0].Branches) == 1 {
			got = f.Funcs[0].Branches[0].Subject
		}
		if got != want {
			t.Errorf("match %s: subject %q, want %q (%+v)", subject, got, want, f.Funcs)
		}
	}
}

// TestFuncsOwnExits: the exits of a nested fn, an impl inside a body, a
// closure (with a block or an expression body) and an async block are
// theirs; a macro's tokens are not read, so `matches!(x, A | B)` opens no
// closure; a negation after return is no macro.
func TestFuncsOwnExits(t *testing.T) {
	src := `fn outer(x: Kind) -> Option<u8> {
    fn inner() -> Option<u8> { return None; }
    impl Helper { fn h(&self) -> Option<u8> { None } }
    let a = items.iter().map(|i| { if i.bad() { return None; } Some(i.v) });
    let b = move || return Err(e);
    let c = async { return None };
    if matches!(x, Kind::A | Kind::B) { return Some(1); }
    if x.bad() { return !(x.ok()); }
    None
}
`
	f, err := New().Extract("src/lib.rs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []testscan.Exit{
		{Line: 7, Kind: testscan.ExitOther, Text: "return Some(1)"},
		{Line: 8, Kind: testscan.ExitOther, Text: "return!(x.ok())"},
		{Line: 9, Kind: testscan.ExitEmpty, Text: "None"},
	}
	if len(f.Funcs) != 1 || f.Funcs[0].Name != "outer" {
		t.Fatalf("funcs %+v", f.Funcs)
	}
	if diff := cmp.Diff(want, f.Funcs[0].Exits); diff != "" {
		t.Errorf("exits (-want +got):\n%s", diff)
	}
}
