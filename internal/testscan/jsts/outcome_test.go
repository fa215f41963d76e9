package jsts

import (
	"strings"
	"testing"
)

func TestMarkRejects(t *testing.T) {
	const call = `axios.get("http://localhost:4444/",{maxContentLength:2000})`
	wrap := func(body string) string {
		return "describe('http', function () {\n  it('max content length', function (done) {\n" + body + "\n  })\n})\n"
	}
	poll := `    var success = false, failure = false, error;
    axios.get('http://localhost:4444/', { maxContentLength: 2000 }).then(function () {
      success = true;
    }).catch(function (err) {
      error = err;
      failure = true;
    });
    setTimeout(function () {
      CHECKS
      done();
    }, 100);`
	for _, tc := range []struct {
		name, src string
		want      map[string]string // subject -> Rejects
	}{
		{"polled flags", strings.Replace(poll, "CHECKS", "assert.equal(success, false); assert.equal(failure, true); assert.equal(error.message, 'boom')", 1),
			map[string]string{"success": call, "failure": call, "error.message": ""}},
		{"the other way", strings.Replace(poll, "CHECKS", "assert.equal(success, true); assert.ok(failure)", 1),
			map[string]string{"success": "!" + call, "failure": call}},
		{"expect and not", strings.Replace(poll, "CHECKS", "expect(failure).toBe(true); expect(success).not.toBe(true)", 1),
			map[string]string{"failure": call, "success": call}},
		{"set under an if", strings.Replace(strings.Replace(poll, "      failure = true;", "      if (err.code === 'E') failure = true;", 1), "CHECKS", "assert.equal(failure, true)", 1),
			map[string]string{"failure": ""}},
		{"set elsewhere too", strings.Replace(strings.Replace(poll, "    setTimeout", "    failure = true;\n    setTimeout", 1), "CHECKS", "assert.equal(failure, true)", 1),
			map[string]string{"failure": ""}},
		{"not declared in the test", strings.Replace(strings.Replace(poll, "var success = false, failure = false, error;", "", 1), "CHECKS", "assert.equal(failure, true)", 1),
			map[string]string{"failure": ""}},
		{"promise held in a variable", `    var failure = false;
    p.catch(function () { failure = true; });
    setTimeout(function () { assert.equal(failure, true); done(); }, 100);`,
			map[string]string{"failure": ""}},
		{"arrow callbacks and .then's second argument", `    let failed = false;
    axios.get('http://localhost:4444/', { maxContentLength: 2000 }).then(() => {}, (err) => { failed = true });
    setTimeout(() => { assert.strictEqual(failed, true); done() }, 100);`,
			map[string]string{"failed": call}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New().Extract("test/http.test.js", []byte(wrap(tc.src)))
			if err != nil || len(f.Tests) != 1 {
				t.Fatalf("extract: %v, %d tests", err, len(f.Tests))
			}
			got := map[string]string{}
			for _, a := range f.Tests[0].Assertions {
				got[a.Subject] = a.Rejects
			}
			for subj, want := range tc.want {
				if r, ok := got[subj]; !ok || r != want {
					t.Errorf("check of %s: Rejects %q (found %v), want %q", subj, r, ok, want)
				}
			}
		})
	}
}

func TestFloatingFailureChecks(t *testing.T) {
	src := `describe('http', function () {
  it('rejects', async function () {
    await assert.rejects(() => axios.get('http://a/'), /boom/)
    assert.rejects(() => axios.get('http://a/'), /boom/)
    expect(() => parse('')).toThrow('empty')
    return expect(axios.get('http://a/')).rejects.toThrow('boom')
  })
})
`
	f, err := New().Extract("test/http.test.js", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v", err)
	}
	var got []bool
	for _, a := range f.Tests[0].Assertions {
		got = append(got, a.Floating)
	}
	want := []bool{false, true, true, false}
	if len(got) != len(want) {
		t.Fatalf("got %d checks, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("check %d: Floating %v, want %v", i, got[i], want[i])
		}
	}
}
