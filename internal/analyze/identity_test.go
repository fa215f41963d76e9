package analyze

import (
	"reflect"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
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

func TestRowKept(t *testing.T) {
	row := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	newCase := func(rows ...map[string]string) *locTest {
		return &locTest{tc: &testscan.TestCase{ID: "test_x[*]", Params: rows}}
	}
	old := &testscan.TestCase{ID: "test_x[args1-False]", Params: []map[string]string{row("args", `["--off"]`, "default", "False")}}
	tests := []struct {
		name string
		old  *testscan.TestCase
		by   []*locTest
		want int
		kept bool
	}{
		{"the row is in the new table, with a new argument", old,
			[]*locTest{newCase(row("args", `["--on"]`, "default", "False", "expect", "True"), row("args", `["--off"]`, "default", "False", "expect", "False"))}, 2, true},
		{"the row is gone", old,
			[]*locTest{newCase(row("args", `["--on"]`, "default", "False", "expect", "True"), row("args", `["--off"]`, "default", "True", "expect", "False"))}, 2, false},
		{"an argument of the row is gone (overwritten by the body)", old,
			[]*locTest{newCase(row("args", `["--off"]`, "expect", "False"), row("args", `["--on"]`, "expect", "True"))}, 2, false},
		{"fewer rows than old cases", old,
			[]*locTest{newCase(row("args", `["--off"]`, "default", "False"))}, 2, false},
		{"an old case without rows", &testscan.TestCase{ID: "test_x[a]"},
			[]*locTest{newCase(row("args", `["--off"]`))}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rowKept(tt.old, tt.by, tt.want); got != tt.kept {
				t.Errorf("rowKept = %v, want %v", got, tt.kept)
			}
		})
	}
}

func TestMergedRow(t *testing.T) {
	py := &side{ext: scanners.ForPath("t.py")}
	warns := testscan.Assertion{Kind: "pytest.warns", Expected: "DeprecationWarning", Strength: testscan.Medium}
	equal := testscan.Assertion{Kind: "assert ==", Subject: "value", Expected: "target", Strength: testscan.Strong}
	old := &locTest{side: py, tc: &testscan.TestCase{
		ID: "test_utilities_deprecated[LazyFile]", Params: []map[string]string{{"name": `"LazyFile"`}},
		Assertions: []testscan.Assertion{warns},
	}}
	merged := func(id string, checks []testscan.Assertion, rows ...map[string]string) *locTest {
		return &locTest{side: py, tc: &testscan.TestCase{ID: id, Params: rows, Assertions: checks}}
	}
	tests := []struct {
		name string
		made []*locTest
		want bool
	}{
		{"the row in another table, checked the same way", []*locTest{merged("test_attr_deprecated[*]", []testscan.Assertion{warns, equal},
			map[string]string{"module": "m.utils", "name": `"LazyFile"`}, map[string]string{"module": "m", "name": `"other"`})}, true},
		{"the row dropped", []*locTest{merged("test_attr_deprecated[*]", []testscan.Assertion{warns, equal},
			map[string]string{"module": "m", "name": `"other"`})}, false},
		{"the warning check dropped", []*locTest{merged("test_attr_deprecated[*]", []testscan.Assertion{equal},
			map[string]string{"module": "m.utils", "name": `"LazyFile"`})}, false},
		{"the same base is family's to judge", []*locTest{merged("test_utilities_deprecated[*]", []testscan.Assertion{warns},
			map[string]string{"name": `"LazyFile"`})}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mergedRow(old, tt.made) != nil; got != tt.want {
				t.Errorf("mergedRow found = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLostChecks: a test matched to a reworked one keeps as many checks of
// at least medium strength as it had, besides those moved verbatim into
// another test the change created.
func TestLostChecks(t *testing.T) {
	rs := &side{ext: scanners.ForPath("tests/t.rs")}
	check := func(subject, expected string) testscan.Assertion {
		return testscan.Assertion{Kind: "assert_tokens()", Subject: subject, Expected: expected, Strength: testscan.Strong}
	}
	a := check("&E::Newtype(5)", `&[Token::Str("c"),Token::U32(5)]`)
	b := check("&E::Null", `&[Token::Struct{name:"E",len:1},Token::Str("Null")]`)
	test := func(id string, checks ...testscan.Assertion) *locTest {
		return &locTest{side: rs, tc: &testscan.TestCase{ID: id, Assertions: checks}}
	}
	old := test("test_enum", a, b)
	tests := []struct {
		name   string
		n      *locTest
		others []*locTest
		want   int
	}{
		{"both checks kept", test("newtype::content", a, b), nil, 0},
		{"one check dropped", test("newtype::content", a), nil, 1},
		{"one check split into another new test", test("newtype::content", a), []*locTest{test("unit::tag", b)}, 0},
		{"another new test checks another value", test("newtype::content", a),
			[]*locTest{test("unit::tag", check("&E::Null", "&[Token::StructEnd]"))}, 1},
		{"a case of the table it was folded into", test("test_enum[1]", a), nil, 0},
		{"a subtest", test("test_enum/newtype", a), nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lostChecks(old, tt.n, tt.others, nil); got != tt.want {
				t.Errorf("lostChecks = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestLostChecksConsolidated: two checks of one value made by one check of
// a kind the old test did not use (assert_de_tokens and assert_ser_tokens
// become assert_tokens) lose nothing; a check of another value does.
func TestLostChecksConsolidated(t *testing.T) {
	rs := &side{ext: scanners.ForPath("tests/t.rs")}
	check := func(kind, subject string) testscan.Assertion {
		return testscan.Assertion{Kind: kind, Subject: subject, Expected: "&[Token::Unit]", Strength: testscan.Strong}
	}
	test := func(id string, checks ...testscan.Assertion) *locTest {
		return &locTest{side: rs, tc: &testscan.TestCase{ID: id, Assertions: checks}}
	}
	old := test("test_flatten", check("assert_de_tokens()", "&req"), check("assert_ser_tokens()", "&req"))
	if k := lostChecks(old, test("flatten::from_map", check("assert_tokens()", "&value")), nil, nil); k != 0 {
		t.Errorf("consolidated into assert_tokens: lostChecks = %d, want 0", k)
	}
	if k := lostChecks(old, test("flatten::from_map", check("assert_de_tokens()", "&value")), nil, nil); k != 1 {
		t.Errorf("the ser check dropped: lostChecks = %d, want 1", k)
	}
	two := test("test_two", check("assert_de_tokens()", "&a"), check("assert_ser_tokens()", "&b"))
	if k := lostChecks(two, test("two::a", check("assert_tokens()", "&a")), nil, nil); k != 1 {
		t.Errorf("one of two values checked: lostChecks = %d, want 1", k)
	}
}

// TestReworkedKeepsItsLanguage: a deleted JavaScript test is not "reworked"
// into a new Go test whose literals happen to be its own (a long range's net
// change has many of both): it is deleted.
func TestReworkedKeepsItsLanguage(t *testing.T) {
	js := "const assert = require('assert')\n\ndescribe('App', () => {\n  it('routes', () => {\n    assert.strictEqual(route('/graph', 'alerts'), 'graph')\n  })\n})\n"
	goTest := "package p\n\nimport \"testing\"\n\nfunc TestRoutes(t *testing.T) {\n\tif got := route(\"/graph\", \"alerts\"); got != \"graph\" {\n\t\tt.Fatal(got)\n\t}\n}\n"
	fs := run(del("web/app.test.js", js), add("p/routes_test.go", goTest))
	var rules []string
	for _, f := range fs {
		rules = append(rules, f.Rule+"/"+f.Severity.String())
	}
	if len(fs) == 0 || fs[0].Rule != "test-file-deleted" && fs[0].Rule != "test-deleted" {
		t.Errorf("findings %v, want the JavaScript test deleted", rules)
	}
}

// TestVisibilityKey: a name and its respelling for another visibility
// share a key; other names do not.
func TestVisibilityKey(t *testing.T) {
	same := [][2]string{{"withoutVariables", "WithoutVariables"}, {"_parse", "parse"}, {"__init_x", "Init_x"}, {"Éclair", "éclair"}, {"x", "X"}}
	for _, p := range same {
		if visibilityKey(p[0]) != visibilityKey(p[1]) {
			t.Errorf("visibilityKey(%q) = %q, visibilityKey(%q) = %q", p[0], visibilityKey(p[0]), p[1], visibilityKey(p[1]))
		}
	}
	differ := [][2]string{{"withoutVariables", "withVariables"}, {"parse", "parseAll"}, {"Parse", "PARSE"}, {"_", "a"}}
	for _, p := range differ {
		if visibilityKey(p[0]) == visibilityKey(p[1]) {
			t.Errorf("visibilityKey(%q) == visibilityKey(%q) = %q", p[0], p[1], visibilityKey(p[0]))
		}
	}
}
