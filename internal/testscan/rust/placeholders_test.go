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
