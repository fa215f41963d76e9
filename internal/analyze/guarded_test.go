package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestNewlyGuarded: a check kept, but only under a new branch, is a
// check-guarded finding: high when the branch reads the environment or
// never runs, medium on any other condition; none when another arm of the
// branch checks the same subject (per-variant checks), when the new block
// is a loop, or when a guard that was already there is only rewritten.
func TestNewlyGuarded(t *testing.T) {
	py := func(body string) string {
		return "import os\nimport sys\nfrom calc import parse\n\n\ndef test_parse():\n" + body
	}
	js := func(body string) string {
		return "import { it, expect } from 'vitest';\nimport { parse } from '../src/calc.js';\n\nit('parses', () => {\n" + body + "});\n"
	}
	goT := func(body string) string {
		return "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestParse(t *testing.T) {\n\tvar rows []string\n\t_ = os.Args\n" + body + "}\n"
	}
	rs := func(body string) string {
		return "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn parses() {\n" + body + "    }\n}\n"
	}
	java := func(body string) string {
		return "package calc;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass CalcTest {\n    @Test\n    void parses() {\n" + body + "    }\n}\n"
	}
	const (
		javaCheck = "        assertEquals(42, Calc.parse(\"x\"));\n"
		pyCheck   = "    assert parse(\"x\") == 42\n"
		jsCheck   = "  expect(parse('x')).toBe(42);\n"
		goCheck   = "\tif got := Parse(\"x\"); got != 42 {\n\t\tt.Errorf(\"got %d\", got)\n\t}\n"
		rsCheck   = "        assert_eq!(parse(\"x\"), 42);\n"
	)
	for _, tc := range []struct {
		name, path, old, new string
		sev                  gate.Severity // 0: no finding
	}{
		{"python env", "tests/test_calc.py", py(pyCheck), py("    if os.environ.get(\"SLOW\"):\n    " + pyCheck), gate.SeverityHigh},
		{"python else of env", "tests/test_calc.py", py(pyCheck), py("    if os.getenv(\"FAST\"):\n        pass\n    else:\n    " + pyCheck), gate.SeverityHigh},
		{"python never", "tests/test_calc.py", py(pyCheck), py("    if False:\n    " + pyCheck), gate.SeverityHigh},
		{"python other condition", "tests/test_calc.py", py(pyCheck), py("    if len(sys.argv) > 1:\n    " + pyCheck), gate.SeverityMedium},
		{"python per-variant", "tests/test_calc.py", py(pyCheck), py("    if sys.platform == \"win32\":\n        assert parse(\"x\") == 43\n    else:\n    " + pyCheck), 0},
		{"python loop", "tests/test_calc.py", py(pyCheck), py("    for _ in range(2):\n    " + pyCheck), 0},
		{"python guard rewritten", "tests/test_calc.py", py("    if os.environ.get(\"A\"):\n    " + pyCheck), py("    if os.environ.get(\"B\"):\n    " + pyCheck), 0},
		{"python try dropping", "tests/test_calc.py", py(pyCheck), py("    try:\n    " + pyCheck + "    except AssertionError:\n        pass\n"), gate.SeverityHigh},
		{"python try bare except logging", "tests/test_calc.py", py(pyCheck), py("    try:\n    " + pyCheck + "    except:\n        print('flaky')\n"), gate.SeverityHigh},
		{"python try re-raising", "tests/test_calc.py", py(pyCheck), py("    try:\n    " + pyCheck + "    except AssertionError as e:\n        raise ValueError('context') from e\n"), 0},
		{"python try catching another error", "tests/test_calc.py", py(pyCheck), py("    try:\n    " + pyCheck + "    except KeyError:\n        pass\n"), 0},
		{"python try checking in handler", "tests/test_calc.py", py(pyCheck), py("    try:\n    " + pyCheck + "    except Exception as e:\n        self.assertIn('x', str(e))\n"), 0},
		{"js try dropping", "test/calc.test.js", js(jsCheck), js("  try {\n  " + jsCheck + "  } catch (e) {\n    console.log(e);\n  }\n"), gate.SeverityHigh},
		{"js try capturing", "test/calc.test.js", js(jsCheck), js("  let msg;\n  try {\n  " + jsCheck + "  } catch (e) {\n    msg = e.message;\n  }\n"), gate.SeverityMedium},
		{"python try capturing", "tests/test_calc.py", py(pyCheck), py("    err = None\n    try:\n    " + pyCheck + "    except AssertionError as e:\n        err = e\n"), gate.SeverityMedium},
		{"js try checking in catch", "test/calc.test.js", js(jsCheck), js("  try {\n  " + jsCheck + "  } catch (e) {\n    expect(e.message).toBe('x');\n  }\n"), 0},
		{"js try finally", "test/calc.test.js", js(jsCheck), js("  try {\n  " + jsCheck + "  } finally {\n    cleanup();\n  }\n"), 0},
		{"js env short circuit", "test/calc.test.js", js(jsCheck), js("  process.env.SLOW && " + strings.TrimLeft(jsCheck, " ")), gate.SeverityHigh},
		{"js && inside the check", "test/calc.test.js", js(jsCheck), js("  expect(parse('x')).toBe(42);\n  expect(a && b).toBe(true);\n"), 0},
		{"js env", "test/calc.test.js", js(jsCheck), js("  if (process.env.SLOW) {\n  " + jsCheck + "  }\n"), gate.SeverityHigh},
		{"js never", "test/calc.test.js", js(jsCheck), js("  if (false) {\n  " + jsCheck + "  }\n"), gate.SeverityHigh},
		{"js loop", "test/calc.test.js", js(jsCheck), js("  for (const r of [1, 2]) {\n  " + jsCheck + "  }\n"), 0},
		{"go env", "calc_test.go", goT(goCheck), goT("\tif os.Getenv(\"SLOW\") != \"\" {\n" + goCheck + "\t}\n"), gate.SeverityHigh},
		{"go loop", "calc_test.go", goT(goCheck), goT("\tfor range rows {\n" + goCheck + "\t}\n"), 0},
		{"java env", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        if (System.getenv(\"SLOW\") != null) {\n    " + javaCheck + "        }\n"), gate.SeverityHigh},
		{"java braceless env", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        if (Boolean.getBoolean(\"slow\"))\n    " + javaCheck), gate.SeverityHigh},
		{"java else of env", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        if (System.getenv(\"FAST\") != null) {\n            return;\n        } else {\n    " + javaCheck + "        }\n"), gate.SeverityHigh},
		{"java try dropping", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        try {\n    " + javaCheck + "        } catch (AssertionError e) {\n            System.out.println(e);\n        }\n"), gate.SeverityHigh},
		{"java try capturing", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        AssertionError caught = null;\n        try {\n    " + javaCheck + "        } catch (AssertionError e) {\n            caught = e;\n        }\n"), gate.SeverityMedium},
		{"java try catching Exception", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        try {\n    " + javaCheck + "        } catch (Exception e) {\n        }\n"), 0},
		{"java try rethrowing", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        try {\n    " + javaCheck + "        } catch (Throwable e) {\n            throw new IllegalStateException(e);\n        }\n"), 0},
		{"java loop", "src/test/java/calc/CalcTest.java", java(javaCheck), java("        for (int k = 0; k < 2; k++) {\n    " + javaCheck + "        }\n"), 0},
		{"rust env", "src/lib.rs", rs(rsCheck), rs("        if std::env::var(\"SLOW\").is_ok() {\n    " + rsCheck + "        }\n"), gate.SeverityHigh},
		{"rust loop", "src/lib.rs", rs(rsCheck), rs("        for _ in 0..2 {\n    " + rsCheck + "        }\n"), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *gate.Finding
			for _, f := range run(mod(tc.path, tc.old, tc.new)) {
				if f.Rule == "check-guarded" {
					got = &f
				}
			}
			switch {
			case tc.sev == 0 && got != nil:
				t.Errorf("unexpected %s %q", got.Severity, got.Message)
			case tc.sev != 0 && got == nil:
				t.Errorf("no check-guarded finding")
			case got != nil && got.Severity != tc.sev:
				t.Errorf("severity %s, want %s: %q", got.Severity, tc.sev, got.Message)
			case got != nil && !strings.Contains(got.Message, "now sits in a "):
				t.Errorf("message %q", got.Message)
			}
		})
	}
}

func TestGuardConditions(t *testing.T) {
	for cond, want := range map[string][3]bool{ // env, never, conditional
		`if os . environ . get ( "X" ) :`:   {true, false, true},
		`if (process.env.CI)`:               {true, false, true},
		`if v, ok := os.LookupEnv("X"); ok`: {true, false, true},
		`if System.getenv("X") != null`:     {true, false, true},
		`if let Ok(v) = std::env::var("X")`: {true, false, true},
		`if False :`:                        {false, true, true},
		`if (false)`:                        {false, true, true},
		`if 0`:                              {false, true, true},
		`if got is not None :`:              {false, false, true},
		`for x in rows :`:                   {false, false, false},
		`for (const r of rows)`:             {false, false, false},
		`while (true)`:                      {false, false, false},
		`func`:                              {false, false, false},
		`=>`:                                {false, false, false},
		// Loops whose body never runs guard like a false condition.
		`for _ in [ ]`:                           {false, true, true},
		`for y in range ( 0 ) :`:                 {false, true, true},
		`while False`:                            {false, true, true},
		`for ( const x of [ ] )`:                 {false, true, true},
		`for ( let i = 0 i < 0 i ++ )`:           {false, true, true},
		`while ( false )`:                        {false, true, true},
		`range []int{}`:                          {false, true, true},
		`range map[string]int{}`:                 {false, true, true},
		`for i := 0; i<0; i++`:                   {false, true, true},
		`range []string{"a"}`:                    {false, false, false},
		`for ( const x of [ 1 ] )`:               {false, false, false},
		`for x in range ( 3 ) :`:                 {false, false, false},
		`for i := 0; i<n; i++`:                   {false, false, false},
		`for ( let i = 0 i < rows.length i ++ )`: {false, false, false},
		`for k in { } . items ( ) :`:             {false, false, false},
		`for _ in[]`:                             {false, true, true},
		`for index in ins :`:                     {false, false, false},
		`for (k in {})`:                          {false, true, true},
		`for ( int i = 0 ; i < 0 ; i ++ )`:       {false, true, true},
		`for ( String s : List . of ( ) )`:       {false, true, true},
		`for ( String s : names )`:               {false, false, false},
		`for _ in 0 .. 0`:                        {false, true, true},
		`for _ in 0 .. n`:                        {false, false, false},
		`while false`:                            {false, true, true},
	} {
		if got := [3]bool{readsEnvironment(cond), testscan.NeverHolds(cond), conditional(cond)}; got != want {
			t.Errorf("%q: env, never, conditional = %v, want %v", cond, got, want)
		}
	}
	if got := tightCond(`if os . environ . get ( "X" , "" ) :`); got != `if os.environ.get("X", "") :` {
		t.Errorf("tightCond = %q", got)
	}
}

// TestFromCodeUnderTest: an expected value is circular when it calls a
// function the check's subject (or the call a Go subject came from) calls;
// conversions and collection builders name no code.
func TestFromCodeUnderTest(t *testing.T) {
	for _, tc := range []struct {
		x    testscan.Assertion
		want string
	}{
		{testscan.Assertion{Subject: `parse("x")`, Expected: `parse("x")`}, "parse"},
		{testscan.Assertion{Subject: `calc.Parse(s)`, Expected: `calc.Parse(s) + 0`}, "calc.Parse"},
		{testscan.Assertion{Subject: `strings.ReplaceAll(got, "\r\n", "\n")`, Expected: `strings.ReplaceAll(string(want), "\r\n", "\n")`}, ""},
		{testscan.Assertion{Subject: `parse("x")`, Expected: `parse("y")`}, ""},
		{testscan.Assertion{Subject: "got", Origin: `Parse("x")`, Expected: `Parse("x")`}, "Parse"},
		{testscan.Assertion{Subject: `parse("x")`, Expected: `(42, parse("x"))`}, "parse"},
		{testscan.Assertion{Subject: `parse("x")`, Expected: "42"}, ""},
		{testscan.Assertion{Subject: `parse("x")`, Expected: `reference_parse("x")`}, ""},
		{testscan.Assertion{Subject: `len(parse("x"))`, Expected: `len(items)`}, ""},
		{testscan.Assertion{Subject: "v", Origin: "$0", Expected: "f($0)"}, ""},
	} {
		if got := fromCodeUnderTest(tc.x); got != tc.want {
			t.Errorf("fromCodeUnderTest(%+v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

func TestOuterCallee(t *testing.T) {
	for expr, want := range map[string]string{
		`parse("x")`:             "parse",
		`parse("x").value`:       "parse",
		`p.add(new Point(0, 0))`: "p.add",
		`len(parse("x"))`:        "parse",
		`await client.get("/")`:  "client.get",
		`Calc::parse("x")`:       "Calc::parse",
		`new Parser(src).run()`:  "Parser",
		`got`:                    "",
		`(a + b)`:                "",
		`str(len(items))`:        "",
	} {
		if got := outerCallee(expr); got != want {
			t.Errorf("outerCallee(%q) = %q, want %q", expr, got, want)
		}
	}
	// A constructed input in the subject's arguments is not the code under
	// test: new Point(1, 2) as the expected value is independent.
	if c := fromCodeUnderTest(testscan.Assertion{Subject: "p.add(new Point(0, 0))", Expected: "new Point(1, 2)"}); c != "" {
		t.Errorf("constructor of an input read as the code under test: %q", c)
	}
}

// TestUsesKept: a test that replaces a deleted one still calls one of the
// imported functions the deleted test called, or the change deleted it.
func TestUsesKept(t *testing.T) {
	by := []*locTest{{tc: &testscan.TestCase{Uses: []string{"width", "os.path.join"}}}}
	removed := func(name string) bool { return name == "parse_old" }
	for _, tc := range []struct {
		uses []string
		want bool
	}{
		{[]string{"parse"}, false},
		{[]string{"parse", "width"}, true},
		{[]string{"calc.parse_old"}, true},
		{[]string{"parse_old"}, true},
	} {
		if got := usesKept(tc.uses, by, removed); got != tc.want {
			t.Errorf("usesKept(%v) = %v, want %v", tc.uses, got, tc.want)
		}
	}
	if !sharesUse(&testscan.TestCase{}, &testscan.TestCase{Uses: []string{"x"}}) || sharesUse(&testscan.TestCase{Uses: []string{"a"}}, &testscan.TestCase{Uses: []string{"b"}}) {
		t.Error("sharesUse: a test with no known uses shares any; two with disjoint uses share none")
	}
}

// TestVacuous: a condition checked true with a constant true alternative,
// or checked false with a constant false conjunct, cannot fail; a check
// whose alternatives all depend on the code can.
func TestVacuous(t *testing.T) {
	for _, tc := range []struct {
		x    testscan.Assertion
		want bool
	}{
		{testscan.Assertion{Subject: `parse("x")==42 or True`}, true},
		{testscan.Assertion{Subject: `(parse("x")==42)or 1`}, true},
		{testscan.Assertion{Subject: `parse("x")===42||true`, Expected: "true"}, true},
		{testscan.Assertion{Subject: `ok||"fallback"`}, true},
		{testscan.Assertion{Subject: `a||!false`}, true},
		{testscan.Assertion{Subject: `a&&false`, Negated: true}, true},
		{testscan.Assertion{Subject: `a&&false`, Expected: "false"}, true},
		{testscan.Assertion{Subject: `a||b`}, false},
		{testscan.Assertion{Subject: `f("x or True")`}, false},
		{testscan.Assertion{Subject: `a||true`, Negated: true}, false},
		{testscan.Assertion{Subject: `order==42`}, false},
		{testscan.Assertion{Subject: `x||0`}, false},
		{testscan.Assertion{Subject: `a||true`, Expected: "42"}, false},
		{testscan.Assertion{Subject: `true`}, false},
		{testscan.Assertion{Subject: `[parse("x")==42]`}, true},
		{testscan.Assertion{Subject: `(parse("x")==42,"msg")`}, true},
		{testscan.Assertion{Subject: `(parse("x")==42)`}, false},
		{testscan.Assertion{Subject: `[]`}, false},
		{testscan.Assertion{Subject: `all([])`}, true},
		{testscan.Assertion{Subject: `all(items)`}, false},
		{testscan.Assertion{Subject: `a==42 if False else True`}, true},
		{testscan.Assertion{Subject: `a==42 if True else True`}, false},
		{testscan.Assertion{Kind: "assert ==", Subject: `a`, Expected: `42 if False else True`}, true},
		{testscan.Assertion{Kind: "assert ==", Subject: `a`, Expected: `42 if flag else 0`}, false},
		{testscan.Assertion{Subject: `[a][0]`}, false},
	} {
		x := tc.x
		if got := vacuous(&x); got != tc.want {
			t.Errorf("vacuous(%+v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}
