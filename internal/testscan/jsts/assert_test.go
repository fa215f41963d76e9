package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// A is a compact constructor for expected assertions.
func A(line int, kind string, s testscan.Strength, neg bool, subject, expected, tol string) testscan.Assertion {
	return testscan.Assertion{Line: line, Kind: kind, Strength: s, Negated: neg, Subject: subject, Expected: expected, Tolerance: tol}
}

const (
	trv = testscan.Trivial
	wk  = testscan.Weak
	med = testscan.Medium
	str = testscan.Strong
)

func TestAssertions(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []testscan.Assertion
	}{
		{
			name: "jest and vitest matchers",
			src: `test('matchers', async () => {
  expect(sum(1, 2)).toBe(3)
  expect(user).toEqual({ name: 'Ann', age: 3, })
  expect(list).not.toContain('x')
  expect(fn).toHaveBeenCalledWith(1, 'a')
  expect(fn).toHaveBeenCalledTimes(2)
  expect(fn).toHaveBeenCalled()
  expect(value).toBeDefined()
  expect(0.1 + 0.2).toBeCloseTo(0.3, 5)
  expect(() => parse('')).toThrow()
  expect(() => parse('')).toThrowError('empty input')
  expect(obj).toHaveProperty('a.b')
  expect(obj).toHaveProperty('a.b', 2)
  await expect(load()).resolves.toMatchObject({ ok: true })
  await expect(load()).rejects.not.toThrow(TypeError)
  expect(tree).toMatchSnapshot()
  expect(true).toBe(true)
  expect('a').toEqual('a')
  expect(1).toBeTruthy()
  expect(result).toBeCustomThing()
  expect.assertions(2)
  expect.hasAssertions()
  expect.soft(page).toHaveURL('/home')
  expect(x)
})`,
			want: []testscan.Assertion{
				A(2, "toBe", str, false, "sum(1,2)", "3", ""),
				A(3, "toEqual", str, false, "user", `{name:"Ann",age:3}`, ""),
				A(4, "toContain", med, true, "list", `"x"`, ""),
				A(5, "toHaveBeenCalledWith", str, false, "fn", `1,"a"`, ""),
				A(6, "toHaveBeenCalledTimes", med, false, "fn", "2", ""),
				A(7, "toHaveBeenCalled", wk, false, "fn", "", ""),
				A(8, "toBeDefined", wk, false, "value", "", ""),
				A(9, "toBeCloseTo", trv, false, "0.1+0.2", "0.3", "5"),
				A(10, "toThrow", med, false, `()=>parse("")`, "", ""),
				A(11, "toThrowError", str, false, `()=>parse("")`, `"empty input"`, ""),
				A(12, "toHaveProperty", med, false, "obj", `"a.b"`, ""),
				A(13, "toHaveProperty", str, false, "obj", `"a.b",2`, ""),
				A(14, "toMatchObject", med, false, "load()", "{ok:true}", ""),
				A(15, "toThrow", str, true, "load()", "TypeError", ""),
				A(16, "toMatchSnapshot", str, false, "tree", "", ""),
				A(17, "toBe", trv, false, "true", "true", ""),
				A(18, "toEqual", trv, false, `"a"`, `"a"`, ""),
				A(19, "toBeTruthy", trv, false, "1", "", ""),
				A(20, "toBeCustomThing", med, false, "result", "", ""),
				A(21, "expect.assertions", med, false, "", "2", ""),
				A(22, "expect.hasAssertions", med, false, "", "", ""),
				A(23, "toHaveURL", med, false, "page", `"/home"`, ""),
			},
		},
		{
			name: "chai expect and should chains",
			src: `it('chai', function () {
  expect(res.body).to.deep.equal({ id: 1 })
  expect(a).to.equal(b, 'message')
  expect(list).to.have.lengthOf(3)
  expect(name).to.be.a('string').and.include('ann')
  expect(err).to.not.be.undefined
  expect(flag).to.be.true
  expect(x).to.exist
  expect(fn).to.throw(RangeError)
  expect(pi).to.be.closeTo(3.14, 0.01)
  expect(arr).to.include.members([1, 2])
  expect(spy).to.have.been.calledWith('a')
  foo.bar().should.equal(42)
  should.not.exist(err)
  expect(a).not.to.eql(b)
  expect(true).to.be.true
})`,
			want: []testscan.Assertion{
				A(2, "deep.equal", str, false, "res.body", "{id:1}", ""),
				A(3, "equal", str, false, "a", "b", ""),
				A(4, "lengthOf", med, false, "list", "3", ""),
				A(5, "a", med, false, "name", `"string"`, ""),
				A(5, "include", med, false, "name", `"ann"`, ""),
				A(6, "undefined", wk, true, "err", "", ""),
				A(7, "true", med, false, "flag", "", ""),
				A(8, "exist", wk, false, "x", "", ""),
				A(9, "throw", med, false, "fn", "RangeError", ""),
				A(10, "closeTo", str, false, "pi", "3.14", "0.01"),
				A(11, "members", med, false, "arr", "[1,2]", ""),
				A(12, "calledWith", str, false, "spy", `"a"`, ""),
				A(13, "equal", str, false, "foo.bar()", "42", ""),
				A(14, "should.exist", wk, true, "err", "", ""),
				A(15, "eql", str, true, "a", "b", ""),
				A(16, "true", trv, false, "true", "", ""),
			},
		},
		{
			name: "node assert and chai assert",
			src: `test('assert', () => {
  assert.strictEqual(add(2, 2), 4)
  assert.deepStrictEqual(parse('[1]'), [1])
  assert.notEqual(a, b)
  assert.notDeepStrictEqual(x, y)
  assert(ok)
  assert.ok(res.ok, 'should be ok')
  assert.throws(() => boom(), /boom/)
  assert.match(out, /done/)
  assert.fail('unreachable')
  assert.strict.equal(v, 1)
  assert.deepInclude(obj, { a: 1 })
  assert.isTrue(flag)
  assert.closeTo(x, 1.5, 0.1)
  assert.equal(1, 1)
  assert(true)
})`,
			want: []testscan.Assertion{
				A(2, "assert.strictEqual", str, false, "add(2,2)", "4", ""),
				A(3, "assert.deepStrictEqual", str, false, `parse("[1]")`, "[1]", ""),
				A(4, "assert.notEqual", str, true, "a", "b", ""),
				A(5, "assert.notDeepStrictEqual", str, true, "x", "y", ""),
				A(6, "assert", wk, false, "ok", "", ""),
				A(7, "assert.ok", wk, false, "res.ok", "", ""),
				A(8, "assert.throws", med, false, "()=>boom()", "/boom/", ""),
				A(9, "assert.match", med, false, "out", "/done/", ""),
				A(10, "assert.fail", med, false, "", "", ""),
				A(11, "assert.equal", str, false, "v", "1", ""),
				A(12, "assert.deepInclude", med, false, "obj", "{a:1}", ""),
				A(13, "assert.isTrue", med, false, "flag", "", ""),
				A(14, "assert.closeTo", str, false, "x", "1.5", "0.1"),
				A(15, "assert.equal", trv, false, "1", "1", ""),
				A(16, "assert", trv, false, "true", "", ""),
			},
		},
		{
			name: "ava, tap and node:test context assertions",
			src: `test('context', async (t) => {
  t.plan(3)
  t.is(sum(1), 1)
  t.deepEqual(list(), [])
  t.not(a, b)
  t.truthy(result)
  t.true(flag)
  await t.throwsAsync(run())
  t.assert.equal(x, 2)
  t.pass()
  t.log('not an assertion')
})`,
			want: []testscan.Assertion{
				A(2, "t.plan", med, false, "", "3", ""),
				A(3, "t.is", str, false, "sum(1)", "1", ""),
				A(4, "t.deepEqual", str, false, "list()", "[]", ""),
				A(5, "t.not", str, true, "a", "b", ""),
				A(6, "t.truthy", wk, false, "result", "", ""),
				A(7, "t.true", med, false, "flag", "", ""),
				A(8, "t.throwsAsync", med, false, "run()", "", ""),
				A(9, "assert.equal", str, false, "x", "2", ""),
				A(10, "t.pass", trv, false, "", "", ""),
			},
		},
		{
			name: "sinon assert and helpers inside the body",
			src: `it('sinon', () => {
  const check = (v) => expect(v).toBeGreaterThan(0)
  check(count)
  sinon.assert.calledOnce(spy)
  sinon.assert.calledWith(spy, 'a', 2)
  sinon.assert.notCalled(other)
})`,
			want: []testscan.Assertion{
				A(2, "toBeGreaterThan", med, false, "v", "0", ""),
				A(4, "sinon.assert.calledOnce", med, false, "spy", "", ""),
				A(5, "sinon.assert.calledWith", str, false, "spy", `"a",2`, ""),
				A(6, "sinon.assert.notCalled", med, true, "other", "", ""),
			},
		},
		{
			// A callback that must never run fails the test by throwing,
			// whether written as an arrow, a function or an object's method;
			// a throw under an if checks nothing.
			name: "throw in a callback",
			src: `test('callbacks', async t => {
  await run({ request: () => { throw new Error('arrow') } })
  await run({ request() { throw new Error('method') } })
  await run({ async request() { throw new Error('async method') } })
  await run({ request: function () { throw new Error('function') } })
  if (x) { throw new Error('guarded') }
  class Fake extends Agent { createConnection() { throw new Error('by design') } }
})`,
			want: []testscan.Assertion{
				A(2, "throw", med, false, "", "", ""),
				A(3, "throw", med, false, "", "", ""),
				A(4, "throw", med, false, "", "", ""),
				A(5, "throw", med, false, "", "", ""),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, "a.test.ts", tc.src)
			if len(f.Tests) != 1 {
				t.Fatalf("got %d tests (%q), want 1", len(f.Tests), scantest.IDs(f))
			}
			// Floating has its own test (TestFloatingFailureChecks).
			if diff := cmp.Diff(tc.want, f.Tests[0].Assertions, cmpopts.IgnoreFields(testscan.Assertion{}, "Floating", "Arms")); diff != "" {
				t.Errorf("assertions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCommentedAssertions(t *testing.T) {
	src := `describe('math', () => {
  it('adds', () => {
    // expect(add(1, 2)).toBe(3)
    /* assert.equal(add(2, 2), 4) */
    // we expect this to work eventually
    /**
     * expect(x).toEqual(
     *   y)
     */
    // it.skip('not a skip', () => {})
    expect(add(0, 0)).toBe(0) // expect(1).toBe(1)
  })
  // expect(outside).toBe(true)
})
`
	f := extract(t, "m.test.js", src)
	tc := scantest.ByID(t, f, "math > adds")
	if tc.CommentedAssertions != 4 {
		t.Errorf("CommentedAssertions = %d, want 4", tc.CommentedAssertions)
	}
	if tc.Skip != nil {
		t.Errorf("a commented-out it.skip made the test skipped: %+v", tc.Skip)
	}
	if len(tc.Assertions) != 1 {
		t.Errorf("got %d assertions, want 1: %+v", len(tc.Assertions), tc.Assertions)
	}
}
