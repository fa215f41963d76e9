package mutate

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan/jsts"
)

// jsMutantCases are sources, the lines asked and the mutants expected. The
// path's extension picks the dialect; node checks the .js (as scripts) and
// .mjs (as modules) sources and their mutants.
var jsMutantCases = []struct {
	name, path string
	src        string
	lines      []int
	want       []tokBrief
}{
	{
		name: "boundary, relational, logical",
		path: "a.js",
		src: "function f(a, b, c, d, x, y) {\n" +
			"  if (a < b && c >= d) { return 1; }\n" +
			"  const e = x === y, g = x !== y;\n" +
			"  const h = x == null;\n" +
			"  const k = x != y;\n" +
			"  const ok = a || b && c;\n" +
			"  const n = a ?? b;\n" +
			"  return a > b ? c <= d : e;\n" +
			"}\n",
		lines: []int{2, 3, 4, 5, 6, 7, 8},
		want: []tokBrief{
			{2, "relational", "if (a < b && c >= d) { return 1; }", "if (a >= b && c >= d) { return 1; }"},
			{3, "relational", "const e = x === y, g = x !== y;", "const e = x !== y, g = x !== y;"},
			{4, "relational", "const h = x == null;", "const h = x != null;"},
			{5, "relational", "const k = x != y;", "const k = x == y;"},
			{6, "logical", "const ok = a || b && c;", "const ok = a && b && c;"},
			{8, "relational", "return a > b ? c <= d : e;", "return a <= b ? c <= d : e;"},
		},
	},
	{
		name: "negate-condition",
		path: "a.js",
		src: "function f(a, done, flag) {\n" +
			"  if (ready) {\n" +
			"    go();\n" +
			"  } else if (flag) {\n" +
			"    go();\n" +
			"  }\n" +
			"  while (!done) { done = step(); }\n" +
			"  if (!a.ok(done)) go();\n" +
			"  if (!a instanceof B) go();\n" +
			"  if (ready &&\n" +
			"      flag) go();\n" +
			"  do { step(); } while (flag);\n" +
			"}\n",
		lines: []int{2, 4, 7, 8, 9, 10, 12},
		want: []tokBrief{
			{2, "negate-condition", "if (ready) {", "if (!(ready)) {"},
			{4, "negate-condition", "} else if (flag) {", "} else if (!(flag)) {"},
			{7, "negate-condition", "while (!done) { done = step(); }", "while (done) { done = step(); }"},
			{8, "negate-condition", "if (!a.ok(done)) go();", "if (a.ok(done)) go();"},
			{9, "negate-condition", "if (!a instanceof B) go();", "if (!(!a instanceof B)) go();"},
			{10, "logical", "if (ready &&", "if (ready ||"},
			{12, "negate-condition", "do { step(); } while (flag);", "do { step(); } while (!(flag));"},
		},
	},
	{
		name: "arithmetic, binary only, no string concatenation",
		path: "a.js",
		src: "function* f(a, b, c, name) {\n" +
			"  const t = a + b * c;\n" +
			"  const s = 'x' + name;\n" +
			"  const u = `${a}` + b, w = b + `x${a}`;\n" +
			"  const n = -a;\n" +
			"  const q = a / b;\n" +
			"  const r = /a+b/.test(name);\n" +
			"  const d = a - -b;\n" +
			"  yield* other(a);\n" +
			"  const p = a ** 2 % c;\n" +
			"}\n",
		lines: []int{2, 3, 4, 5, 6, 7, 8, 9, 10},
		want: []tokBrief{
			{2, "arithmetic", "const t = a + b * c;", "const t = a - b * c;"},
			{6, "arithmetic", "const q = a / b;", "const q = a * b;"},
			{8, "arithmetic", "const d = a - -b;", "const d = a + -b;"},
		},
	},
	{
		name: "increment",
		path: "a.js",
		src: "function f(i, n, x) {\n" +
			"  i++;\n" +
			"  --n;\n" +
			"  x += 1;\n" +
			"  for (let j = 0; j !== n; j++) {}\n" +
			"}\n",
		lines: []int{2, 3, 4, 5},
		want: []tokBrief{
			{2, "increment", "i++;", "i--;"},
			{3, "increment", "--n;", "++n;"},
			{5, "relational", "for (let j = 0; j !== n; j++) {}", "for (let j = 0; j === n; j++) {}"},
		},
	},
	{
		name: "zero-return",
		path: "a.js",
		src: "class A {\n" +
			"  f(x) { return compute(x); }\n" +
			"  g() {\n" +
			"    return true;\n" +
			"  }\n" +
			"  h() { return false }\n" +
			"  i() { return null; }\n" +
			"  j() { return; }\n" +
			"  k() { return this.cache; }\n" +
			"  m() {\n" +
			"    return {\n" +
			"      a: 1,\n" +
			"    };\n" +
			"  }\n" +
			"  n(x) {\n" +
			"    if (x) return compute(x)\n" +
			"    return\n" +
			"  }\n" +
			"  o() { return void 0; }\n" +
			"}\n",
		lines: []int{2, 4, 6, 7, 8, 9, 11, 16, 17, 19},
		want: []tokBrief{
			{2, "zero-return", "f(x) { return compute(x); }", "f(x) { return undefined; }"},
			{4, "zero-return", "return true;", "return false;"},
			{6, "zero-return", "h() { return false }", "h() { return true }"},
			{11, "zero-return", "return {", "return undefined;"},
			{16, "negate-condition", "if (x) return compute(x)", "if (!(x)) return compute(x)"},
		},
	},
	{
		name: "remove-statement leaves an empty statement",
		path: "a.js",
		src: "async function f(items, client, x) {\n" +
			"  items.push(x);\n" +
			"  await client.close();\n" +
			"  items.forEach((y) => {\n" +
			"    x = y;\n" +
			"  });\n" +
			"  client?.reset?.()\n" +
			"  notify(x)\n" +
			"  items[0] = x;\n" +
			"  switch (x) {\n" +
			"    case 1:\n" +
			"      notify(x);\n" +
			"  }\n" +
			"  if (x)\n" +
			"    notify(x)\n" +
			"}\n",
		lines: []int{2, 3, 4, 7, 8, 9, 12, 15},
		want: []tokBrief{
			{2, "remove-statement", "items.push(x);", ";"},
			{3, "remove-statement", "await client.close();", ";"},
			{4, "remove-statement", "items.forEach((y) => {", ";"},
			{7, "remove-statement", "client?.reset?.()", ";"},
			{8, "remove-statement", "notify(x)", ";"},
			{12, "remove-statement", "notify(x);", ";"},
			{15, "remove-statement", "notify(x)", ";"},
		},
	},
	{
		name: "nothing inside strings, templates, comments, regexes",
		path: "a.js",
		src: "function f(a, b) {\n" +
			"  const s = 'a < b && c === d' + \"a - b\";\n" +
			"  const t = `${a < b} a + b ${`${a - b}`}`;\n" +
			"  const u = `\n" +
			"    if (a < b) { return a + b; }\n" +
			"  `;\n" +
			"  const x = 1; // a < b || a == b\n" +
			"  const y = 2; /* a > b */\n" +
			"  const r = /a<b|c>=d/g;\n" +
			"}\n",
		lines: []int{2, 3, 4, 5, 6, 7, 8, 9},
		want:  nil,
	},
	{
		name: "nothing inside JSX markup, expressions mutated",
		path: "a.jsx",
		src: "function C({ a, b }) {\n" +
			"  return (\n" +
			"    <div className=\"x\">\n" +
			"      <p>a > b</p>\n" +
			"      <Foo bar={1} />\n" +
			"      {a > b}\n" +
			"    </div>\n" +
			"  );\n" +
			"}\n" +
			"function D() {\n" +
			"  return <p>\n" +
			"    hi</p>\n" +
			"}\n",
		lines: []int{3, 4, 5, 6, 7, 11, 12},
		want: []tokBrief{
			{6, "relational", "{a > b}", "{a <= b}"},
			{11, "zero-return", "return <p>", "return undefined"},
		},
	},
	{
		name: "parameter defaults of methods and arrows are frozen",
		path: "a.js",
		src: "class A {\n" +
			"  m(a = 1 + 2) { return a; }\n" +
			"}\n" +
			"const f = (a = b - 1) => a * 2;\n" +
			"const g = c ? h(a - 1) : {};\n",
		lines: []int{2, 4, 5},
		want: []tokBrief{
			{2, "zero-return", "m(a = 1 + 2) { return a; }", "m(a = 1 + 2) { return undefined; }"},
			{4, "arithmetic", "const f = (a = b - 1) => a * 2;", "const f = (a = b - 1) => a / 2;"},
			{5, "arithmetic", "const g = c ? h(a - 1) : {};", "const g = c ? h(a + 1) : {};"},
		},
	},
	{
		name: "TypeScript: generics, types, decorators, headers frozen",
		path: "a.ts",
		src: "import { Injectable } from '@angular/core';\n" +
			"type X = A | B;\n" +
			"interface I {\n" +
			"  a: number;\n" +
			"  f(x: number): void;\n" +
			"}\n" +
			"@Component({ n: 1 + 2 })\n" +
			"class K<T> extends B<T> implements C {\n" +
			"  m: Map<string, Array<number>> = new Map();\n" +
			"}\n" +
			"function f<T>(a: T, b = 1 + 2): Promise<T> {\n" +
			"  const v = <Foo>bar;\n" +
			"  const z = foo<Bar>(a) + 1;\n" +
			"  if (a.length < b.length) {}\n" +
			"  for (let i = 0; i < n; i++) {}\n" +
			"  return x as Array<T>;\n" +
			"}\n" +
			"export type { Y } from './y';\n",
		lines: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18},
		want: []tokBrief{
			{13, "arithmetic", "const z = foo<Bar>(a) + 1;", "const z = foo<Bar>(a) - 1;"},
			{14, "relational", "if (a.length < b.length) {}", "if (a.length >= b.length) {}"},
			{15, "boundary", "for (let i = 0; i < n; i++) {}", "for (let i = 0; i <= n; i++) {}"},
			{16, "zero-return", "return x as Array<T>;", "return undefined;"},
		},
	},
	{
		name: "TSX: a generic arrow is no element",
		path: "a.tsx",
		src: "const id = <T,>(x: T): T => x;\n" +
			"const el = <div>{a < b}</div>;\n",
		lines: []int{1, 2},
		want:  []tokBrief{{2, "relational", "const el = <div>{a < b}</div>;", "const el = <div>{a >= b}</div>;"}},
	},
	{
		name: "arid lines",
		path: "a.mjs",
		src: "import x from 'y';\n" +
			"export { a } from './a';\n" +
			"export function f(a, b) {\n" +
			"  console.log(a + b);\n" +
			"  console.error(\n" +
			"    a - b);\n" +
			"  logger.info(a < b);\n" +
			"  debug('x', a + b);\n" +
			"  try {\n" +
			"    go(a);\n" +
			"  } catch (err) {\n" +
			"    throw new AppError(err.code + 1, { cause: err });\n" +
			"  }\n" +
			"  throw new AppError(a + 1);\n" +
			"}\n" +
			"export class A { get v() { return this.value; } }\n" +
			"function go() {}\n" +
			"class AppError extends Error {}\n",
		lines: []int{1, 2, 4, 5, 6, 7, 8, 12, 14, 16},
		want:  []tokBrief{{14, "arithmetic", "throw new AppError(a + 1);", "throw new AppError(a - 1);"}},
	},
	{
		name:  "one mutant per line, lines asked twice, out of range ignored",
		path:  "a.js",
		src:   "var x = a < b === c && d + 1;\n",
		lines: []int{1, 1, 0, -3, 2, 99},
		want:  []tokBrief{{1, "relational", "var x = a < b === c && d + 1;", "var x = a >= b === c && d + 1;"}},
	},
	{
		name:  "glued tokens are not made: a-+b stays",
		path:  "a.js",
		src:   "var x = a-+b;\n",
		lines: []int{1},
		want:  nil,
	},
}

func TestJSMutants(t *testing.T) {
	var checks []jsNodeCheck
	for _, tc := range jsMutantCases {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := jsMutator{}.Mutants(tc.path, []byte(tc.src), tc.lines, nil)
			if err != nil {
				t.Fatalf("Mutants: %v", err)
			}
			if diff := cmp.Diff(tc.want, tokBriefs(ms)); diff != "" {
				t.Errorf("mutants (-want +got):\n%s", diff)
			}
			e := ext(tc.path)
			for _, m := range ms {
				if m.File != tc.path {
					t.Errorf("File = %q", m.File)
				}
				if _, ok := jsts.Tokenize(string(m.Src), !jsNoJSX[e]); !ok {
					t.Errorf("line %d: the mutant does not tokenize:\n%s", m.Line, m.Src)
				}
			}
			if e == ".js" || e == ".mjs" {
				checks = append(checks, jsNodeCheck{tc.name + " (original)", tc.src, e == ".mjs"})
				for _, m := range ms {
					checks = append(checks, jsNodeCheck{tc.name + " line " + itoa(m.Line), string(m.Src), e == ".mjs"})
				}
			}
		})
	}
	jsNodeCheckAll(t, checks)
}

// jsNodeCheck is a source for node to compile, as a script or a module.
type jsNodeCheck struct {
	Name   string `json:"name"`
	Src    string `json:"src"`
	Module bool   `json:"module"`
}

// jsNodeCheckAll has node compile every source (without running it) in one
// process, the check node --check makes of one file, and fails the test
// for each it rejects. Without node on PATH it does nothing: the sources
// were still checked with the tokenizer.
func jsNodeCheckAll(t *testing.T, checks []jsNodeCheck) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Logf("node not on PATH: mutants checked with the tokenizer only")
		return
	}
	in, err := json.Marshal(checks)
	if err != nil {
		t.Fatal(err)
	}
	const script = `const vm = require('vm');
for (const c of JSON.parse(require('fs').readFileSync(0, 'utf8'))) {
  try {
    if (c.module) new vm.SourceTextModule(c.src); else new vm.Script(c.src);
  } catch (e) { console.log(c.name + ': ' + e.message + '\n' + c.src + '\n---'); }
}
`
	cmd := exec.Command(node, "--no-warnings", "--experimental-vm-modules", "-e", script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Errorf("sources node does not compile:\n%s", out)
	}
}

// itoa is strconv.Itoa, kept short for test names.
func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestJSMutantsExtraArid(t *testing.T) {
	src := []byte("function f(n) {\n  metrics.incr(n + 1);\n  total = n + 1;\n}\n")
	arid := &Arid{Extra: []*regexp.Regexp{regexp.MustCompile(`^metrics\.`)}}
	ms, err := jsMutator{}.Mutants("a.ts", src, []int{2, 3}, arid)
	if err != nil {
		t.Fatal(err)
	}
	want := []tokBrief{{3, "arithmetic", "total = n + 1;", "total = n - 1;"}}
	if diff := cmp.Diff(want, tokBriefs(ms)); diff != "" {
		t.Errorf("mutants (-want +got):\n%s", diff)
	}
	ms, _ = jsMutator{}.Mutants("a.ts", src, []int{2, 3}, nil)
	if len(ms) != 2 {
		t.Errorf("without the extra pattern: %d mutants, want 2", len(ms))
	}
}

func TestJSMutantsDeterministic(t *testing.T) {
	var src strings.Builder
	for _, tc := range jsMutantCases {
		if ext(tc.path) == ".ts" {
			src.WriteString(tc.src)
		}
	}
	var lines []int
	for i := 1; i <= strings.Count(src.String(), "\n"); i++ {
		lines = append(lines, i)
	}
	first, err := jsMutator{}.Mutants("a.ts", []byte(src.String()), lines, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, _ := jsMutator{}.Mutants("a.ts", []byte(src.String()), lines, nil)
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("mutants differ between runs:\n%s", diff)
		}
	}
}

func TestJSMutantsBrokenSource(t *testing.T) {
	for _, src := range []string{"const s = 'abc\n", "foo(a,\n", "}\n", "const t = `${a\n", "f(a]\n"} {
		if ms, err := (jsMutator{}).Mutants("a.js", []byte(src), []int{1}, nil); err == nil || ms != nil {
			t.Errorf("Mutants(%q) = %v, %v; want no mutants and an error", src, ms, err)
		}
	}
}

func TestJSFor(t *testing.T) {
	for _, p := range []string{"a.js", "b.JSX", "c.mjs", "d.cjs", "e.ts", "f.tsx", "g.mts", "h.cts"} {
		if m := For(p); m == nil || m.Name() != "javascript" {
			t.Errorf("For(%s) = %v", p, m)
		}
	}
	for _, p := range []string{"a.json", "types/index.d.ts", "b.d.mts"} {
		if m := For(p); m != nil && m.Name() == "javascript" {
			t.Errorf("For(%s) is javascript", p)
		}
	}
}

func FuzzJSMutants(f *testing.F) {
	for _, tc := range jsMutantCases {
		f.Add(tc.src, uint8(0), jsNoJSX[ext(tc.path)])
	}
	f.Add("if(a<b)x=1\nelse while(!y)y--\nreturn a\n+b\n", uint8(1), false)
	f.Add("x = <a b={c > d}>{`${e}` + f}</a>; y = a/b/c; z = /re/.test(s) ? -1 : +2", uint8(0), false)
	f.Fuzz(func(t *testing.T, src string, stride uint8, ts bool) {
		p := "a.js"
		if ts {
			p = "a.ts"
		}
		lines := fuzzLines(src, stride)
		ms, err := jsMutator{}.Mutants(p, []byte(src), lines, nil)
		checkFuzzMutants(t, src, lines, ms, err)
		for _, m := range ms {
			if _, ok := jsts.Tokenize(string(m.Src), !ts); !ok {
				t.Fatalf("mutant on line %d does not tokenize:\n%s", m.Line, m.Src)
			}
		}
	})
}
