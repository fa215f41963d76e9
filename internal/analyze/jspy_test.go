package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

const jsBase = `import { describe, it, expect } from 'vitest';
import { login, hash } from '../src/auth';

describe('auth', () => {
  describe('login', () => {
    it('accepts a valid password', async () => {
      const res = await login('ada', 'correct horse');
      expect(res.ok).toBe(true);
      expect(res.user).toEqual({ name: 'ada', role: 'admin' });
    });

    it('rejects a wrong password', async () => {
      await expect(login('ada', 'nope')).rejects.toThrow('invalid credentials');
    });
  });

  it('hashes deterministically', () => {
    // a comment with it('fake', () => {}) inside must not count
    const s = "it.skip('not a test')";
    expect(hash('x')).toBe(hash('x'));
    expect(hash('abc')).toEqual('ba7816bf');
  });
});
`

const pyBase = `import pytest

from shop.cart import Cart, total


def test_total_empty():
    assert total([]) == 0


def test_total_sums_prices():
    cart = Cart([("apple", 3), ("pear", 4)])
    assert total(cart.items) == 7
    assert cart.count() == 2


class TestDiscount:
    def test_ten_percent(self):
        assert Cart([("tv", 100)]).discounted(0.1) == pytest.approx(90.0, abs=0.01)

    def test_negative_rejected(self):
        with pytest.raises(ValueError, match="negative"):
            Cart([("tv", 100)]).discounted(-1)
`

func TestJSCheats(t *testing.T) {
	p := "test/auth.test.ts"
	for _, tc := range []struct {
		name, new string
		typ       gate.FindingType
		sev       gate.Severity
		test      string
	}{
		{"it deleted", strings.Replace(jsBase, "    it('rejects a wrong password', async () => {\n      await expect(login('ada', 'nope')).rejects.toThrow('invalid credentials');\n    });\n", "", 1),
			gate.TestDeletion, gate.SeverityCritical, "auth > login > rejects a wrong password"},
		{"it.skip", strings.Replace(jsBase, "it('rejects a wrong password'", "it.skip('rejects a wrong password'", 1),
			gate.TestSkipping, gate.SeverityHigh, "auth > login > rejects a wrong password"},
		{"describe.skip", strings.Replace(jsBase, "describe('login'", "describe.skip('login'", 1),
			gate.TestSkipping, gate.SeverityHigh, "auth > login > accepts a valid password"},
		{"toEqual to toBeDefined", strings.Replace(jsBase, "expect(res.user).toEqual({ name: 'ada', role: 'admin' });", "expect(res.user).toBeDefined();", 1),
			gate.AssertionWeakening, gate.SeverityHigh, "auth > login > accepts a valid password"},
		{".only", strings.Replace(jsBase, "it('hashes deterministically'", "it.only('hashes deterministically'", 1),
			gate.TestSkipping, gate.SeverityHigh, "auth > hashes deterministically"},
		{"ts-ignore", strings.Replace(jsBase, "    const s = ", "    // @ts-ignore\n    const s = ", 1),
			gate.ErrorSuppression, gate.SeverityMedium, ""},
		{"expectation commented out", strings.Replace(jsBase, "      expect(res.user).toEqual({ name: 'ada', role: 'admin' });\n", "      // expect(res.user).toEqual({ name: 'ada', role: 'admin' });\n", 1),
			gate.AssertionWeakening, gate.SeverityHigh, "auth > login > accepts a valid password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFinding(t, run(mod(p, jsBase, tc.new)), tc.typ, tc.sev, p, tc.test)
		})
	}
}

func TestJSLegitimate(t *testing.T) {
	p := "test/auth.test.ts"
	for _, tc := range []struct{ name, new string }{
		{"rename", strings.Replace(jsBase, "'hashes deterministically'", "'hash is deterministic'", 1)},
		{"reformat", strings.ReplaceAll(strings.ReplaceAll(jsBase, "'", "\""), "  ", "    ")},
		{"new test", strings.Replace(jsBase, "});\n", "});\n\nit('new', () => { expect(1 + 1).toBe(2); });\n", 1)},
		{"stronger", strings.Replace(jsBase, "expect(res.ok).toBe(true);", "expect(res.ok).toBe(true);\n      expect(res.token).toMatch(/^[a-f0-9]{32}$/);", 1)},
		{"string edit only", strings.Replace(jsBase, "it('fake', () => {})", "it.skip('fake', () => {})", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) { expectNoHigh(t, run(mod(p, jsBase, tc.new))) })
	}
	t.Run("move to another file", func(t *testing.T) {
		moved := "    it('rejects a wrong password', async () => {\n      await expect(login('ada', 'nope')).rejects.toThrow('invalid credentials');\n    });\n"
		rest := strings.Replace(jsBase, moved, "", 1)
		other := "import { login } from '../src/auth';\n\ndescribe('auth', () => {\n  describe('login', () => {\n" + moved + "  });\n});\n"
		expectNoHigh(t, run(mod(p, jsBase, rest), add("test/login.test.ts", other)))
	})
}

func TestPythonCheats(t *testing.T) {
	p := "tests/test_cart.py"
	for _, tc := range []struct {
		name, new string
		typ       gate.FindingType
		sev       gate.Severity
		test      string
	}{
		{"function deleted", strings.Replace(pyBase, "def test_total_empty():\n    assert total([]) == 0\n\n\n", "", 1),
			gate.TestDeletion, gate.SeverityCritical, "test_total_empty"},
		{"skip mark", strings.Replace(pyBase, "    def test_negative_rejected", "    @pytest.mark.skip(reason=\"later\")\n    def test_negative_rejected", 1),
			gate.TestSkipping, gate.SeverityHigh, "TestDiscount::test_negative_rejected"},
		{"xfail", strings.Replace(pyBase, "def test_total_sums_prices", "@pytest.mark.xfail\ndef test_total_sums_prices", 1),
			gate.TestSkipping, gate.SeverityHigh, "test_total_sums_prices"},
		{"== to is not None", strings.Replace(pyBase, "assert total(cart.items) == 7", "assert total(cart.items) is not None", 1),
			gate.AssertionWeakening, gate.SeverityHigh, "test_total_sums_prices"},
		{"assert True", strings.Replace(pyBase, "assert total([]) == 0", "assert True", 1),
			gate.AssertionWeakening, gate.SeverityHigh, "test_total_empty"},
		{"tolerance widened", strings.Replace(pyBase, "abs=0.01", "abs=50", 1),
			gate.AssertionWeakening, gate.SeverityHigh, "TestDiscount::test_ten_percent"},
		{"noqa", strings.Replace(pyBase, "import pytest\n", "import pytest  # noqa: F401\n", 1),
			gate.ErrorSuppression, gate.SeverityMedium, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFinding(t, run(mod(p, pyBase, tc.new)), tc.typ, tc.sev, p, tc.test)
		})
	}
	t.Run("sys.exit in conftest", func(t *testing.T) {
		fs := run(mod("conftest.py", "import pytest\n", "import sys\nimport pytest\n\ndef pytest_sessionfinish(session, exitstatus):\n    sys.exit(0)\n"))
		expectFinding(t, fs, gate.ValidationBypass, gate.SeverityCritical, "conftest.py", "")
	})
	t.Run("except pass in source", func(t *testing.T) {
		src := "def load(p):\n    try:\n        return open(p).read()\n    except OSError as e:\n        raise RuntimeError(p) from e\n"
		fs := run(mod("shop/io.py", src, strings.Replace(src, "        raise RuntimeError(p) from e\n", "        pass\n", 1)))
		expectFinding(t, fs, gate.ErrorSuppression, gate.SeverityMedium, "shop/io.py", "")
	})
}

func TestPythonLegitimate(t *testing.T) {
	p := "tests/test_cart.py"
	folded := strings.Replace(pyBase, "def test_total_empty():\n    assert total([]) == 0\n",
		"@pytest.mark.parametrize(\"items,want\", [([], 0), ([(\"a\", 1)], 1)])\ndef test_total(items, want):\n    assert total(items) == want\n", 1)
	for _, tc := range []struct{ name, new string }{
		{"rename", strings.Replace(pyBase, "def test_total_empty", "def test_total_of_empty_cart", 1)},
		{"parametrize folding", folded},
		{"docstring", strings.Replace(pyBase, "    def test_ten_percent(self):\n", "    def test_ten_percent(self):\n        \"\"\"Ten percent off.\"\"\"\n", 1)},
		{"new test", pyBase + "\n\ndef test_total_single():\n    assert total([(\"a\", 1)]) == 1\n"},
		{"tighter tolerance", strings.Replace(pyBase, "abs=0.01", "abs=0.001", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) { expectNoHigh(t, run(mod(p, pyBase, tc.new))) })
	}
}

func TestPythonHelperExtraction(t *testing.T) {
	p := "tests/test_api.py"
	old := `def test_create(client):
    resp = client.post("/items", json={"name": "a"})
    assert resp.status_code == 201
    assert resp.json["name"] == "a"


def test_update(client):
    resp = client.put("/items/1", json={"name": "b"})
    assert resp.status_code == 200
    assert resp.json["name"] == "b"
`
	helper := `def assert_item(resp, status, name):
    assert resp.status_code == status
    assert resp.json["name"] == name


def test_create(client):
    assert_item(client.post("/items", json={"name": "a"}), 201, "a")


def test_update(client):
    assert_item(client.put("/items/1", json={"name": "b"}), 200, "b")
`
	expectNoHigh(t, run(mod(p, old, helper)))
	// Into conftest.py, shared by the suite.
	conftest := "def assert_item(resp, status, name):\n    assert resp.status_code == status\n    assert resp.json[\"name\"] == name\n"
	moved := "from conftest import assert_item\n\n\n" + helper[strings.Index(helper, "def test_create"):]
	expectNoHigh(t, run(mod(p, old, moved), add("tests/conftest.py", conftest)))
	// Deleting the checks without a helper is still caught.
	gutted := strings.ReplaceAll(old, "    assert resp.json[\"name\"] == \"a\"\n", "")
	expectFinding(t, run(mod(p, old, gutted)), gate.AssertionWeakening, gate.SeverityHigh, p, "test_create")
}

// A JavaScript test helper left with no check: high; a hook's check is not a
// helper's.
func TestHelperAssertionRemovedJS(t *testing.T) {
	js := "import { expect, it } from 'vitest';\n\nfunction checkSum(a, b) {\n  expect(sum(a, b)).toBe(a + b);\n}\n\nit('adds', () => {\n  checkSum(1, 2);\n});\n"
	fs := run(mod("src/sum.test.js", js, strings.Replace(js, "  expect(sum(a, b)).toBe(a + b);\n", "  sum(a, b);\n", 1)))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "src/sum.test.js", "")
	if !strings.Contains(dump(fs), "checkSum") {
		t.Errorf("the finding does not name the helper:%s", dump(fs))
	}
}

// A deleted test that base skipped only under a condition ran everywhere
// else: the finding stays critical and says so, instead of calling it
// already skipped (click 3b06e0b75a's skipif(WIN), flask 633f421031's
// xfail on PyPy).
func TestDeletedSkippedAtBaseWording(t *testing.T) {
	p := "tests/test_cart.py"
	for _, tc := range []struct {
		name, mark, want string
		sev              gate.Severity
	}{
		{"skipif", `@pytest.mark.skipif(WIN, reason="windows")`, "skipped only on some runs (a skip condition)", gate.SeverityCritical},
		{"xfail", `@pytest.mark.xfail(PYPY, reason="pypy")`, "marked as an expected failure at base", gate.SeverityCritical},
		{"skip", `@pytest.mark.skip(reason="broken")`, "already skipped at base", gate.SeverityMedium},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := strings.Replace(pyBase, "def test_total_empty():", tc.mark+"\ndef test_total_empty():", 1)
			now := strings.Replace(old, tc.mark+"\ndef test_total_empty():\n    assert total([]) == 0\n", "", 1)
			var got *gate.Finding
			for _, f := range run(mod(p, old, now)) {
				if f.Type == gate.TestDeletion && f.Test == "test_total_empty" {
					got = &f
				}
			}
			switch {
			case got == nil:
				t.Fatal("no test_deletion finding for test_total_empty")
			case got.Severity != tc.sev:
				t.Errorf("severity %s, want %s", got.Severity, tc.sev)
			case !strings.Contains(got.Message, tc.want):
				t.Errorf("message %q does not say %q", got.Message, tc.want)
			}
		})
	}
}

// A test renamed with its literals kept pairs as reworked; a check it turned
// around is inverted as in a test that kept its name (reworkedInverted),
// and only a check of the same value the other way round is.
func TestReworkedCheckInverted(t *testing.T) {
	p := "tests/test_calc.py"
	old := "from calc import parse\n\n\ndef test_parse_counts_runes():\n    assert parse(\"xyz-long-input\") == 42\n    assert parse(\"\") == 0\n"
	for _, tc := range []struct {
		name, body string
		inverted   int
	}{
		{"both turned", "    assert parse(\"xyz-long-input\") != 42\n    assert parse(\"\") != 0\n", 2},
		{"one turned", "    assert parse(\"xyz-long-input\") == 42\n    assert parse(\"\") != 0\n", 1},
		{"turned and kept", "    assert parse(\"xyz-long-input\") == 42\n    assert parse(\"\") == 0\n    assert parse(\"xyz-long-input\") != 0\n", 0},
		{"kept", "    assert parse(\"xyz-long-input\") == 42\n    assert parse(\"\") == 0\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := "from calc import parse\n\n\ndef test_parse_handles_long_input():\n" + tc.body
			got := 0
			for _, f := range run(mod(p, old, now)) {
				if f.Rule == "assertion-inverted" {
					got++
					if f.Severity != gate.SeverityHigh || !strings.Contains(f.Message, "(test_parse_counts_runes before the change)") {
						t.Errorf("finding %s %q", f.Severity, f.Message)
					}
				}
			}
			if got != tc.inverted {
				t.Errorf("%d inverted checks reported, want %d", got, tc.inverted)
			}
		})
	}
}
