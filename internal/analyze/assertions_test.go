package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// A JavaScript test renamed with edits that now calls a helper holding its
// checks keeps them (compareReworked, helperHolds); a helper that checks
// less, or nothing the old test checked, does not stand in for them.
func TestReworkedCreditsHelperChecks(t *testing.T) {
	p := "test/res.location.js"
	old := `var express = require('..')
var request = require('supertest')

describe('res', function () {
  describe('.location(url)', function () {
    it('should not touch already-encoded sequences in "url"', function (done) {
      var app = express()
      app.use(function (req, res) {
        res.location('https://google.com?q=%A710').end()
      })
      request(app)
        .get('/')
        .expect('Location', 'https://google.com?q=%A710')
        .expect(200, done)
    })
  })
})
`
	cur := `var express = require('..')
var request = require('supertest')

describe('res', function () {
  describe('location header encoding', function () {
    function testRequestedRedirect (inputUrl, expected, done) {
      var app = express()
      app.use(function (req, res) {
        res.location(req.query.q).end()
      })
      request(app)
        .get('/?q=' + encodeURIComponent(inputUrl))
        .expect(200)
        .expect('Location', expected)
        .end(done)
    }

    it('should not touch already-encoded sequences in "url"', function (done) {
      testRequestedRedirect('https://google.com?q=%A710', 'https://google.com?q=%A710', done)
    })
  })
})
`
	id := `res > location header encoding > should not touch already-encoded sequences in "url"`
	t.Run("helper checks it", func(t *testing.T) { expectNoHigh(t, run(mod(p, old, cur))) })
	for name, edit := range map[string][2]string{
		"helper checks the status only": {"        .expect('Location', expected)\n", ""},
		"helper checks nothing":         {"        .expect(200)\n        .expect('Location', expected)\n", ""},
		"helper passed other values":    {"testRequestedRedirect('https://google.com?q=%A710', 'https://google.com?q=%A710', done)", "testRequestedRedirect('https://example.com', 'https://example.com', done)"},
		"helper checks expected itself": {"        .expect('Location', expected)\n        .end(done)\n", "        .end(function (err) { assert.strictEqual(expected, expected); done(err) })\n"},
	} {
		t.Run(name, func(t *testing.T) {
			expectFinding(t, run(mod(p, old, strings.Replace(cur, edit[0], edit[1], 1))), gate.AssertionWeakening, gate.SeverityHigh, p, id)
		})
	}
}
