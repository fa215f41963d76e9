package analyze

import (
	"reflect"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestSpelling(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"TestNoArgsWithArgs", "TestNoArgs_WithArgs"},
		{"testDigit", "digit"},
		{"test_parse_url", "testParseURL"},
	} {
		if spelling(c.a) != spelling(c.b) {
			t.Errorf("spelling(%q) = %q, spelling(%q) = %q: want equal", c.a, spelling(c.a), c.b, spelling(c.b))
		}
	}
	if spelling("TestParse") == spelling("TestParser") {
		t.Error("TestParse and TestParser spelled alike")
	}
}

func TestRawLiterals(t *testing.T) {
	got := rawLiterals(`f("GET /a \"301\"", 'x', "abcde") + ` + "`hello`")
	want := []string{`GET /a \"301\"`, "abcde", "hello"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rawLiterals = %q, want %q", got, want)
	}
}

func TestCarries(t *testing.T) {
	eq := func(kind, subj, exp string, s testscan.Strength) testscan.Assertion {
		return testscan.Assertion{Kind: kind, Subject: subj, Expected: exp, Strength: s}
	}
	for _, c := range []struct {
		name      string
		x, y      testscan.Assertion
		all, vals bool
	}{
		{"same check elsewhere", eq("assert.Equal", "re", `"requires Go 1.24+"`, testscan.Strong), eq("assert.Equal", "Warning()", `"requires Go 1.24+"`, testscan.Strong), true, true},
		{"weaker", eq("assert.Equal", "Warning()", `"v"`, testscan.Strong), eq("assert.NotEmpty", "Warning()", "", testscan.Medium), false, false},
		{"same subject, other value", eq("t.is", `headers["content-length"]`, `"157"`, testscan.Strong), eq("t.is", `headers["content-length"]`, "undefined", testscan.Strong), false, false},
		{"generic expected variable", eq("assert ==", "result.output", "expect", testscan.Strong), eq("assert ==", "out", "expect", testscan.Strong), false, false},
		{"strings kept in a snapshot", eq("toContain", "stderr", `"was not awaited"`, testscan.Medium), eq("toMatchInlineSnapshot", "errorTree()", `"{ \"a\": [\"was not awaited.\"] }"`, testscan.Strong), true, true},
		{"regexp message", eq("assert.throws", "use.bind(r)", "/handler is required/", testscan.Medium), eq("assert.throws", "function(){r.use()}", "/handler is required/", testscan.Medium), true, true},
	} {
		if got := carries(c.x, c.y); got != c.all {
			t.Errorf("%s: carries = %v, want %v", c.name, got, c.all)
		}
		if got := carriesValue(c.x, c.y); got != c.vals {
			t.Errorf("%s: carriesValue = %v, want %v", c.name, got, c.vals)
		}
	}
}
