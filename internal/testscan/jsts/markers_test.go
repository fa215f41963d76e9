package jsts

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func M(line int, kind, text string) testscan.Marker {
	return testscan.Marker{Line: line, Kind: kind, Text: text}
}

func TestSuppressions(t *testing.T) {
	src := `// @ts-nocheck
import { load } from './load'

// @ts-ignore: types are wrong upstream
const x: number = load()
/* @ts-expect-error */
const y: string = 1
// eslint-disable-next-line @typescript-eslint/no-explicit-any,  no-console -- legacy
console.log(x as any)
/* eslint-disable */
const z = eval('1') // eslint-disable-line no-eval
/* istanbul ignore next */
function unused() {}
/* c8 ignore next 3 */
/* c8 ignore stop */
// v8 ignore else
// a comment that mentions @ts-ignore later is not a directive
const s = "// @ts-ignore inside a string"
try {
  risky()
} catch (e) {
  // ignore
}
try { risky() } catch {}
try { risky() } catch (e) { log(e) }
load().catch(() => {})
load().catch((err) => undefined)
load().catch(noop)
load().catch(function () {})
load().catch((e) => console.error(e))
promise.then(ok).catch(_.noop)
`
	want := []testscan.Marker{
		M(1, "ts-nocheck", "@ts-nocheck"),
		M(4, "ts-ignore", "@ts-ignore"),
		M(6, "ts-expect-error", "@ts-expect-error"),
		M(8, "eslint-disable", "eslint-disable-next-line @typescript-eslint/no-explicit-any, no-console"),
		M(10, "eslint-disable", "eslint-disable"),
		M(11, "eslint-disable", "eslint-disable-line no-eval"),
		M(12, "coverage-ignore", "istanbul ignore next"),
		M(14, "coverage-ignore", "c8 ignore next 3"),
		M(16, "coverage-ignore", "v8 ignore else"),
		M(21, "empty-catch", "catch"),
		M(24, "empty-catch", "catch"),
		M(26, "swallowed-error", ".catch"),
		M(27, "swallowed-error", ".catch"),
		M(28, "swallowed-error", ".catch"),
		M(29, "swallowed-error", ".catch"),
		M(31, "swallowed-error", ".catch"),
	}
	f := extract(t, "src/load.ts", src)
	if diff := cmp.Diff(want, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
}

func TestBypasses(t *testing.T) {
	src := `afterAll(() => {
  process.exit(0)
})
if (done) process.exit(1)
process.exit()
`
	tests := []struct {
		path string
		want []testscan.Marker
	}{
		{"test/setup.js", []testscan.Marker{M(2, "forced-exit", "process.exit(0)"), M(5, "forced-exit", "process.exit()")}},
		{"jest.setup.ts", []testscan.Marker{M(2, "forced-exit", "process.exit(0)"), M(5, "forced-exit", "process.exit()")}},
		{"src/cli.ts", nil}, // an entry point: it may end the process
		// A module tests import: only its top-level exit runs on import.
		{"src/util.ts", []testscan.Marker{M(5, "forced-exit", "process.exit()")}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			f := extract(t, tc.path, src)
			if diff := cmp.Diff(tc.want, f.Bypasses); diff != "" {
				t.Errorf("bypasses (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHookSkips: setup hooks that skip the tests they run for, and the
// look-alikes that do not.
func TestHookSkips(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []testscan.Marker
	}{
		{"context skip", "beforeEach((ctx) => {\n  if (ctx.task.name.includes('neg')) ctx.skip()\n})\n", []testscan.Marker{M(1, "hook-skip", "beforeEach skips the tests it runs for")}},
		{"destructured skip", "beforeEach(({ skip }) => skip())\n", []testscan.Marker{M(1, "hook-skip", "beforeEach skips the tests it runs for")}},
		{"task mode set", "test.beforeEach((context) => {\n  context.task.mode = 'skip'\n})\n", []testscan.Marker{M(1, "hook-skip", "beforeEach skips the tests it runs for")}},
		{"beforeAll todo", "beforeAll((suite) => { suite.mode = \"todo\" })\n", []testscan.Marker{M(1, "hook-skip", "beforeAll skips the tests it runs for")}},
		// Look-alikes.
		{"fake timers", "beforeEach(() => {\n  vi.useFakeTimers()\n})\n", nil},
		{"a method named like skip", "beforeEach(async () => {\n  await page.skipIntro()\n})\n", nil},
		{"a skipped test declared elsewhere", "beforeEach(() => { reset() })\ntest.skip('later', () => {})\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, "test/a.test.js", tc.src)
			var got []testscan.Marker
			for _, m := range f.Bypasses {
				if m.Kind == "hook-skip" {
					got = append(got, m)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("hook skips (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNoopMatchers finds each custom matcher that can only pass, also one
// among real matchers in the same expect.extend, and makes the checks that
// use it trivial.
func TestNoopMatchers(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []testscan.Marker
		strength  testscan.Strength // of the test's check, by the matcher
	}{
		{"alone", "expect.extend({ toBeFine: () => ({ pass: true, message: () => '' }) })\ntest('a', () => { expect(f()).toBeFine() })\n",
			[]testscan.Marker{M(1, "noop-matcher", "expect.extend(...) whose matcher toBeFine always passes")}, testscan.Trivial},
		{"among real matchers", "expect.extend({\n  toBeEven(r) { return { pass: r % 2 === 0, message: () => 'odd' } },\n  toBeJestCompatible() {\n    return { pass: true, message: () => '' }\n  },\n})\ntest('a', () => { expect(expect).toBeJestCompatible() })\n",
			[]testscan.Marker{M(3, "noop-matcher", "expect.extend(...) whose matcher toBeJestCompatible always passes")}, testscan.Trivial},
		{"a quoted name", "expect.extend({ 'toBeFine': function () { return { pass: true } } })\ntest('a', () => { expect(1).toBeFine() })\n",
			[]testscan.Marker{M(1, "noop-matcher", "expect.extend(...) whose matcher toBeFine always passes")}, testscan.Trivial},
		// Look-alikes.
		{"a real matcher", "expect.extend({ toBeEven(r) { return { pass: r % 2 === 0, message: () => 'odd' } } })\ntest('a', () => { expect(n()).toBeEven() })\n",
			nil, testscan.Medium},
		{"a branch that fails", "expect.extend({ toBeOk(r) { if (r) return { pass: true }; return { pass: false, message: () => 'no' } } })\ntest('a', () => { expect(g()).toBeOk() })\n",
			nil, testscan.Medium},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, "test/a.test.js", tc.src)
			if tf := extract(t, "test/a.test-d.ts", tc.src); len(tf.Bypasses) > 0 {
				t.Errorf("a type test, which nothing runs, has bypasses %v", tf.Bypasses)
			}
			var got []testscan.Marker
			for _, m := range f.Bypasses {
				if m.Kind == "noop-matcher" {
					got = append(got, m)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("noop matchers (-want +got):\n%s", diff)
			}
			if len(f.Tests) != 1 || len(f.Tests[0].Assertions) != 1 {
				t.Fatalf("want one test with one check, got %+v", f.Tests)
			}
			if s := f.Tests[0].Assertions[0].Strength; s != tc.strength {
				t.Errorf("the check's strength is %v, want %v", s, tc.strength)
			}
		})
	}
}

func TestExports(t *testing.T) {
	src := `export function parse(s: string): Node { return s as any }
export async function load() {}
export function* walk() {}
export default class Parser {}
export class Lexer {}
export const VERSION = '1.0', DEFAULT_OPTS: Map<string, number> = new Map(), { a, b: renamed, ...rest } = obj
export let counter = 0
export var legacy
export const [first, second] = pair
export type Token = { kind: string }
export interface Options { strict: boolean }
export enum Kind { A, B }
export const enum Flag { X }
export declare namespace NS {}
export abstract class Base {}
export { helper, internal as publicName, default as Other } from './helpers'
export type { Visitor } from './visit'
export * from './nodes'
export * as utils from './utils'
module.exports = { legacyParse, format: fmt, async run() {} }
module.exports.extra = 1
exports.another = () => {}
const notExported = 1
obj.export = 2
`
	want := []testscan.Symbol{
		{Name: "parse", Kind: "func", Line: 1},
		{Name: "load", Kind: "func", Line: 2},
		{Name: "walk", Kind: "func", Line: 3},
		{Name: "default", Kind: "export", Line: 4},
		{Name: "Lexer", Kind: "class", Line: 5},
		{Name: "VERSION", Kind: "const", Line: 6},
		{Name: "DEFAULT_OPTS", Kind: "const", Line: 6},
		{Name: "a", Kind: "const", Line: 6},
		{Name: "renamed", Kind: "const", Line: 6},
		{Name: "rest", Kind: "const", Line: 6},
		{Name: "counter", Kind: "var", Line: 7},
		{Name: "legacy", Kind: "var", Line: 8},
		{Name: "first", Kind: "const", Line: 9},
		{Name: "second", Kind: "const", Line: 9},
		{Name: "Token", Kind: "type", Line: 10},
		{Name: "Options", Kind: "type", Line: 11},
		{Name: "Kind", Kind: "type", Line: 12},
		{Name: "Flag", Kind: "type", Line: 13},
		{Name: "NS", Kind: "export", Line: 14},
		{Name: "Base", Kind: "class", Line: 15},
		{Name: "helper", Kind: "export", Line: 16},
		{Name: "publicName", Kind: "export", Line: 16},
		{Name: "Other", Kind: "export", Line: 16},
		{Name: "Visitor", Kind: "export", Line: 17},
		{Name: "* from ./nodes", Kind: "export", Line: 18},
		{Name: "utils", Kind: "export", Line: 19},
		{Name: "legacyParse", Kind: "export", Line: 20},
		{Name: "format", Kind: "export", Line: 20},
		{Name: "run", Kind: "export", Line: 20},
		{Name: "extra", Kind: "export", Line: 21},
		{Name: "another", Kind: "export", Line: 22},
	}
	f := extract(t, "src/index.ts", src)
	if diff := cmp.Diff(want, f.Exports); diff != "" {
		t.Errorf("exports (-want +got):\n%s", diff)
	}
}

func TestComparisons(t *testing.T) {
	src := `export function role(user) {
  if (user.email === 'admin@example.com') return 'admin'
  if (user.id == 42 || user.id !== -7) return 'special'
  while (retries != 3) retries++
  const label = status === 'ok' ? 'green' : 'red'
  if (typeof user.name === 'string' && 'guest' === user.name) return 'guest'
  if (count === 0 || count === 1 || name !== '' || flag === -1) return null
  const same = a === 'not in a condition'
  switch (user.plan) {
    case 'enterprise':
      return 'gold'
    case 7:
    case 0:
      return 'seven'
  }
  return "if (x === 'in a string')"
}
`
	want := []testscan.Marker{
		{Line: 2, Kind: "literal", Text: `"admin@example.com"`, Value: `"admin"`},
		{Line: 3, Kind: "literal", Text: "42", Value: `"special"`},
		{Line: 3, Kind: "literal", Text: "-7", Value: `"special"`},
		M(4, "literal", "3"),
		M(5, "literal", `"ok"`),
		{Line: 6, Kind: "literal", Text: `"guest"`, Value: `"guest"`},
		{Line: 10, Kind: "literal", Text: `"enterprise"`, Value: `"gold"`},
		M(12, "literal", "7"),
	}
	f := extract(t, "src/role.js", src)
	if diff := cmp.Diff(want, f.Comparisons); diff != "" {
		t.Errorf("comparisons (-want +got):\n%s", diff)
	}
}

// TestExportAliases: the properties assigned at the top level to a
// variable that is module.exports are exports (express's lib/request.js:
// module.exports = req; req.param = function ...).
func TestExportAliases(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"var req = Object.create(proto)\nmodule.exports = req\nreq.param = function param(name) {}\nreq.get = req.header = function header(n) {}\n", []string{"default", "param", "get", "header"}},
		{"var app = exports = module.exports = {};\napp.del = deprecate.function(app.delete, 'app.del')\n", []string{"del"}},
		{"const res = module.exports = {}\nres.json = function json(obj) {}\n", []string{"json"}},
		// Not aliases: a local of the same name, a member, a call's result.
		{"var req = {}\nfunction handle(req) { req.param = 1 }\nmodule.exports = handle\n", []string{"default"}},
		{"var res = {}\nmodule.exports = res.helpers\nres.x = 1\n", []string{"default"}},
		{"var res = {}\nmodule.exports = make(res)\nres.x = 1\n", []string{"default"}},
	} {
		var got []string
		for _, s := range newTree(tc.src, false).exports() {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("exports of\n%s= %q, want %q", tc.src, got, tc.want)
		}
	}
}
