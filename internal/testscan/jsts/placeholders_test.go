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

// TestExtractConstantBodies: a production function, method or `const f =`
// arrow whose whole body returns a constant is a "constant-body"
// placeholder, named as FuncNames names it; a body that computes, an accessor,
// a deprecated function, a nested callback and a test file's are not.
func TestExtractConstantBodies(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []testscan.Marker
		funcs           []string
	}{
		{
			name: "constants",
			src: "export function total(items: Item[]): number {\n  return 0;\n}\n" +
				"function label() { return 'none' }\n" +
				"export async function ready(): Promise<{ ok: boolean }> {\n  return null\n}\n" +
				"const empty = () => []\n" +
				"export const neg = (a: number): number => -1;\n" +
				"const obj = async x => ({});\n" +
				"let none = function () { return undefined; };\n" +
				"const tpl = <T,>(x: T) => {\n  return `fixed`\n}\n" +
				"export default class Cart extends Base<{ a: 1 }> implements Priced {\n" +
				"  private items: Item[] = []\n" +
				"  static zero() { return 0 }\n" +
				"  async total(): Promise<number> {\n    return 0\n  }\n" +
				"  price = (): number => 1.5;\n" +
				"  @memo()\n  name() { return \"cart\" }\n" +
				"}\n",
			want: []testscan.Marker{
				{Line: 2, Kind: "constant-body", Text: "total", Value: "return 0"},
				{Line: 4, Kind: "constant-body", Text: "label", Value: `return "none"`},
				{Line: 6, Kind: "constant-body", Text: "ready", Value: "return null"},
				{Line: 8, Kind: "constant-body", Text: "empty", Value: "[]"},
				{Line: 9, Kind: "constant-body", Text: "neg", Value: "-1"},
				{Line: 10, Kind: "constant-body", Text: "obj", Value: "({})"},
				{Line: 11, Kind: "constant-body", Text: "none", Value: "return undefined"},
				{Line: 13, Kind: "constant-body", Text: "tpl", Value: `return "fixed"`},
				{Line: 17, Kind: "constant-body", Text: "Cart.zero", Value: "return 0"},
				{Line: 19, Kind: "constant-body", Text: "Cart.total", Value: "return 0"},
				{Line: 21, Kind: "constant-body", Text: "Cart.price", Value: "1.5"},
				{Line: 23, Kind: "constant-body", Text: "Cart.name", Value: `return "cart"`},
			},
			funcs: []string{"total", "label", "ready", "empty", "neg", "obj", "none", "tpl", "Cart.zero", "Cart.total", "Cart.price", "Cart.name"},
		},
		{
			name: "computed bodies",
			src: "export function total(items) {\n  let s = 0\n  for (const i of items) s += i\n  return s\n}\n" +
				"function v(x) { return x }\n" +
				"function call() { return compute() }\n" +
				"function expr(a) { return a + 1 }\n" +
				"function tpl(a) { return `${a}` }\n" +
				"function bare() { return }\n" +
				"function empty() {}\n" +
				"function twice() { log(); return 0 }\n" +
				"function late() {\n  return\n  0\n}\n" +
				"const add = (a, b) => a + b\n" +
				"const sum = (a) => 0 + a\n" +
				"const block = () => {}\n" +
				"const ternary = (a) => 0 ? a : 1\n" +
				"const wrapped = memo(() => 0)\n" +
				"function* gen() { return 0 }\n" +
				"function outer() {\n  const inner = () => 0\n  return inner\n}\n" +
				"app.get('/', (req, res) => 0)\n",
			funcs: []string{"total", "v", "call", "expr", "tpl", "bare", "empty", "twice", "late", "add", "sum", "block", "ternary", "gen", "outer"},
		},
		{
			name: "declarations",
			src: "/**\n * Sums.\n * @deprecated use sum\n */\nexport function total() { return 0 }\n" +
				"// Deprecated: use sum.\n// eslint-disable-next-line\nconst old = () => 0\n" +
				"class Shape {\n  constructor() { return {} }\n  get name() { return 'shape' }\n  set name(v) { return }\n" +
				"  abstract area(): number;\n  /** @deprecated */\n  sides() { return 0 }\n}\n" +
				"declare function ext(): number;\n",
			funcs: []string{"total", "old", "Shape.area", "Shape.sides", "ext"},
		},
		{
			name: "test file",
			path: "src/calc.test.ts",
			src:  "function helper() { return 0 }\nit('a', () => { expect(helper()).toBe(0) })\n",
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
