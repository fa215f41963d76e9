package rust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestExtractPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []testscan.Marker
	}{
		{
			name: "comments",
			src: "// TODO(ana): handle   overflow\n" +
				"let x = 1; /* FIXME: zero */\n" +
				"/// XXX: doc comments count when they start with the word\n" +
				"//! TODO: so do inner doc comments\n" +
				"/// See the TODO list: not at the start\n" +
				"// TODOS are tracked elsewhere\n" +
				"// XXXL\n" +
				"// todo: lowercase is prose\n" +
				"/* outer /* TODO: nested, not at the start */ */\n",
			want: []testscan.Marker{
				{Line: 1, Kind: "todo-comment", Text: "TODO(ana): handle overflow"},
				{Line: 2, Kind: "todo-comment", Text: "FIXME: zero"},
				{Line: 3, Kind: "todo-comment", Text: "XXX: doc comments count when they start with the word"},
				{Line: 4, Kind: "todo-comment", Text: "TODO: so do inner doc comments"},
			},
		},
		{
			name: "strings are not comments",
			src: "const S: &str = \"// TODO: a string\";\n" +
				"const R: &str = r##\"/* FIXME */ \"# TODO\"##;\n" +
				"const B: &[u8] = b\"// XXX\";\n" +
				"const C: char = '/';\n" +
				"fn f<'a>(x: &'a str) -> &'a str { x } // a lifetime's quote opens no string\n",
		},
		{
			name: "macros",
			src: "pub fn mul(a: u32, b: u32) -> u32 {\n    todo!()\n}\n" +
				"pub fn div(a: u32, b: u32) -> u32 { unimplemented!( \"division by {}\" ,  b ) }\n" +
				"pub fn sub(a: u32, b: u32) -> u32 {\n    if a < b {\n        panic!(\"not implemented: negative\");\n    }\n    std::todo![]\n}\n" +
				"pub fn add(a: u32) -> u32 { core::panic!(r#\"TODO\"#) }\n" +
				"pub fn pow(a: u32) -> u32 {\n    unimplemented!(\n        \"pow: not yet implemented\",\n    )\n}\n" +
				"pub fn root(a: u32) -> u32 { unimplemented!() }\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "not-implemented", Text: "todo!()"},
				{Line: 7, Kind: "not-implemented", Text: `panic!("not implemented: negative")`},
				{Line: 9, Kind: "not-implemented", Text: "todo![]"},
				{Line: 11, Kind: "not-implemented", Text: `panic!(r#"TODO"#)`},
				{Line: 13, Kind: "not-implemented", Text: `unimplemented!("pow: not yet implemented",)`},
				{Line: 17, Kind: "not-implemented", Text: "unimplemented!()"},
			},
		},
		{
			name: "legitimate panics",
			src: "pub fn get(v: &[u8], i: usize) -> u8 {\n    if i >= v.len() { panic!(\"index out of range\") }\n    v[i]\n}\n" +
				"pub fn h(msg: &str) { panic!(\"{}\", msg) }\n" +
				"pub fn k() { panic!() }\n" +
				"pub fn m() { unreachable!(\"not implemented\") }\n" +
				"pub fn n() { panic!(\"TODOS overflowed\") }\n" +
				"macro_rules! todo { () => {} }\n" +
				"fn todo() {}\n",
		},
		{
			name: "order: comments, then statements",
			src:  "#[test]\nfn mul() {\n    todo!() // FIXME: write it\n}\n// XXX: flaky\n",
			want: []testscan.Marker{
				{Line: 3, Kind: "todo-comment", Text: "FIXME: write it"},
				{Line: 5, Kind: "todo-comment", Text: "XXX: flaky"},
				{Line: 3, Kind: "not-implemented", Text: "todo!()"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New().Extract("src/calc.rs", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, f.Placeholders); diff != "" {
				t.Errorf("placeholders (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractConstantBodies: a production function or method whose whole
// body is a constant (a tail expression, or a return) is a "constant-body"
// placeholder, named as FuncNames names it; a body that computes, a deprecated
// function, a test, a #[cfg(test)] module's function, a nested fn and a
// test file's are not.
func TestExtractConstantBodies(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []testscan.Marker
		funcs           []string
	}{
		{
			name: "constants",
			src: "pub fn total(items: &[u32]) -> u32 {\n    0\n}\n" +
				"fn label() -> &'static str { \"none\" }\n" +
				"pub(crate) const fn ready() -> bool {\n    return true;\n}\n" +
				"pub fn empty() -> Vec<u8> { Vec::new() }\n" +
				"fn neg() -> f64 { -1.5 }\n" +
				"fn first(v: &[u8]) -> Option<u8> { None }\n" +
				"fn name() -> String { String::new() }\n" +
				"fn cfg() -> Config { Default::default() }\n" +
				"fn list() -> Vec<u8> { vec![] }\n" +
				"pub struct Cart;\n" +
				"impl Cart {\n    pub fn total(&self) -> u64 {\n        0\n    }\n    #[inline]\n    fn size(&self) -> usize { return 0 }\n}\n" +
				"impl Display for Cart {\n    fn fmt(&self, f: &mut Formatter) -> Result { Ok(()) }\n}\n" +
				"pub mod io {\n    pub fn read() -> char { 'x' }\n}\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "constant-body", Text: "total", Value: "0"},
				{Line: 4, Kind: "constant-body", Text: "label", Value: `"none"`},
				{Line: 6, Kind: "constant-body", Text: "ready", Value: "return true"},
				{Line: 8, Kind: "constant-body", Text: "empty", Value: "Vec::new()"},
				{Line: 9, Kind: "constant-body", Text: "neg", Value: "-1.5"},
				{Line: 10, Kind: "constant-body", Text: "first", Value: "None"},
				{Line: 11, Kind: "constant-body", Text: "name", Value: "String::new()"},
				{Line: 12, Kind: "constant-body", Text: "cfg", Value: "Default::default()"},
				{Line: 13, Kind: "constant-body", Text: "list", Value: "vec![]"},
				{Line: 17, Kind: "constant-body", Text: "Cart.total", Value: "0"},
				{Line: 20, Kind: "constant-body", Text: "Cart.size", Value: "return 0"},
				{Line: 26, Kind: "constant-body", Text: "io::read", Value: "'x'"},
			},
			funcs: []string{"total", "label", "ready", "empty", "neg", "first", "name", "cfg", "list", "Cart.total", "Cart.size", "Cart.fmt", "io::read"},
		},
		{
			name: "computed bodies",
			src: "pub fn total(items: &[u32]) -> u32 {\n    let mut s = 0;\n    for i in items {\n        s += i;\n    }\n    s\n}\n" +
				"fn v(x: u32) -> u32 { x }\n" +
				"fn call() -> u32 { compute() }\n" +
				"fn expr(a: u32) -> u32 { a + 1 }\n" +
				"fn unit() { 0; }\n" +
				"fn empty() {}\n" +
				"fn twice() -> u32 { log(); 0 }\n" +
				"fn some() -> Option<u8> { Some(0) }\n" +
				"fn typed() -> Vec<u8> { Vec::<u8>::new() }\n" +
				"fn outer() -> u32 {\n    fn inner() -> u32 { 0 }\n    inner()\n}\n" +
				"trait Shape {\n    fn sides(&self) -> u32 { 0 }\n}\n",
			funcs: []string{"total", "v", "call", "expr", "unit", "empty", "twice", "some", "typed", "outer"},
		},
		{
			name: "declarations and tests",
			src: "#[deprecated(note = \"use sum\")]\npub fn total() -> u32 { 0 }\n" +
				"/// Sums.\n///\n/// Deprecated: use `sum`.\n#[inline]\npub fn old() -> u32 { 0 }\n" +
				"impl Cart {\n    #[deprecated]\n    pub fn size(&self) -> usize { 0 }\n}\n" +
				"#[cfg(test)]\nfn fixture() -> u32 { 0 }\n" +
				"#[test]\nfn smoke() { () }\n" +
				"#[cfg(test)]\nmod tests {\n    fn helper() -> u32 { 0 }\n    mod inner {\n        fn deep() -> bool { false }\n    }\n}\n",
			funcs: []string{"total", "old", "Cart.size"},
		},
		{
			name: "test file",
			path: "tests/calc.rs",
			src:  "fn helper() -> u32 { 0 }\n#[test]\nfn a() { assert_eq!(helper(), 0); }\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.path
			if p == "" {
				p = "src/calc.rs"
			}
			f, err := New().Extract(p, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []testscan.Marker
			for _, m := range f.Placeholders {
				if m.Kind == "constant-body" {
					got = append(got, m)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("constant bodies (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.funcs, f.FuncNames); diff != "" {
				t.Errorf("funcs (-want +got):\n%s", diff)
			}
		})
	}
}
