package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func TestExtractStructure(t *testing.T) {
	tests := []struct {
		name string
		path string
		src  string
		want []testRow
	}{
		{
			name: "jest nested describes and modifiers",
			path: "src/cart.test.ts",
			src: `import { Cart } from './cart'

describe('Cart', () => {
  describe('add', () => {
    it('adds an item', () => {
      expect(new Cart().add('a').size).toBe(1)
    })
    it.only('merges duplicates', () => {
      expect(cart.size).toBe(1)
    })
    it.concurrent.skip('is slow', async () => {
      await sleep(100)
    })
    test.todo('handles quantity overflow')
  })
  describe.skip('remove', () => {
    it('removes', () => { expect(cart.size).toBe(0) })
    fit('focused in skipped group', () => {})
  })
  xit('disabled', () => {})
  fdescribe('focused', () => {
    specify('inherits focus', () => {})
  })
  test.failing('known bug', () => { expect(total()).toBe(3) })
})
`,
			want: []testRow{
				{ID: "Cart > add > adds an item", Line: 5, EndLine: 7},
				{ID: "Cart > add > merges duplicates", Line: 8, EndLine: 10, Only: true},
				{ID: "Cart > add > is slow", Line: 11, EndLine: 13, Skip: skip(testscan.SkipMarked, 11)},
				{ID: "Cart > add > handles quantity overflow", Line: 14, EndLine: 14, Skip: skip(testscan.SkipTodo, 14)},
				{ID: "Cart > remove > removes", Line: 17, EndLine: 17, Skip: skip(testscan.SkipMarked, 16)},
				{ID: "Cart > remove > focused in skipped group", Line: 18, EndLine: 18, Skip: skip(testscan.SkipMarked, 16), Only: true},
				{ID: "Cart > disabled", Line: 20, EndLine: 20, Skip: skip(testscan.SkipMarked, 20)},
				{ID: "Cart > focused > inherits focus", Line: 22, EndLine: 22, Only: true},
				{ID: "Cart > known bug", Line: 24, EndLine: 24, Skip: skip(testscan.SkipXFail, 24)},
			},
		},
		{
			name: "mocha bdd with this.skip and pending tests",
			path: "test/api.js",
			src: `const { expect } = require('chai')

describe('API', function () {
  context('when logged in', function () {
    it('lists users', async function () {
      const res = await api.get('/users')
      expect(res.status).to.equal(200)
    })
    it('needs a token', function () {
      if (!process.env.TOKEN) this.skip()
      expect(token).to.be.ok
    })
    it('is pending')
    specify('cannot run', function () {
      this.skip()
    })
    xspecify('disabled', function () {})
  })
})
`,
			want: []testRow{
				{ID: "API > when logged in > lists users", Line: 5, EndLine: 8},
				{ID: "API > when logged in > needs a token", Line: 9, EndLine: 12, Skip: skip(testscan.SkipConditional, 10)},
				{ID: "API > when logged in > is pending", Line: 13, EndLine: 13, Skip: skip(testscan.SkipMarked, 13)},
				{ID: "API > when logged in > cannot run", Line: 14, EndLine: 16, Skip: skip(testscan.SkipCall, 15)},
				{ID: "API > when logged in > disabled", Line: 17, EndLine: 17, Skip: skip(testscan.SkipMarked, 17)},
			},
		},
		{
			name: "node:test options and context skips",
			path: "test/parse.test.mjs",
			src: `import test, { describe, it } from 'node:test'
import assert from 'node:assert/strict'

test('parses numbers', () => {
  assert.equal(parse('1'), 1)
})
test('skipped by option', { skip: true }, () => {
  assert.equal(parse('x'), null)
})
test('skipped on windows', { skip: process.platform === 'win32' }, () => {
  assert.ok(parse('a'))
})
test('todo by option', { todo: 'needs a parser' }, () => {})
test('not skipped', { skip: false, timeout: 100 }, () => {
  assert.ok(true)
})
describe('suite', { only: true }, () => {
  it('skips itself', (t) => {
    t.skip('flaky')
    assert.equal(a, b)
  })
  it('todo call', async (t) => {
    t.todo()
  })
})
`,
			want: []testRow{
				{ID: "parses numbers", Line: 4, EndLine: 6},
				{ID: "skipped by option", Line: 7, EndLine: 9, Skip: skip(testscan.SkipMarked, 7)},
				{ID: "skipped on windows", Line: 10, EndLine: 12, Skip: skip(testscan.SkipConditional, 10)},
				{ID: "todo by option", Line: 13, EndLine: 13, Skip: &testscan.Skip{Kind: testscan.SkipTodo, Reason: "needs a parser", Line: 13}},
				{ID: "not skipped", Line: 14, EndLine: 16},
				{ID: "suite > skips itself", Line: 18, EndLine: 21, Only: true, Skip: &testscan.Skip{Kind: testscan.SkipCall, Reason: "flaky", Line: 19}},
				{ID: "suite > todo call", Line: 22, EndLine: 24, Only: true, Skip: skip(testscan.SkipTodo, 23)},
			},
		},
		{
			name: "vitest conditional modifiers and context skip",
			path: "src/__tests__/fs.ts",
			src: `import { describe, test, expect } from 'vitest'

describe.runIf(process.platform === 'linux')('linux only', () => {
  test('reads /proc', () => { expect(read()).toBeTruthy() })
})
test.skipIf(isCI)('local only', () => {})
test.skipIf(true)('always skipped', () => {})
test.runIf(true)('always runs', () => {})
test.fails('expected failure', () => { expect(1).toBe(2) })
test.sequential.only('focused', () => {})
test('skips via context', ({ skip }) => {
  skip()
  expect(x).toBe(1)
})
test('ctx param', (ctx) => {
  ctx.skip()
})
`,
			want: []testRow{
				{ID: "linux only > reads /proc", Line: 4, EndLine: 4, Skip: &testscan.Skip{Kind: testscan.SkipConditional, Line: 3, Platform: "!linux"}},
				{ID: "local only", Line: 6, EndLine: 6, Skip: skip(testscan.SkipConditional, 6)},
				{ID: "always skipped", Line: 7, EndLine: 7, Skip: skip(testscan.SkipMarked, 7)},
				{ID: "always runs", Line: 8, EndLine: 8},
				{ID: "expected failure", Line: 9, EndLine: 9, Skip: skip(testscan.SkipXFail, 9)},
				{ID: "focused", Line: 10, EndLine: 10, Only: true},
				{ID: "skips via context", Line: 11, EndLine: 14, Skip: skip(testscan.SkipCall, 12)},
				{ID: "ctx param", Line: 15, EndLine: 17, Skip: skip(testscan.SkipCall, 16)},
			},
		},
		{
			name: "playwright describe and in-body skips",
			path: "e2e/login.spec.ts",
			src: `import { test, expect } from '@playwright/test'

test.describe('login', () => {
  test.beforeEach(async ({ page }) => { await page.goto('/') })
  test('works', async ({ page }) => {
    await expect(page).toHaveTitle(/Login/)
  })
  test('not on webkit', async ({ page, browserName }) => {
    test.skip(browserName === 'webkit', 'flaky on webkit')
    await expect(page.locator('h1')).toHaveText('Login')
  })
  test.describe.fixme('broken', () => {
    test('inner', async () => {})
  })
})
`,
			want: []testRow{
				{ID: "login > works", Line: 5, EndLine: 7},
				{ID: "login > not on webkit", Line: 8, EndLine: 11, Skip: &testscan.Skip{Kind: testscan.SkipConditional, Reason: "flaky on webkit", Line: 9}},
				{ID: "login > broken > inner", Line: 13, EndLine: 13, Skip: skip(testscan.SkipMarked, 12)},
			},
		},
		{
			name: "dynamic titles and duplicates",
			path: "src/rules.test.js",
			src: `for (const rule of rules) {
  it(` + "`applies ${rule.name}`" + `, () => {
    expect(apply(rule)).toBe(true)
  })
}
cases.forEach((c) => {
  test(c.title, () => { expect(run(c)).toEqual(c.want) })
})
it('same name', () => {})
it('same name', () => {})
it('con' + 'cat', () => {})
it('prefix ' + suffix, () => {})
describe(` + "`${mode} mode`" + `, () => {
  it('works', () => {})
})
test(helperTitle)
`,
			want: []testRow{
				{ID: "applies *", Line: 2, EndLine: 4, Dynamic: true},
				{ID: "*", Line: 7, EndLine: 7, Dynamic: true},
				{ID: "same name", Line: 9, EndLine: 9},
				{ID: "same name #2", Line: 10, EndLine: 10},
				{ID: "concat", Line: 11, EndLine: 11},
				{ID: "prefix *", Line: 12, EndLine: 12, Dynamic: true},
				{ID: "* mode* > works", Line: 14, EndLine: 14, Dynamic: true},
			},
		},
		{
			name: "early return before the first assertion",
			path: "src/db.test.ts",
			src: `describe('db', () => {
  it('connects', async () => {
    if (!process.env.DATABASE_URL) {
      return
    }
    expect(await connect()).toBeDefined()
  })
  it('returns the promise', () => {
    return load().then((v) => expect(v).toBe(2))
  })
  it('returns after asserting', () => {
    expect(a).toBe(1)
    return
  })
  it('bails out', () => {
    return
    expect(b).toBe(2)
  })
})
`,
			want: []testRow{
				{ID: "db > connects", Line: 2, EndLine: 7, Skip: skip(testscan.SkipEarlyReturn, 4)},
				{ID: "db > returns the promise", Line: 8, EndLine: 10},
				{ID: "db > returns after asserting", Line: 11, EndLine: 14},
				{ID: "db > bails out", Line: 15, EndLine: 18, Skip: skip(testscan.SkipEarlyReturn, 16)},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, tc.path, tc.src)
			if diff := cmp.Diff(tc.want, rows(f)); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			if f.Partial {
				t.Errorf("Partial = true for a complete file")
			}
		})
	}
}

func TestExtractEachTables(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
		dyn  bool
	}{
		{
			name: "printf placeholders over array rows",
			src: `test.each([
  [1, 1, 2],
  [1, 2, 3],
  [-1, 0.5, -0.5],
])('add(%i, %d) -> %s', (a, b, want) => {
  expect(add(a, b)).toBe(want)
})`,
			want: []string{"add(1, 1) -> 2", "add(1, 2) -> 3", "add(-1, 0.5) -> -0.5"},
		},
		{
			name: "single values fill one placeholder; %p and %#",
			src: `it.each(['a', "b%s", null])('case %# is %p, %s stays', (v) => {
  expect(check(v)).toBe(true)
})`,
			want: []string{`case 0 is "a", %s stays`, `case 1 is "b%s", %s stays`, `case 2 is null, %s stays`},
		},
		{
			name: "%j and %%",
			src:  `it.each([['a', { x: [1, 'b'] }, 5]])('%s %j 100%% %d%%', () => {})`,
			want: []string{`a {"x":[1,"b"]} 100% 5%`},
		},
		{
			name: "object rows with $variables",
			src: `describe.each([
  { input: 'abc', expected: { len: 3 } },
  { input: '', expected: { len: 0 } },
] as const)('parse($input) -> $expected.len', ({ input, expected }) => {
  it('parses', () => { expect(parse(input)).toEqual(expected) })
})`,
			want: []string{"parse(abc) -> 3 > parses", "parse() -> 0 > parses"},
		},
		{
			name: "tagged template table",
			src:  "test.each`\n  a      | b    | expected\n  ${1}   | ${1} | ${2}\n  ${'x'} | ${[1]} | ${{ k: 1 }}\n`('$a + $b = $expected', ({ a, b, expected }) => {\n  expect(a + b).toEqual(expected)\n})",
			want: []string{`1 + 1 = 2`, `x + [1] = {"k": 1}`},
		},
		{
			name: "arrays printed with %s and %o",
			src:  `test.each([[[1, 2], { a: 'x' }]])('%s with %o', (arr, obj) => {})`,
			want: []string{`[ 1, 2 ] with { a: 'x' }`},
		},
		{
			name: "rows from a variable are dynamic",
			src:  `test.each(cases)('handles %s', (c) => { expect(run(c)).toBe(true) })`,
			want: []string{"handles *"},
			dyn:  true,
		},
		{
			name: "template table with an expression cell is dynamic",
			src:  "it.each`\n a | b\n ${x} | ${2}\n`('$a and $b', () => {})",
			want: []string{"* and *"},
			dyn:  true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, "x.test.ts", tc.src)
			if diff := cmp.Diff(tc.want, scantest.IDs(f)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			for _, c := range f.Tests {
				if c.Dynamic != tc.dyn {
					t.Errorf("%s: Dynamic = %v, want %v", c.ID, c.Dynamic, tc.dyn)
				}
			}
		})
	}
}

func TestEachRowsHaveDistinctFingerprints(t *testing.T) {
	f := extract(t, "x.test.js", `test.each([[1, 2], [2, 4]])('double %i', (a, b) => { expect(a * 2).toBe(b) })`)
	if len(f.Tests) != 2 {
		t.Fatalf("got %d tests, want 2", len(f.Tests))
	}
	if f.Tests[0].Fingerprint == f.Tests[1].Fingerprint {
		t.Errorf("rows share fingerprint %s; a row's values are part of its test", f.Tests[0].Fingerprint)
	}
}

func TestIsTestFileAndHandles(t *testing.T) {
	tests := []struct {
		path          string
		handles, test bool
	}{
		{"src/foo.test.ts", true, true},
		{"src/foo.spec.jsx", true, true},
		{"src/__tests__/foo.js", true, true},
		{"test/helpers/setup.mjs", true, true},
		{"packages/core/tests/a.cts", true, true},
		{"src/foo.ts", true, false},
		{"src/testing/utils.ts", true, false},
		{"src/contest.js", true, false},
		{"src/App.TSX", true, false},
		{"src/foo.test.py", false, false},
		{"README.md", false, false},
		{"types/index.d.ts", true, false},
	}
	e := New()
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			if got := e.Handles(tc.path); got != tc.handles {
				t.Errorf("Handles = %v, want %v", got, tc.handles)
			}
			if got := e.IsTestFile(tc.path); got != tc.test {
				t.Errorf("IsTestFile = %v, want %v", got, tc.test)
			}
		})
	}
	if e.Lang() != testscan.JavaScript {
		t.Errorf("Lang = %q", e.Lang())
	}
}

func TestHelperCallsAreNotTests(t *testing.T) {
	src := `export function validate(input) {
  if (/^[a-z]+$/.test(input)) return true
  test('looks like a title but has no callback')
  describe(schema)
  it(iterator)
  return pattern.test(input) && it.next()
}
function it(name, fn) { return fn(name) }
`
	f := extract(t, "src/validate.js", src)
	if len(f.Tests) != 0 {
		t.Errorf("found tests %q in production code", scantest.IDs(f))
	}
}
