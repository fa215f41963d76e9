package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestExtractPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []testscan.Marker
	}{
		{
			name: "comments",
			src: "// TODO(ana): handle   overflow\n" +
				"const x = 1; /* FIXME: zero */\n" +
				"/**\n * XXX: rewrite\n */\n" +
				"// see TODO list\n" +
				"// TODOS are tracked elsewhere\n" +
				"// XXXL\n" +
				"// todo: lowercase is prose\n" +
				"// eslint-disable-line -- TODO not at the start\n",
			want: []testscan.Marker{
				{Line: 1, Kind: "todo-comment", Text: "TODO(ana): handle overflow"},
				{Line: 2, Kind: "todo-comment", Text: "FIXME: zero"},
				{Line: 3, Kind: "todo-comment", Text: "XXX: rewrite"},
			},
		},
		{
			name: "strings, templates and regexes are not comments",
			src: "const s = '// TODO: a string';\n" +
				"const u = \"/* FIXME */\";\n" +
				"const t = `${a} // TODO in a template ${b /* TODO: a comment in a substitution */}`;\n" +
				"const r = /\\/\\/ TODO/;\n",
			want: []testscan.Marker{
				{Line: 3, Kind: "todo-comment", Text: "TODO: a comment in a substitution"},
			},
		},
		{
			name: "jsx",
			path: "src/App.tsx",
			src: "export function App() {\n" +
				"  return (\n" +
				"    <div>\n" +
				"      {/* TODO: real header */}\n" +
				"      <p>// TODO: text, not a comment</p>\n" +
				"    </div>\n" +
				"  );\n" +
				"}\n",
			want: []testscan.Marker{
				{Line: 4, Kind: "todo-comment", Text: "TODO: real header"},
			},
		},
		{
			name: "throws",
			src: "export function mul(a, b) {\n  throw new Error(\"not implemented\");\n}\n" +
				"export function div(a, b) { throw Error('Method not implemented.') }\n" +
				"export const sub = () => { throw new errors.NotImplementedError(`TODO`); };\n" +
				"function add(a: number, b: number): number {\n  throw new Error(`unimplemented: ${a}`, { cause: b });\n}\n" +
				"function neg() { throw 'TODO'; }\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "not-implemented", Text: `throw new Error("not implemented")`},
				{Line: 4, Kind: "not-implemented", Text: `throw Error("Method not implemented.")`},
				{Line: 5, Kind: "not-implemented", Text: `throw new errors.NotImplementedError("TODO")`},
				{Line: 7, Kind: "not-implemented", Text: "throw new Error(`unimplemented: ${a}`,{cause:b})"},
				{Line: 9, Kind: "not-implemented", Text: `throw "TODO"`},
			},
		},
		{
			name: "legitimate throws",
			src: "function get(i) { if (i < 0) throw new Error(\"index out of range\"); }\n" +
				"function h(e) { throw e; }\n" +
				"function k(msg) { throw new Error(msg); }\n" +
				"function* g(it) { it.throw(new Error('not implemented')); }\n" +
				"function m() { throw new Error('TODOS overflowed'); }\n" +
				"function n() { throw new Error(); }\n",
		},
		{
			name: "order: comments, then statements",
			path: "src/calc.test.ts",
			src:  "it('mul', () => {\n  throw new Error('TODO'); // FIXME: write it\n});\n// XXX: flaky\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "todo-comment", Text: "FIXME: write it"},
				{Line: 4, Kind: "todo-comment", Text: "XXX: flaky"},
				{Line: 2, Kind: "not-implemented", Text: `throw new Error("TODO")`},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.path
			if p == "" {
				p = "src/calc.ts"
			}
			f, err := New().Extract(p, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, f.Placeholders); diff != "" {
				t.Errorf("placeholders (-want +got):\n%s", diff)
			}
		})
	}
}
