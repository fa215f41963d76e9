package python

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

const original = `import pytest


def test_checkout_total(cart, prices):
    cart.add('apple', qty=3)
    cart.add("pear", qty=1)
    result = checkout(cart, prices, currency='EUR', rounding=2, discount=None)
    assert result.total == pytest.approx(4.5, rel=1e-3)
    assert (result.items == ['apple', 'pear'])
    self.assertEqual(result.currency, 'EUR')
    if result.total > 100: return
`

// reformatted is original as black would print it with a short line length:
// quotes normalized, the long call exploded with a magic trailing comma,
// parentheses added and removed, a one-line if body moved to its own line, and
// comments added.
const reformatted = `import pytest


def test_checkout_total(
    cart,
    prices,
):
    # Arrange
    cart.add("apple", qty=3)
    cart.add("pear", qty=1)  # second item
    result = checkout(
        cart,
        prices,
        currency="EUR",
        rounding=2,
        discount=None,
    )
    assert result.total == pytest.approx(
        4.5,
        rel=1e-3,
    )
    assert result.items == [
        "apple",
        "pear",
    ]
    self.assertEqual(
        result.currency,
        "EUR",
    )
    if result.total > 100:
        return
`

func onlyTest(t *testing.T, path, src string) testscan.TestCase {
	t.Helper()
	f := extract(t, path, src)
	if len(f.Tests) != 1 {
		t.Fatalf("got %d tests, want 1", len(f.Tests))
	}
	return f.Tests[0]
}

func TestFingerprint(t *testing.T) {
	base := onlyTest(t, "tests/test_cart.py", original)
	tests := []struct {
		name     string
		path     string
		src      string
		sameBody bool
	}{
		{"reformatted", "tests/test_cart.py", reformatted, true},
		{"renamed", "tests/test_cart.py", replace(original, "test_checkout_total", "test_total_at_checkout"), true},
		{"moved to another file", "tests/unit/test_shop.py", original, true},
		{"into a class", "tests/test_cart.py", "import pytest\n\nclass TestCart:\n" + indent(original[len("import pytest\n\n"):]), true},
		{"one literal changed", "tests/test_cart.py", replace(original, "qty=3", "qty=4"), false},
		{"expected value changed", "tests/test_cart.py", replace(original, "4.5", "4.0"), false},
		{"string literal changed", "tests/test_cart.py", replace(original, "'EUR')", "'USD')"), false},
		{"statement moved out of the if", "tests/test_cart.py", replace(original, "if result.total > 100: return", "if result.total > 100: pass\n    return"), false},
		{"one-element tuple is not a parenthesized value", "tests/test_cart.py", replace(original, "(result.items ==", "((result.items,) =="), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := onlyTest(t, tt.path, tt.src)
			if (got.Fingerprint == base.Fingerprint) != tt.sameBody {
				t.Errorf("fingerprint %s vs base %s: same = %v, want %v", got.Fingerprint, base.Fingerprint, !tt.sameBody, tt.sameBody)
			}
			if tt.sameBody {
				if got.BodyTokens != base.BodyTokens {
					t.Errorf("BodyTokens = %d, want %d", got.BodyTokens, base.BodyTokens)
				}
				if diff := cmp.Diff(base.Assertions, got.Assertions, cmp.FilterPath(func(p cmp.Path) bool {
					return p.Last().String() == ".Line"
				}, cmp.Ignore())); diff != "" {
					t.Errorf("assertions differ (-base +got):\n%s", diff)
				}
				if diff := cmp.Diff(base.Literals, got.Literals); diff != "" {
					t.Errorf("literals differ (-base +got):\n%s", diff)
				}
			}
		})
	}
}

func TestReformatKeepsIDs(t *testing.T) {
	a := extract(t, "tests/test_cart.py", original)
	b := extract(t, "tests/test_cart.py", reformatted)
	if a.Tests[0].ID != b.Tests[0].ID || a.Tests[0].ID != "test_checkout_total" {
		t.Errorf("ids %q and %q, want test_checkout_total", a.Tests[0].ID, b.Tests[0].ID)
	}
	want := []string{`"apple"`, "3", `"pear"`, "1", `"EUR"`, "2", "4.5", "1e-3", `"apple"`, `"pear"`, `"EUR"`, "100"}
	if diff := cmp.Diff(want, a.Tests[0].Literals); diff != "" {
		t.Errorf("literals (-want +got):\n%s", diff)
	}
}

func TestParametrizedCasesHaveDistinctFingerprints(t *testing.T) {
	f := extract(t, "tests/test_p.py", `import pytest

@pytest.mark.parametrize("n", [1, 2])
def test_n(n):
    assert n
`)
	if len(f.Tests) != 2 || f.Tests[0].Fingerprint == f.Tests[1].Fingerprint {
		t.Fatalf("want two cases with different fingerprints, got %+v", f.Tests)
	}
	renamed := extract(t, "tests/test_p.py", `import pytest

@pytest.mark.parametrize("n", [1, 2])
def test_number(n):
    assert n
`)
	for i := range f.Tests {
		if f.Tests[i].Fingerprint != renamed.Tests[i].Fingerprint {
			t.Errorf("case %d: rename changed the fingerprint", i)
		}
	}
}

func replace(s, old, new string) string { return strings.ReplaceAll(s, old, new) }

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
}
