package analyze

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestCovers(t *testing.T) {
	a := func(kind string, s testscan.Strength, neg bool, subj, exp string) testscan.Assertion {
		return testscan.Assertion{Kind: kind, Strength: s, Negated: neg, Subject: subj, Expected: exp}
	}
	tests := []struct {
		name string
		y, x testscan.Assertion
		want bool
	}{
		{"contains to exact equals",
			a("isEqualTo", testscan.Strong, false, "json", `"{\"x\":1,\"y\":2}"`), a("contains", testscan.Medium, false, "json", `"\"y\":2"`), true},
		{"short literal needs the same subject",
			a("isEqualTo", testscan.Strong, false, "other", `"{\"x\":1}"`), a("contains", testscan.Medium, false, "json", `"{"`), false},
		{"contains to isNotNull",
			a("isNotNull", testscan.Weak, false, "json", ""), a("contains", testscan.Medium, false, "json", `"\"y\":2"`), false},
		{"inline snapshot holds the text",
			a("assert_data_eq!", testscan.Strong, false, "help", `str![[r#"\nLorem ipsum\nOptions: Fooify a bar\n"#]].raw()`), a("assert!", testscan.Medium, false, `help.contains("Lorem ipsum")`, ""), true},
		{"inline snapshot excludes the text",
			a("assert_data_eq!", testscan.Strong, false, "help", `str![[r#"\nLorem ipsum\nOptions: Fooify a bar\n"#]].raw()`), a("assert!", testscan.Weak, true, `help.contains("DO NOT PASS")`, ""), true},
		{"wildcard snapshot pins nothing",
			a("assert_data_eq!", testscan.Strong, false, "help", `str![[r#"\n...\n"#]].raw()`), a("assert!", testscan.Weak, true, `help.contains("DO NOT PASS")`, ""), false},
		{"empty inline snapshot",
			a("toMatchInlineSnapshot", testscan.Strong, false, "issues", ""), a("toBe", testscan.Strong, false, "issues[0].code", `"invalid_union"`), false},
		{"snapshot of the object holds the field",
			a("toMatchInlineSnapshot", testscan.Strong, false, "result.error.issues", "`[{\"code\": \"invalid_union\", \"inclusive\": false}]`"), a("toBe", testscan.Strong, false, "(result.error.issues[0]as any).inclusive", "false"), true},
		{"snapshot of another field",
			a("toMatchInlineSnapshot", testscan.Strong, false, "result.error.issues.length", `"1"`), a("toBe", testscan.Strong, false, "result.error.issues[0].code", `"invalid_union"`), false},
		{"a length of the literal is no equality of it",
			a("assert ==", testscan.Strong, false, "len(out)", `len("hello world")`), a("assert ==", testscan.Strong, false, "out", `"hello world"`), false},
		{"raises with match over the message check",
			a("pytest.raises", testscan.Strong, false, "", `ValueError match=".*must be absolute"`), a("assert in", testscan.Medium, false, `"must be absolute"`, "str(excinfo.value)"), true},
		{"raises without match",
			a("pytest.raises", testscan.Medium, false, "", `Exception`), a("assert in", testscan.Medium, false, `"must be absolute"`, "str(excinfo.value)"), false},
		{"should_panic with message over is_err",
			a("should_panic", testscan.Strong, false, "", `"called outside of a LocalSet"`), a("assert!", testscan.Weak, false, "panic_result.is_err()", ""), true},
		{"should_panic without message",
			a("should_panic", testscan.Medium, false, "", ""), a("assert!", testscan.Weak, false, "panic_result.is_err()", ""), false},
		{"errors.Is over the message",
			a("errors.Is", testscan.Strong, false, "got", "os.ErrPermission"), a("t.Errorf", testscan.Strong, false, "got.Error()", `"open x: permission denied"`), true},
		{"membership by the exact elements",
			a("containsExactly", testscan.Strong, false, "map.values()", `10.0,20.0,false,"stringValue"`), a("isTrue", testscan.Medium, false, `values.containsValue("stringValue")`, ""), true},
		{"membership of a value not listed",
			a("containsExactly", testscan.Strong, false, "map.values()", `10.0,20.0`), a("isTrue", testscan.Medium, false, "values.containsValue(30.0)", ""), false},
		{"membership by isNotEmpty",
			a("isNotEmpty", testscan.Weak, false, "map.values()", ""), a("isTrue", testscan.Medium, false, "values.containsValue(10.0)", ""), false},
		{"a negated check covers nothing",
			a("isEqualTo", testscan.Strong, true, "json", `"{\"x\":1}"`), a("contains", testscan.Medium, false, "json", `"\"x\":1"`), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := covers(tt.y, tt.x); got != tt.want {
				t.Errorf("covers(%+v, %+v) = %v, want %v", tt.y, tt.x, got, tt.want)
			}
		})
	}
}

func TestEffStrength(t *testing.T) {
	tests := []struct {
		x    testscan.Assertion
		want testscan.Strength
	}{
		{testscan.Assertion{Kind: "assert.NotEqual", Strength: testscan.Strong, Negated: true, Subject: "s", Expected: `""`}, testscan.Weak},
		{testscan.Assertion{Kind: "assert.NotEqual", Strength: testscan.Strong, Negated: true, Subject: "s", Expected: `"text/plain"`}, testscan.Strong},
		{testscan.Assertion{Kind: "assert.Equal", Strength: testscan.Strong, Subject: "s", Expected: `""`}, testscan.Strong},
		{testscan.Assertion{Kind: "isTrue", Strength: testscan.Medium, Subject: "names.length>0"}, testscan.Weak},
		{testscan.Assertion{Kind: "isTrue", Strength: testscan.Medium, Subject: `names[0].startsWith("{")`}, testscan.Medium},
	}
	for _, tt := range tests {
		if got := effStrength(tt.x); got != tt.want {
			t.Errorf("effStrength(%+v) = %v, want %v", tt.x, got, tt.want)
		}
	}
}

func TestFailsCall(t *testing.T) {
	const call = `axios.get("http://localhost:4444/",{maxContentLength:2000})`
	for _, tc := range []struct {
		kind, subject string
		want          bool
	}{
		{"assert.rejects", `()=>{return axios.get("http://localhost:4444/",{maxContentLength:2000,maxRedirects:0})}`, true},
		{"toThrow", `axios.get("http://localhost:4444/",{maxContentLength:2000})`, true},
		{"assert.rejects", `()=>{return axios.head("http://localhost:4444/",{maxContentLength:2000})}`, false},
		{"assert.rejects", `()=>{return axios.get("http://localhost:4444/",{maxContentLength:20000})}`, false},
		{"assert.rejects", `()=>{return axios.get("http://localhost:5555/",{maxContentLength:2000})}`, false},
		{"assert.equal", `axios.get("http://localhost:4444/",{maxContentLength:2000})`, false},
	} {
		y := testscan.Assertion{Kind: tc.kind, Subject: tc.subject, Strength: testscan.Medium}
		if got := failsCall(y, call); got != tc.want {
			t.Errorf("failsCall(%s %s) = %v, want %v", tc.kind, tc.subject, got, tc.want)
		}
	}
}
