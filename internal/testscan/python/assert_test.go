package python

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

const (
	trivial = testscan.Trivial
	weak    = testscan.Weak
	medium  = testscan.Medium
	strong  = testscan.Strong
)

// assertionsOf extracts a test whose body is the given lines (4-space indented)
// and returns its assertions with Line cleared.
func assertionsOf(t *testing.T, body string) []testscan.Assertion {
	t.Helper()
	var b strings.Builder
	b.WriteString("import pytest\nfrom unittest import mock\n\n\nclass TestX:\n    def test_it(self):\n")
	for _, l := range strings.Split(body, "\n") {
		b.WriteString("        " + l + "\n")
	}
	f := extract(t, "tests/test_assert.py", b.String())
	if len(f.Tests) != 1 {
		t.Fatalf("got %d tests, want 1", len(f.Tests))
	}
	out := f.Tests[0].Assertions
	for i := range out {
		out[i].Line = 0
	}
	return out
}

func TestAssertions(t *testing.T) {
	a := func(kind string, s testscan.Strength, neg bool, subject, expected, tol string) testscan.Assertion {
		return testscan.Assertion{Kind: kind, Strength: s, Negated: neg, Subject: subject, Expected: expected, Tolerance: tol}
	}
	tests := []struct {
		name string
		body string
		want []testscan.Assertion
	}{
		{"equality", `assert parse("a") == ["a"], "message"`, []testscan.Assertion{a("assert ==", strong, false, `parse("a")`, `["a"]`, "")}},
		{"literal on the left is the expected value", `assert 3 == len(items)`, []testscan.Assertion{a("assert ==", strong, false, "len(items)", "3", "")}},
		{"inequality", `assert result != 0`, []testscan.Assertion{a("assert !=", strong, true, "result", "0", "")}},
		{"not equal via not", `assert not (x == 1)`, []testscan.Assertion{a("assert ==", strong, true, "x", "1", "")}},
		{"is None", `assert obj.parent is None`, []testscan.Assertion{a("assert is None", medium, false, "obj.parent", "", "")}},
		{"is not None", `assert obj is not None`, []testscan.Assertion{a("assert is not None", weak, true, "obj", "", "")}},
		{"truthiness", `assert response.ok`, []testscan.Assertion{a("assert", weak, false, "response.ok", "", "")}},
		{"negated truthiness", `assert not errors`, []testscan.Assertion{a("assert", weak, true, "errors", "", "")}},
		{"identity against a name pins the object", `assert get_app() is app`, []testscan.Assertion{a("assert is", strong, false, "get_app()", "app", "")}},
		{"negated identity against a name", `assert current is not app.default`, []testscan.Assertion{a("assert is not", strong, true, "current", "app.default", "")}},
		{"identity against True is a property", `assert flag is True`, []testscan.Assertion{a("assert is", medium, false, "flag", "True", "")}},
		{"not of a name", `assert not x`, []testscan.Assertion{a("assert", weak, true, "x", "", "")}},
		{"assert True", `assert True`, []testscan.Assertion{a("assert", trivial, false, "True", "", "")}},
		{"assert 1", `assert 1`, []testscan.Assertion{a("assert", trivial, false, "1", "", "")}},
		{"assert string", `assert "always"`, []testscan.Assertion{a("assert", trivial, false, `"always"`, "", "")}},
		{"assert tuple", `assert (x == 1, "msg")`, []testscan.Assertion{a("assert", trivial, false, `(x==1, "msg")`, "", "")}},
		{"assert False fails", `assert False, "unreachable"`, []testscan.Assertion{a("assert False", strong, false, "False", "", "")}},
		{"same literal both sides", `assert 2 == 2`, []testscan.Assertion{a("assert ==", trivial, false, "2", "2", "")}},
		{"membership", `assert "id" in payload`, []testscan.Assertion{a("assert in", medium, false, `"id"`, "payload", "")}},
		{"not in", `assert "secret" not in log`, []testscan.Assertion{a("assert not in", medium, true, `"secret"`, "log", "")}},
		{"ordering", `assert elapsed < 1.5`, []testscan.Assertion{a("assert <", medium, false, "elapsed", "1.5", "")}},
		{"isinstance", `assert isinstance(node, ast.Call)`, []testscan.Assertion{a("assert isinstance", medium, false, "node", "ast.Call", "")}},
		{"and splits", `assert a == 1 and b`, []testscan.Assertion{a("assert ==", strong, false, "a", "1", ""), a("assert", weak, false, "b", "", "")}},
		{"approx", `assert total == pytest.approx(0.3, rel=1e-6)`, []testscan.Assertion{a("assert ==", strong, false, "total", "0.3", "rel=1e-6")}},
		{"approx default", `assert approx(2.5) == mean(xs)`, []testscan.Assertion{a("assert ==", strong, false, "mean(xs)", "2.5", "default")}},
		{"math.isclose", `assert math.isclose(a, b, rel_tol=0.01)`, []testscan.Assertion{a("assert isclose", strong, false, "a", "b", "rel_tol=0.01")}},
		{"assertEqual", `self.assertEqual(result, {"a": 1})`, []testscan.Assertion{a("assertEqual", strong, false, "result", `{"a":1}`, "")}},
		{"assertEquals alias", `self.assertEquals(result, 4)`, []testscan.Assertion{a("assertEqual", strong, false, "result", "4", "")}},
		{"assertCountEqual", `self.assertCountEqual(items, [1, 2])`, []testscan.Assertion{a("assertCountEqual", strong, false, "items", "[1, 2]", "")}},
		{"assertNotEqual", `self.assertNotEqual(a, b)`, []testscan.Assertion{a("assertNotEqual", strong, true, "a", "b", "")}},
		{"assertAlmostEqual delta", `self.assertAlmostEqual(x, 1.0, delta=0.1)`, []testscan.Assertion{a("assertAlmostEqual", strong, false, "x", "1.0", "delta=0.1")}},
		{"assertAlmostEqual places positional", `self.assertAlmostEqual(x, 1.0, 3)`, []testscan.Assertion{a("assertAlmostEqual", strong, false, "x", "1.0", "places=3")}},
		{"assertTrue", `self.assertTrue(user.active)`, []testscan.Assertion{a("assertTrue", medium, false, "user.active", "", "")}},
		{"assertTrue(True)", `self.assertTrue(True)`, []testscan.Assertion{a("assertTrue", trivial, false, "True", "", "")}},
		{"assertFalse(False)", `self.assertFalse(False)`, []testscan.Assertion{a("assertFalse", trivial, true, "False", "", "")}},
		{"assertIsNone", `self.assertIsNone(err)`, []testscan.Assertion{a("assertIsNone", medium, false, "err", "", "")}},
		{"assertIsNotNone", `self.assertIsNotNone(err)`, []testscan.Assertion{a("assertIsNotNone", weak, true, "err", "", "")}},
		{"assertIn", `self.assertIn("x", seen)`, []testscan.Assertion{a("assertIn", medium, false, `"x"`, "seen", "")}},
		{"assertRaises", `with self.assertRaises(KeyError):`, []testscan.Assertion{a("assertRaises", medium, false, "", "KeyError", "")}},
		{"assertRaisesRegex", `self.assertRaisesRegex(ValueError, "bad .*", parse, "x")`, []testscan.Assertion{a("assertRaisesRegex", strong, false, "parse", `ValueError match="bad .*"`, "")}},
		{"django assertContains", `self.assertContains(resp, "Hello")`, []testscan.Assertion{a("assertContains", medium, false, "resp", `"Hello"`, "")}},
		{"pytest.raises", `with pytest.raises(ZeroDivisionError):`, []testscan.Assertion{a("pytest.raises", medium, false, "", "ZeroDivisionError", "")}},
		{"pytest.raises match", `with pytest.raises(ValueError, match=r"^bad$") as exc:`, []testscan.Assertion{a("pytest.raises", strong, false, "", `ValueError match=r"^bad$"`, "")}},
		{"pytest.warns", `with pytest.warns(DeprecationWarning):`, []testscan.Assertion{a("pytest.warns", medium, false, "", "DeprecationWarning", "")}},
		{"mock called with", `client.post.assert_called_once_with("/x", json={"a": 1})`, []testscan.Assertion{a("assert_called_once_with", strong, false, "client.post", `"/x", json={"a":1}`, "")}},
		{"mock called", `send.assert_called()`, []testscan.Assertion{a("assert_called", weak, false, "send", "", "")}},
		{"mock not called", `mocks["db"].assert_not_called()`, []testscan.Assertion{a("assert_not_called", medium, true, `mocks["db"]`, "", "")}},
		{"numpy helper", `np.testing.assert_allclose(got, want, rtol=1e-5)`, []testscan.Assertion{a("assert_allclose", strong, false, "got", "want", "rtol=1e-5")}},
		{"pandas helper", `pd.testing.assert_frame_equal(df, expected)`, []testscan.Assertion{a("assert_frame_equal", strong, false, "df", "expected", "")}},
		{"project helper", `assert_valid_response(resp)`, []testscan.Assertion{a("assert_valid_response", medium, false, "resp", "", "")}},
		{"assert in nested helper", "def check(v):\n    assert v > 0\ncheck(1)", []testscan.Assertion{a("assert >", medium, false, "v", "0", "")}},
		{"strings are not assertions", `msg = "self.assertEqual(a, b) and assert x"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, assertionsOf(t, tt.body), ignoreArms); diff != "" {
				t.Errorf("assertions (-want +got):\n%s", diff)
			}
		})
	}
}
