package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestHelperAssertions(t *testing.T) {
	tests := []struct {
		name string
		path string
		src  string
		want []testscan.Assertion
		// tests maps test ids to how many assertions they keep.
		tests map[string]int
	}{
		{
			name: "support file that only exports helpers",
			path: "test/support/utils.js",
			src: `var assert = require('node:assert');

exports.shouldHaveBody = shouldHaveBody
exports.shouldNotHaveHeader = shouldNotHaveHeader;

function shouldHaveBody (buf) {
  return function (res) {
    var body = !Buffer.isBuffer(res.body)
      ? Buffer.from(res.text)
      : res.body
    assert.ok(body, 'response has body')
    assert.strictEqual(body.toString('hex'), buf.toString('hex'))
  }
}

function shouldNotHaveHeader(header) {
  return function (res) {
    assert.ok(!(header.toLowerCase() in res.headers), 'should not have header ' + header);
  };
}

function getMajorVersion(versionString) {
  return versionString.split('.')[0];
}
`,
			want: []testscan.Assertion{
				A(11, "assert.ok", wk, false, "body", "", ""),
				A(12, "assert.strictEqual", str, false, `body.toString("hex")`, `buf.toString("hex")`, ""),
				A(18, "assert.ok", wk, false, "!(header.toLowerCase()in res.headers)", "", ""),
			},
			tests: map[string]int{},
		},
		{
			name: "helpers at module level, in describe blocks and in hooks",
			path: "test/res.append.test.ts",
			src: `import request from 'supertest'

function expectValid(res) { expect(res.status).toBe(200) }
const shouldHaveBody = (buf) => (res) => assert.strictEqual(res.text, buf.toString())

describe('res.append', () => {
  let agent
  beforeEach(() => {
    agent = request.agent(app)
    expect(app.locals).toEqual({})
  })
  afterEach(async () => { await agent.get('/reset').expect(204) })

  function shouldHaveHeaderValues (key, values) {
    return function (res) {
      var headers = res.headers[key.toLowerCase()]
      assert.ok(headers, 'should have header "' + key + '"')
      assert.strictEqual(headers.length, values.length)
    }
  }

  it('appends', async () => {
    const check = (v) => expect(v).toBeDefined()
    await request(app).get('/').expect(shouldHaveHeaderValues('Set-Cookie', ['a', 'b']))
    check(1)
  })

  class Checker {
    verify(res) { res.body.should.eql({ ok: true }) }
  }
})
`,
			want: []testscan.Assertion{
				A(3, "toBe", str, false, "res.status", "200", ""),
				A(4, "assert.strictEqual", str, false, "res.text", "buf.toString()", ""),
				A(10, "toEqual", str, false, "app.locals", "{}", ""),
				A(12, "supertest.expect", str, false, `request.agent(app).get("/reset")`, "204", ""),
				A(17, "assert.ok", wk, false, "headers", "", ""),
				A(18, "assert.strictEqual", str, false, "headers.length", "values.length", ""),
				A(29, "eql", str, false, "res.body", "{ok:true}", ""),
			},
			tests: map[string]int{"res.append > appends": 2},
		},
		{
			name: "ava macros and test-context helpers",
			path: "test/macros.test.js",
			src: `const macro = (t, input, expected) => {
  t.is(parse(input), expected)
}
const inline = (t, x) => t.deepEqual(run(x), [])
function check(t, value) { t.true(value > 0) }

app.use(function (req, res) {
  if (req.is('json')) res.type('json')
})

test('uses the macro', macro, '1', 1)
test('checks', t => { check(t, 3); t.pass() })
`,
			want: []testscan.Assertion{
				A(2, "t.is", str, false, "parse(input)", "expected", ""),
				A(4, "t.deepEqual", str, false, "run(x)", "[]", ""),
				A(5, "t.true", med, false, "value>0", "", ""),
			},
			tests: map[string]int{"uses the macro": 0, "checks": 1},
		},
		{
			name: "a file with tests only has no helper assertions",
			path: "src/sum.test.js",
			src: `describe('sum', () => {
  it('adds', () => { expect(sum(1, 2)).toBe(3) })
  test.each([[1, 1]])('%i', (a, b) => { assert.equal(a, b) })
  describe.each([1, 2])('n=%i', (n) => {
    it('is positive', () => { expect(n).toBeGreaterThan(0) })
  })
})
`,
			want:  nil,
			tests: map[string]int{"sum > adds": 1, "sum > 1": 1, "sum > n=1 > is positive": 1, "sum > n=2 > is positive": 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, tc.path, tc.src)
			if diff := cmp.Diff(tc.want, f.HelperAssertions, cmpopts.IgnoreFields(testscan.Assertion{}, "Helper")); diff != "" {
				t.Errorf("helper assertions (-want +got):\n%s", diff)
			}
			got := map[string]int{}
			for _, c := range f.Tests {
				got[c.ID] = len(c.Assertions)
			}
			if diff := cmp.Diff(tc.tests, got); diff != "" {
				t.Errorf("assertions per test (-want +got):\n%s", diff)
			}
		})
	}
}
