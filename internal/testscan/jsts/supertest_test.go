package jsts

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// byTest maps test ids to their assertions.
func byTest(f *testscan.File) map[string][]testscan.Assertion {
	out := map[string][]testscan.Assertion{}
	for _, tc := range f.Tests {
		out[tc.ID] = tc.Assertions
	}
	return out
}

func TestSupertestAssertions(t *testing.T) {
	const st = "supertest.expect"
	tests := []struct {
		name string
		path string
		src  string
		want map[string][]testscan.Assertion
	}{
		{
			name: "express chains with status, header, body and end callbacks",
			path: "test/app.head.js",
			src: `'use strict'

var express = require('../');
var request = require('supertest');
var assert = require('node:assert');

describe('HEAD', function(){
  it('should default to GET', function(done){
    var app = express();
    request(app)
    .head('/tobi')
    .expect(200, done);
  })

  it('should output the same headers as GET requests', function(done){
    request(app)
    .head('/tobi')
    .expect(200, function(err, res){
      if (err) return done(err);
      var headers = res.headers;
      request(app)
      .get('/tobi')
      .expect(200, function(err, res){
        assert.deepEqual(res.headers, headers);
        done();
      });
    });
  })

  it('should set cookies', function (done) {
    request(app)
      .get('/')
      .set('Accept', 'text/html')
      .expect('Set-Cookie', 'name=tobi; Path=/')
      .expect('Content-Type', /html/)
      .expect(500, /option expires is invalid/, done)
  })

  it('should respond with json', function (done) {
    request(app)
      .get('/user')
      .expect(200, '{"user":"tobi"}')
      .expect(200, { user: 'tobi' }, done)
  })
})
`,
			want: map[string][]testscan.Assertion{
				"HEAD > should default to GET": {
					A(12, st, str, false, `request(app).head("/tobi")`, "200", ""),
				},
				"HEAD > should output the same headers as GET requests": {
					A(18, st, str, false, `request(app).head("/tobi")`, "200", ""),
					A(23, st, str, false, `request(app).get("/tobi")`, "200", ""),
					A(24, "assert.deepEqual", str, false, "res.headers", "headers", ""),
				},
				"HEAD > should set cookies": {
					A(34, st, str, false, `request(app).get("/")`, `"set-cookie","name=tobi; Path=/"`, ""),
					A(35, st, med, false, `request(app).get("/")`, `"content-type",/html/`, ""),
					A(36, st, str, false, `request(app).get("/")`, "500", ""),
					A(36, st, med, false, `request(app).get("/")`, `/option expires is invalid/`, ""),
				},
				"HEAD > should respond with json": {
					A(42, st, str, false, `request(app).get("/user")`, "200", ""),
					A(42, st, str, false, `request(app).get("/user")`, `"{\"user\":\"tobi\"}"`, ""),
					A(43, st, str, false, `request(app).get("/user")`, "200", ""),
					A(43, st, str, false, `request(app).get("/user")`, `{user:"tobi"}`, ""),
				},
			},
		},
		{
			name: "function and helper expectations, in line order",
			path: "test/res.json.js",
			src: `var request = require('supertest')
var utils = require('./support/utils')

describe('res.json', function () {
  it('checks the body with a function', function () {
    return request(app)
      .get('/')
      .expect(function (res) {
        assert.strictEqual(res.body.id, 1)
      })
      .expect(200)
  })

  it('uses helpers', function (done) {
    request(app)
      .head('/')
      .expect(utils.shouldNotHaveHeader('X-Powered-By'))
      .expect(shouldHaveBody(Buffer.from('')))
      .expect(res => res.text.length > 0)
      .expect(204, done)
  })

  it('computes the method', function (done) {
    request(app)
    [method]('/foo')
      .expect(200, done)
  })
})
`,
			want: map[string][]testscan.Assertion{
				"res.json > checks the body with a function": {
					A(8, st, med, false, `request(app).get("/")`, "function(res){assert.strictEqual(res.body.id,1)}", ""),
					A(9, "assert.strictEqual", str, false, "res.body.id", "1", ""),
					A(11, st, str, false, `request(app).get("/")`, "200", ""),
				},
				"res.json > uses helpers": {
					A(17, st, med, false, `request(app).head("/")`, `utils.shouldNotHaveHeader("X-Powered-By")`, ""),
					A(18, st, med, false, `request(app).head("/")`, `shouldHaveBody(Buffer.from(""))`, ""),
					A(19, st, med, false, `request(app).head("/")`, "res=>res.text.length>0", ""),
					A(20, st, str, false, `request(app).head("/")`, "204", ""),
				},
				"res.json > computes the method": {
					A(26, st, str, false, `request(app)[method]("/foo")`, "200", ""),
				},
			},
		},
		{
			name: "request variables, agents and renamed imports",
			path: "test/express.json.test.ts",
			src: `import st from 'supertest'

describe('json', () => {
  it('should 413 when over limit with chunked encoding', function (done) {
    var test = st(app).post('/')
    test.set('Transfer-Encoding', 'chunked')
    test.write('{"str":')
    test.expect(413, done)
  })

  it('keeps a session', async () => {
    const session = st.agent(app)
    await session.post('/login').send({ user: 'tj' }).expect(302)
    await session.get('/me').expect(200, 'tj')
  })

  it('reuses an api', async () => {
    const api = st(server)
    await api.get('/health').expect(200)
  })

  it('uses a shared agent', async () => {
    await agent.get('/x').expect('ok')
  })
})
`,
			want: map[string][]testscan.Assertion{
				"json > should 413 when over limit with chunked encoding": {
					A(8, st, str, false, `st(app).post("/")`, "413", ""),
				},
				"json > keeps a session": {
					A(13, st, str, false, `st.agent(app).post("/login")`, "302", ""),
					A(14, st, str, false, `st.agent(app).get("/me")`, "200", ""),
					A(14, st, str, false, `st.agent(app).get("/me")`, `"tj"`, ""),
				},
				"json > reuses an api": {
					A(19, st, str, false, `st(server).get("/health")`, "200", ""),
				},
				"json > uses a shared agent": {
					A(23, st, str, false, `agent.get("/x")`, `"ok"`, ""),
				},
			},
		},
		{
			name: "chains that are not supertest",
			path: "test/other.test.js",
			src: `const request = require('request')

describe('other', () => {
  it('uses the request library', (done) => {
    request('http://localhost', (err, res) => { done(err) })
  })

  it('uses chai-http and jest', async () => {
    const res = await chai.request(app).get('/')
    await request(app).get('/').then((r) => expect(r.status).toBe(200))
    server.expect(1)
  })

  it('mentions it in strings', () => {
    const s = "request(app).get('/').expect(200)"
  })
})
`,
			want: map[string][]testscan.Assertion{
				"other > uses the request library": nil,
				"other > uses chai-http and jest": {
					A(10, "toBe", str, false, "r.status", "200", ""),
				},
				"other > mentions it in strings": nil,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, tc.path, tc.src)
			if diff := cmp.Diff(tc.want, byTest(f), ignoreArms); diff != "" {
				t.Errorf("assertions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestShouldAssertions(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []testscan.Assertion
	}{
		{
			name: "should.js property chains",
			src: `describe('req.query', function () {
  it('should parse', function () {
    res.body.should.equal('tobi');
    res.body.should.eql({ user: { name: 'tj' } });
    res.ok.should.be.ok();
    res.ok.should.be.ok;
    res.body.should.have.property('name', 'tobi');
    res.body.should.have.property('id');
    res.text.should.match(/^Cannot GET/);
    res.headers.should.not.have.property('x-powered-by');
    res.body.should.not.eql({});
    res.body.should.be.an.Array().and.have.length(2);
    res.should.have.status(200);
    res.should.have.header('Content-Type', 'text/html');
    (5).should.be.exactly(5);
  })
})`,
			want: []testscan.Assertion{
				A(3, "equal", str, false, "res.body", `"tobi"`, ""),
				A(4, "eql", str, false, "res.body", `{user:{name:"tj"}}`, ""),
				A(5, "ok", wk, false, "res.ok", "", ""),
				A(6, "ok", wk, false, "res.ok", "", ""),
				A(7, "property", str, false, "res.body", `"name","tobi"`, ""),
				A(8, "property", med, false, "res.body", `"id"`, ""),
				A(9, "match", med, false, "res.text", "/^Cannot GET/", ""),
				A(10, "property", med, true, "res.headers", `"x-powered-by"`, ""),
				A(11, "eql", str, true, "res.body", "{}", ""),
				A(12, "Array", med, false, "res.body", "", ""),
				A(12, "length", med, false, "res.body", "2", ""),
				A(13, "status", str, false, "res", "200", ""),
				A(14, "header", str, false, "res", `"Content-Type","text/html"`, ""),
				A(15, "exactly", trv, false, "(5)", "5", ""),
			},
		},
		{
			name: "should function form and static checks",
			src: `it('should function', () => {
  should(user).be.exactly(admin);
  should(err).not.be.ok();
  should(res.body).have.property('a', 1);
  should(null).not.be.ok();
  should.exist(res);
  should.not.exist(err);
  function should(x) { return x }
})`,
			want: []testscan.Assertion{
				A(2, "exactly", str, false, "user", "admin", ""),
				A(3, "ok", wk, true, "err", "", ""),
				A(4, "property", str, false, "res.body", `"a",1`, ""),
				A(5, "ok", trv, true, "null", "", ""),
				A(6, "should.exist", wk, false, "res", "", ""),
				A(7, "should.exist", wk, true, "err", "", ""),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, "test/should.js", tc.src)
			if len(f.Tests) != 1 {
				t.Fatalf("got %d tests (%q), want 1", len(f.Tests), scantest.IDs(f))
			}
			if diff := cmp.Diff(tc.want, f.Tests[0].Assertions, ignoreArms); diff != "" {
				t.Errorf("assertions (-want +got):\n%s", diff)
			}
		})
	}
}
