package jsts

import (
	"fmt"
	pathpkg "path"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func FuzzExtract(f *testing.F) {
	seeds := []string{
		"it(\"a\", () => {\n  const check = (v) => { expect(v).toBe(1); };\n  let other = async x => { expect(x).toBe(2); };\n  function third() { expect(3).toBe(3); }\n  var f = function named(a) { expect(a).toBe(4); };\n  if (true) return;\n  return request(app)\n    .expect(200);\n});\n",
		original,
		reformatted,
		"describe.each([[1, 2]])('a %i', (x) => { it.skip(`t ${x}`, () => { expect(x).toBe(1) }) })",
		"test.each`\n a | b\n ${1} | ${'x'}\n`('$a $b', ({a}) => { assert.equal(a, 1) })",
		"it('jsx', () => { render(<p>don't {x}</p>); expect(screen.getByText(/don't/)).toBeVisible() })",
		"test('n', { skip: 'later' }, async (t) => { t.skip(); await t.test('sub', () => {}) })",
		"try { a() } catch {}\n// eslint-disable-next-line no-console\nexport const { a, b: [c] } = o\nmodule.exports = { d }",
		"if (x === 'admin') { y = z == 42 ? 1 : 2 }\nswitch (k) { case 'v': }",
		"it('unclosed', () => {\n  expect(a).toEqual(`${b}`\n\n\n  it('next', () => {})",
		"const f = <T,>(x: T) => x; const g = a < b > c; x = /re/g.exec(s) / 2",
		"`${`${`",
		"var request = require('supertest')\ndescribe('HEAD', function(){\n  it('x', function(done){\n    request(app)\n    .head('/tobi')\n    .expect('x-method', /head/)\n    .expect(200, function(err, res){ assert.deepEqual(res.headers, h); done() })\n  })\n})",
		"import st from 'supertest'\nlet agent\nbeforeEach(() => { agent = st.agent(app) })\nit('a', async () => { var t = agent.post('/'); t.set('A', 'b'); await t.expect(413, done)\n request(app)[m]('/').expect(utils.shouldNotHaveHeader('X'))\n})",
		"it('should', () => { res.body.should.have.property('a', 1); should(x).not.be.exactly(y); (5).should.be.ok() })",
		"function shouldHaveBody (buf) {\n  return function (res) { assert.strictEqual(res.text, buf.toString('hex')) }\n}\nconst macro = (t, i) => t.is(parse(i), 1)\nexports.shouldHaveBody = shouldHaveBody",
		"request(app).get('/').expect(",
		"x = request(a).get(x = request(b).expect(y = request(c",
		"// TODO: x\nfunction f() { throw new a.b.NotImplemented(`TODO ${x}`, y) }\nconst t = `// FIXME ${/* XXX */ 1}`; throw 'stub'; g.throw(new Error('TODO')); throw new Error(\n",
		"class P { parse(s) { if (s === 'a') return 1; if (5 == s.k) { this.k = true } switch (s.kind) { case 'x': case -2: return ''; case Y: return 3 } xs.map(function (x) { return null }); return\n 1 } }\nconst g = async (x): T => { throw new Error(x) }",
		"class P { async open(): Promise<void> { await this.page.goto(`/${path(x)}`) } }\ntest.beforeEach(async ({ page }) => { await new P(page).open() })\ntest('t', async () => { make<U>()?.x?.(); @D() m() {} f(a) ? g() : h(); })",
		"import { total } from '../src/x'\nvi.mock('../src/x', async () => { return { total: vi.fn(() => 5), async w() { return 'a' }, ...(await vi.importActual('../src/x')) } })\nit('m', () => { const s = vi.spyOn(o, 'k'); s.mockReturnValueOnce([1]).mockResolvedValue({a: -1}); (total as Mock).mockImplementation(function () { return true }); x.y = jest.fn().mockReturnValue(null); const r = total(); expect(r).toBe(5) })",
	}
	for _, s := range seeds {
		f.Add("x.test.tsx", s)
		f.Add("x.test.ts", s)
	}
	f.Add("src/x.ts", reformatted)
	f.Add("src/x.ts", "export function f<T>(): { a: 1 } { return 0 }\nconst g = async (x): P<{b}> => ({})\nclass C extends B<{}> {\n  x = 1\n  m() { return ((null)) }\n  get n() { return 1 }\n  k = () => `t`\n}\nfunction* h() { return 0 }\nlet i = function () { return -1 }\n")
	f.Add("test/a.test.js", "function check() {}\nit('a', () => {\n  void check;\n  [1].forEach(check);\n  const s = `check ${f}`;\n});\n")
	f.Fuzz(func(t *testing.T, path, src string) {
		if !New().Handles(path) {
			path = "x.test.js"
		}
		New().References(path, []byte(src), map[string]bool{"check": true, "f": true})
		file, err := New().Extract(path, []byte(src))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		lines := strings.Count(src, "\n") + 1
		scantest.CheckPlaceholders(t, src, file.Placeholders)
		prodPath := "src/" + strings.NewReplacer(".test.", ".", ".spec.", ".").Replace(pathpkg.Base(path))
		prod, err := New().Extract(prodPath, []byte(src))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		scantest.CheckFuncs(t, src, prod.Funcs)
		scantest.CheckFuncNames(t, file)
		if len(file.HelperAssertions) > maxHelperAssertions {
			t.Errorf("%d helper assertions", len(file.HelperAssertions))
		}
		for k, a := range file.HelperAssertions {
			if a.Line < 1 || a.Line > lines || a.Kind == "" {
				t.Errorf("helper assertion %+v outside the %d lines of the source", a, lines)
			}
			if k > 0 && a.Line < file.HelperAssertions[k-1].Line {
				t.Errorf("helper assertions out of order: %+v after %+v", a, file.HelperAssertions[k-1])
			}
		}
		seen := map[string]bool{}
		for _, tc := range file.Tests {
			if tc.ID == "" {
				t.Errorf("empty id in %+v", tc)
			}
			if seen[tc.ID] {
				t.Errorf("duplicate id %q", tc.ID)
			}
			seen[tc.ID] = true
			if tc.Line < 1 || tc.Line > tc.EndLine {
				t.Errorf("%s: Line %d EndLine %d", tc.ID, tc.Line, tc.EndLine)
			}
			if tc.Dynamic && !strings.Contains(tc.ID, "*") {
				t.Errorf("dynamic id %q has no *", tc.ID)
			}
			if len(tc.Literals) > maxLiterals {
				t.Errorf("%s: %d literals", tc.ID, len(tc.Literals))
			}
			if len(tc.Fingerprint) != 16 {
				t.Errorf("%s: fingerprint %q", tc.ID, tc.Fingerprint)
			}
		}
		if err := file.CheckCalls(); err != nil {
			t.Error(err)
		}
		scantest.CheckMocks(t, src, file)
	})
}

// largeSource generates a realistic test file of about n bytes.
func largeSource(n int) string {
	var b strings.Builder
	b.WriteString("import { describe, it, expect, vi } from 'vitest'\nimport { render } from './render'\n\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "describe('module %d', () => {\n", i)
		fmt.Fprintf(&b, "  const fixture = { id: %d, name: `fixture ${%d}`, tags: ['a', \"b\"], re: /x\\/%d/g }\n", i, i, i)
		b.WriteString("  beforeEach(() => { vi.resetAllMocks() })\n")
		for j := range 5 {
			fmt.Fprintf(&b, "  it('case %d handles input %d', async () => {\n", j, i*j)
			b.WriteString("    // arrange\n")
			fmt.Fprintf(&b, "    const out = await run(fixture, { retries: %d, label: 'run-%d' })\n", j, j)
			b.WriteString("    expect(out.status).toBe(200)\n")
			b.WriteString("    expect(out.items).toHaveLength(3)\n")
			b.WriteString("    expect(out.body).toEqual({ ok: true, value: fixture.id / 2 })\n")
			b.WriteString("    if (out.status !== 'done') { /* istanbul ignore next */ return }\n")
			b.WriteString("  })\n")
		}
		fmt.Fprintf(&b, "  it.each([[1, 2], [3, 4]])('adds %%i and %%i', (a, b) => { expect(a + b).toBeGreaterThan(0) })\n")
		b.WriteString("})\n\n")
	}
	return b.String()
}

func BenchmarkExtract(b *testing.B) {
	src := []byte(largeSource(1 << 20))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New().Extract("big.test.ts", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLargeFile extracts a 1 MB file completely; its speed is BenchmarkExtract's job.
func TestLargeFile(t *testing.T) {
	src := []byte(largeSource(1 << 20))
	f, err := New().Extract("big.test.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tests) < 1000 {
		t.Fatalf("only %d tests in the generated file", len(f.Tests))
	}
}

func FuzzLex(f *testing.F) {
	for _, s := range []string{
		original,
		"x = a / b / c; y = /re[/]/g; `a${`b${c}`}d`",
		"`head ${a} middle ${ {b: [c]} } tail`",
		"<div className='a'>don't {x ? <b>y</b> : null}</div>",
		"const f = <T,>(x: T) => x // comment\n/* block */ 'str\\'s' \"q\"",
		"#!/usr/bin/env node\nlet #p = 0x1f_00n ?. .5e-3",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, src string, jsx bool) {
		l := lex(src, jsx)
		prevEnd, prevLine := 0, 1
		for _, tk := range l.toks {
			off := int(tk.Off)
			if off < prevEnd || tk.endOff() > len(src) || tk.Text == "" {
				t.Fatalf("token %q at %d overlaps %d or is out of range", tk.Text, off, prevEnd)
			}
			if src[off:tk.endOff()] != tk.Text {
				t.Fatalf("token text %q != source %q", tk.Text, src[off:tk.endOff()])
			}
			if tk.Line < prevLine {
				t.Fatalf("line went back from %d to %d", prevLine, tk.Line)
			}
			prevEnd, prevLine = tk.endOff(), tk.Line
		}
		tr := newTree(src, jsx)
		// Brackets pair both ways; a template middle links forward to the
		// next part, so the chain head -> middle -> tail only goes forward.
		for i, m := range tr.match {
			if int(m) > i && tr.toks[m].Kind != tkTemplateMiddle && int(tr.match[m]) != i {
				t.Fatalf("match is not symmetric at %d", i)
			}
		}
	})
}
