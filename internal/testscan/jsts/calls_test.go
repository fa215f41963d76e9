package jsts

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func cl(name string, sites int) testscan.Call {
	return testscan.Call{Name: name, Sites: sites}
}

// TestCalls: a test's calls name the functions ("f") and methods (".m") it
// calls, in nested callbacks too, with their call sites, after the calls of
// the setup hooks of the file and its groups; the assertions, the test
// framework, builtins, supertest requests, constructors and definitions are
// left out, and strings, comments, template text and regex literals hold no
// calls. Helpers' calls are filed by helper name.
func TestCalls(t *testing.T) {
	tests := []struct {
		name        string
		path        string
		src         string
		want        map[string][]testscan.Call // by test id
		wantHelpers map[string][]testscan.Call
	}{
		{
			name: "playwright page objects",
			path: "e2e/login.spec.ts",
			src: `import { test, expect, type Page } from '@playwright/test'

class LoginPage {
  constructor(private page: Page) {}
  async open(): Promise<void> {
    await this.page.goto('/login')
    await this.checkTitle()
  }
  async checkTitle() {
    await expect(this.page).toHaveTitle(/Login/)
  }
  async login(user: string, password?: string): Promise<void> {
    await this.page.fill('#user', user)
    expect(await this.page.inputValue('#user')).toBe(user)
  }
}

test.beforeEach(async () => { await resetDb() })
test.afterEach(async () => { await dropDb() })

test.describe('login', () => {
  let loginPage: LoginPage
  test.beforeEach(async ({ page }) => {
    loginPage = new LoginPage(page)
    await loginPage.open()
  })

  test('signs in', async ({ page }) => {
    const user = await createUser({ admin: false })
    await loginPage.login(user.name, user.password)
    await loginPage.login('again', 'x')
    await expect(page.getByRole('heading')).toHaveText('Welcome')
    await test.step('logs out', async () => { await loginPage.logout() })
    console.log(JSON.stringify(Object.keys(user).map((k) => k.trim())))
  })

  test('shows errors', async () => {
    await loginPage.login('nobody', '')
    await loginPage.checkTitle()
  })
})
`,
			want: map[string][]testscan.Call{
				"login > signs in": {cl("resetDb", 1), cl(".open", 1), cl("createUser", 1), cl(".login", 2),
					cl(".getByRole", 1), cl(".logout", 1)},
				"login > shows errors": {cl("resetDb", 1), cl(".open", 1), cl(".login", 1), cl(".checkTitle", 1)},
			},
			wantHelpers: map[string][]testscan.Call{
				"open":  {cl(".goto", 1), cl(".checkTitle", 1)},
				"login": {cl(".fill", 1), cl(".inputValue", 1)},
			},
		},
		{
			name: "mocha with chai, should and supertest",
			path: "test/api.test.js",
			src: `const request = require('supertest')
const { expect } = require('chai')
const helpers = require('./helpers')

function seed(db) {
  return db.insert(fixture('users'))
}

const checkBody = (res) => {
  res.body.should.have.property('ok', true)
  verifyHeaders(res)
}

describe('api', function () {
  this.timeout(5000)
  let app
  before(function (done) { app = createApp(); seed(app.db); done() })
  beforeEach(resetAll)
  afterEach(() => cleanup())

  it('gets', function (done) {
    this.timeout(100)
    request(app).get('/').set('Accept', 'json').expect(200).end(function (err, res) {
      if (err) return done(err)
      checkBody(res)
      checkBody(res)
      expect(res.body).to.deep.equal(expected(1))
      res.body.items.should.have.lengthOf(count())
      done()
    })
  })

  it('by reference', helpers.checkAll)

  it('uses an agent', async () => {
    const agent = request.agent(app)
    await agent.post('/login').send(credentials())
    const res = await request(app).get('/me')
    expect(res.status).to.equal(200)
  })

  context('nested', function () {
    beforeEach(async function () {
      await login()
      await expect(db.ready()).to.eventually.be.true
    })
    it('inherits every setup', () => { go() })
  })
})
`,
			want: map[string][]testscan.Call{
				"api > gets": {cl("createApp", 1), cl("seed", 1), cl("resetAll", 1), cl("checkBody", 2),
					cl("expected", 1), cl("count", 1)},
				"api > by reference":  {cl("createApp", 1), cl("seed", 1), cl("resetAll", 1), cl(".checkAll", 1)},
				"api > uses an agent": {cl("createApp", 1), cl("seed", 1), cl("resetAll", 1), cl("credentials", 1)},
				"api > nested > inherits every setup": {cl("createApp", 1), cl("seed", 1), cl("resetAll", 1),
					cl("login", 1), cl(".ready", 1), cl("go", 1)},
			},
			wantHelpers: map[string][]testscan.Call{
				"seed":      {cl(".insert", 1), cl("fixture", 1)},
				"checkBody": {cl("verifyHeaders", 1)},
			},
		},
		{
			name: "strings, comments, template literals and regex literals",
			path: "src/format.test.js",
			src: `test('formats', () => {
  const a = 'quoted(1)' + "double(2)" // commented(3)
  /* block(4) */
  const b = ` + "`text(5) ${render(a)} more(6) ${`inner(7) ${nested(b)}`} end(8)`" + `
  const re = /pattern\(9\)/g
  const c = a.replace(/x(10)/, 'y')
  expect(format(b, re, c)).toBe(` + "`done(11)`" + `)
})
`,
			want: map[string][]testscan.Call{
				"formats": {cl("render", 1), cl("nested", 1), cl("format", 1)},
			},
		},
		{
			name: "vitest mocks, tables, test context and framework calls",
			path: "src/cart.test.ts",
			src: `import { describe, it, test, expect, vi } from 'vitest'

describe('cart', () => {
  beforeEach(() => { vi.resetAllMocks() })

  it.each([[1, 2], [3, 4]])('adds %i and %i', (a, b) => {
    const cart = makeCart<Item>([a, b])
    expect(cart.total()).toEqual(expect.objectContaining({ sum: a + b }))
    vi.spyOn(cart, 'save').mockResolvedValue(undefined)
    jest.fn().mockReturnValue(1)
    sinon.assert.calledWith(spy, sum(a))
    assert.equal(cart.size(), 2)
    assert.strict.deepEqual(cart.items, list?.())
    setTimeout(() => flush(), 0)
    const d = new Date(); const s = new api.Service(); const u = new URL(url()).toString()
  })

  it('does not count nested tests as calls', () => {
    describe('x', () => {})
    test.skip('y', () => {})
  })
})

test('node:test context', async (t) => {
  await t.test('sub', () => { work() })
  t.mock.method(obj, 'm')
  t.assert.ok(ready())
  t.is(value(), 1)
})
`,
			want: map[string][]testscan.Call{
				"cart > adds 1 and 2": {cl("makeCart", 1), cl(".total", 1), cl("sum", 1), cl(".size", 1),
					cl("list", 1), cl("flush", 1), cl("url", 1)},
				"cart > adds 3 and 4": {cl("makeCart", 1), cl(".total", 1), cl("sum", 1), cl(".size", 1),
					cl("list", 1), cl("flush", 1), cl("url", 1)},
				"cart > does not count nested tests as calls": nil,
				"node:test context":                           {cl("work", 1), cl("ready", 1), cl("value", 1)},
			},
		},
		{
			name: "typescript definitions are not calls",
			path: "src/repo.test.ts",
			src: `describe('repo', () => {
  it('reads', async () => {
    class Fake implements Repo {
      constructor(private rows: Row[]) { super() }
      async find(id: string): Promise<Row> { return lookup(id) }
      get size(): number { return count(this.rows) }
      @Memo() cached() { return 1 }
    }
    const repo = new Fake([])
    const o = { load(id) { return fetchRow(id) }, key: flag ? pick(1) : pick(2) }
    function local(x: number): number { return double(x) }
    const r = flag ? await repo.find('a') : repo.find('b')
    expect(local(r.id)).toBe(2)
  })
})
`,
			want: map[string][]testscan.Call{
				"repo > reads": {cl("lookup", 1), cl("count", 1), cl("fetchRow", 1), cl("pick", 2),
					cl("double", 1), cl(".find", 2), cl("local", 1)},
			},
		},
		{
			name: "helpers: anonymous callbacks looked through, nested named functions on their own",
			path: "test/support/checks.js",
			src: `const assert = require('node:assert')

function shouldHaveBody(buf) {
  return function (res) {
    assert.strictEqual(res.text, decode(buf))
    res.parts.forEach((x) => record(x))
  }
}

function outer() {
  function inner() { return deep() }
  return inner() + inner()
}

const quiet = () => { console.log('nothing') }

describe('x', () => {
  setupServer()
  beforeEach(() => { prepare() })
})
`,
			want: map[string][]testscan.Call{},
			wantHelpers: map[string][]testscan.Call{
				"shouldHaveBody": {cl("decode", 1), cl("record", 1)},
				"outer":          {cl("inner", 2)},
				"inner":          {cl("deep", 1)},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, tc.path, tc.src)
			if f.Partial {
				t.Fatalf("partial parse")
			}
			got := map[string][]testscan.Call{}
			for _, c := range f.Tests {
				got[c.ID] = c.Calls
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("test calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantHelpers, f.HelperCalls); diff != "" {
				t.Errorf("helper calls (-want +got):\n%s", diff)
			}
			for name := range f.HelperCalls {
				if !contains(f.Helpers, name) {
					t.Errorf("HelperCalls has %q, not among the helpers %q", name, f.Helpers)
				}
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// TestCallsBounded: a test or helper that calls many functions keeps the
// first MaxCalls names, and still counts the sites of those it kept.
func TestCallsBounded(t *testing.T) {
	body := scantest.ManyCalls("  f%d()\n")
	src := "function helper() {\n" + body + "}\n\nit('many', () => {\n" + body + "})\n"
	f := extract(t, "many.test.js", src)
	if len(f.Tests) != 1 {
		t.Fatalf("%d tests", len(f.Tests))
	}
	for name, calls := range map[string][]testscan.Call{"test": f.Tests[0].Calls, "helper": f.HelperCalls["helper"]} {
		if len(calls) != testscan.MaxCalls {
			t.Errorf("%s: got %d calls, want %d", name, len(calls), testscan.MaxCalls)
			continue
		}
		if !reflect.DeepEqual(calls[0], cl("f0", 2)) || !reflect.DeepEqual(calls[len(calls)-1], cl(fmt.Sprintf("f%d", testscan.MaxCalls-1), 1)) {
			t.Errorf("%s: first %+v, last %+v; want f0 twice, f%d once", name, calls[0], calls[len(calls)-1], testscan.MaxCalls-1)
		}
	}
}

// TestCallsFragment: an unclosed test (a fragment read from a patch) still
// has the calls that could be read.
func TestCallsFragment(t *testing.T) {
	f := extract(t, "x.test.ts", "it('cut', async () => {\n  await page.open()\n  check(")
	if len(f.Tests) != 1 {
		t.Fatalf("%d tests", len(f.Tests))
	}
	if diff := cmp.Diff([]testscan.Call{cl(".open", 1), cl("check", 1)}, f.Tests[0].Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// TestRelativeImports: the modules a file imports by relative path, however
// it imports them; package imports, strings that only look like paths, and
// comments are left out.
func TestRelativeImports(t *testing.T) {
	src := "import { a } from './support/utils';\nimport './setup';\nimport * as h from '../helpers/index.js';\nexport { b } from './b';\nconst c = require('./c');\nconst d = await import('./d');\nconst e = require('express');\nconst s = './not-an-import';\n// import x from './commented'\nfoo.require('./member');\nimport { a as a2 } from './support/utils';\n"
	f, err := New().Extract("test/app.test.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"./support/utils", "./setup", "../helpers/index.js", "./b", "./c", "./d"}
	if diff := cmp.Diff(want, f.Imports); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
}
