package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func TestSetupLiterals(t *testing.T) {
	tc := &testscan.TestCase{
		Literals: []string{`"/"`, `"json"`, `"/"`, `"a"`, `200`},
		Assertions: []testscan.Assertion{
			{Kind: "supertest.expect", Subject: `request(app).get("/")`, Expected: `"a"`},
			{Kind: "supertest.expect", Subject: `request(app).get("/")`, Expected: `200`},
		},
	}
	// One "/" is the route set up, the other the request the checks share.
	want := map[string]int{`"/"`: 1, `"json"`: 1}
	if diff := cmp.Diff(want, setupLiterals(tc)); diff != "" {
		t.Errorf("setupLiterals (-want +got):\n%s", diff)
	}
}

func TestDoesAllOf(t *testing.T) {
	check := func(exp string, s testscan.Strength) testscan.Assertion {
		return testscan.Assertion{Kind: "supertest.expect", Subject: `request(app).get("/")`, Expected: exp, Strength: s}
	}
	deleted := testscan.TestCase{
		BodyTokens: 60,
		Literals:   []string{`"/"`, `"json"`, `"/"`, `200`},
		Calls:      []testscan.Call{{Name: ".type", Sites: 1}, {Name: ".jsonp", Sites: 1}},
		Assertions: []testscan.Assertion{check(`200`, testscan.Strong)},
	}
	copyOf := func(edit func(*testscan.TestCase)) *testscan.TestCase {
		c := deleted
		c.Literals = append([]string{`"x"`}, deleted.Literals...)
		c.Calls = append([]testscan.Call{{Name: ".shouldNotHaveHeader", Sites: 1}}, deleted.Calls...)
		c.Assertions = append([]testscan.Assertion{check(`utils.shouldNotHaveHeader("x")`, testscan.Strong)}, deleted.Assertions...)
		c.BodyTokens = 70
		if edit != nil {
			edit(&c)
		}
		return &c
	}
	for _, tt := range []struct {
		name string
		n    *testscan.TestCase
		want bool
	}{
		{"copy with one more check and call", copyOf(nil), true},
		{"check of another value", copyOf(func(c *testscan.TestCase) { c.Assertions[1].Expected = `404` }), false},
		{"weaker check", copyOf(func(c *testscan.TestCase) { c.Assertions[1].Strength = testscan.Weak }), false},
		{"other call", copyOf(func(c *testscan.TestCase) { c.Calls[2].Name = ".json" }), false},
		{"call made less often", copyOf(func(c *testscan.TestCase) { c.Calls[2].Sites = 0 }), false},
		{"one more setup call", copyOf(func(c *testscan.TestCase) { c.Calls = append(c.Calls, testscan.Call{Name: ".set", Sites: 1}) }), false},
		{"one more setup literal", copyOf(func(c *testscan.TestCase) { c.Literals = append(c.Literals, `"strict"`) }), false},
		{"setup literal missing", copyOf(func(c *testscan.TestCase) { c.Literals = []string{`"x"`, `"/"`, `"/"`, `200`} }), false},
		{"shorter body", copyOf(func(c *testscan.TestCase) { c.BodyTokens = 10 }), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := doesAllOf(tt.n, &deleted); got != tt.want {
				t.Errorf("doesAllOf = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMayHoldCopy(t *testing.T) {
	src := []byte("package p\n\nfunc TestB(t *testing.T) {\n\tif got := f(\"ab c\", 42); got != `x\\y` {\n\t\tt.Fatal(got)\n\t}\n}\n")
	for _, tc := range []struct {
		lits []string
		want bool
	}{
		{[]string{`"ab c"`, `42`}, true},
		{[]string{`"ab c"`, `43`}, false},  // a number the file lacks
		{[]string{`"abd"`}, false},         // a string the file lacks
		{[]string{`"x\\y"`, `0x2a`}, true}, // escaped, or spelled otherwise: not asked
		{nil, true},                        // nothing to ask
	} {
		if got := mayHoldCopy(&testscan.TestCase{Literals: tc.lits}, src); got != tc.want {
			t.Errorf("mayHoldCopy(%q) = %v, want %v", tc.lits, got, tc.want)
		}
	}
}

// TestGoDuplicateDeletedMasked: a Go test deleted beside an unchanged copy
// is a duplicate removed, and one whose copy checks another value is a
// deletion, with the versions masked or not (run compares both).
func TestGoDuplicateDeletedMasked(t *testing.T) {
	const head = "package p\n\nimport \"testing\"\n\n"
	test := func(name, want string) string {
		return "func " + name + "(t *testing.T) {\n\tif got := Parse(\"1,2\"); got != " + want + " {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n}\n\n"
	}
	other := test("TestOther", "7")
	for _, tc := range []struct {
		copyWant string
		rule     string
	}{{"3", "test-duplicate-deleted"}, {"4", "test-deleted"}} {
		old := head + test("TestParse", "3") + test("TestParseAgain", tc.copyWant) + other
		new := head + test("TestParseAgain", tc.copyWant) + other
		fs := run(mod("p/p_test.go", old, new))
		if len(fs) != 1 || fs[0].Rule != tc.rule {
			t.Errorf("copy checks %s: findings %v, want one %s", tc.copyWant, fs, tc.rule)
		}
	}
}
