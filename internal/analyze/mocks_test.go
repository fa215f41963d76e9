package analyze

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// gitChange commits base's files, then head's over them (an empty content
// deletes the file), in a real repository, and analyzes the second commit
// against the first as a range's commit is: the diff and blobs read by
// gitrepo.
func gitChange(t *testing.T, base, head map[string]string) []gate.Finding {
	t.Helper()
	dir := testgit.Init(t)
	for p, c := range base {
		testgit.Write(t, dir, p, c)
	}
	from := plumbing.NewHash(testgit.Commit(t, dir, "base"))
	for p, c := range head {
		if c == "" {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				t.Fatal(err)
			}
			continue
		}
		testgit.Write(t, dir, p, c)
	}
	to := plumbing.NewHash(testgit.Commit(t, dir, "head"))
	repo, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	diff, err := repo.Diff(from, to)
	if err != nil {
		t.Fatal(err)
	}
	blob := func(h plumbing.Hash) []byte {
		b, err := repo.Blob(h)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ch := Change{Commit: to.String()}
	for _, d := range diff {
		fc := FileChange{OldPath: d.From.Path, NewPath: d.To.Path}
		if fc.OldPath != "" {
			fc.Old, fc.OldKey = blob(d.From.Hash), d.From.Hash.String()
		}
		if fc.NewPath != "" {
			fc.New, fc.NewKey = blob(d.To.Hash), d.To.Hash.String()
		}
		ch.Files = append(ch.Files, fc)
	}
	read := func(c plumbing.Hash) func(string) []byte {
		return func(p string) []byte {
			b, _ := repo.ReadFile(c, p)
			return b
		}
	}
	ch.ReadBase, ch.ReadHead = read(from), read(to)
	ch.Exists = func(p string, head bool) bool {
		c := from
		if head {
			c = to
		}
		_, err := repo.ReadFile(c, p)
		return err == nil
	}
	return runChange(ch)
}

// mockRules lists the findings of LP-014's rules, and of check-of-stub,
// which a mock of the code a kept check calls gives, as "severity rule
// test".
func mockRules(fs []gate.Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Rule == "mocked-to-expected" || f.Rule == "mock-of-subject" || f.Rule == "check-of-stub" {
			out = append(out, f.Severity.String()+" "+f.Rule+" "+f.Test)
		}
	}
	return out
}

const pyCart = `from pkg.prices import get_price, fetch_total


def total(items):
    return sum(get_price(i) for i in items)


def remote_total(items):
    return fetch_total(items)
`

const pyCartTest = `from unittest import mock
from unittest.mock import patch

from pkg import cart
from pkg.cart import total, remote_total


def test_total():
    assert total(["tv", "radio"]) == 20


def test_remote_total():
    result = remote_total(["tv", "radio"])
    assert result == 20


def test_notify(mocker):
    send = mocker.patch("pkg.cart.send")
    cart.notify("tv")
    send.assert_called_once_with(True)
`

const tsCart = `import { getPrice, fetchTotal } from './prices'

export function total(items: string[]): number {
  return items.reduce((s, i) => s + getPrice(i), 0)
}

export async function remoteTotal(items: string[]): Promise<number> {
  return fetchTotal(items)
}
`

const tsCartTest = `import { describe, it, expect, vi } from 'vitest'
import { total, remoteTotal } from '../src/cart'

describe('cart', () => {
  it('totals the prices', () => {
    expect(total(['tv', 'radio'])).toBe(20)
  })

  it('totals remotely', async () => {
    expect(await remoteTotal(['tv', 'radio'])).toBe(20)
  })
})
`

// TestMockOverUsage: AIWG's LP-014 in Python and TypeScript/JavaScript.
// A mock the change adds to an existing test answering what its unchanged
// check expects is a high mocked-to-expected; a test that mocks the
// function or module its checks call is a medium mock-of-subject.
func TestMockOverUsage(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"pkg/cart.py": pyCart, "pkg/prices.py": "def get_price(i):\n    return 10\n", "tests/test_cart.py": pyCartTest,
		"src/cart.ts": tsCart, "src/prices.ts": "export const getPrice = (i: string) => 10\n", "test/cart.test.ts": tsCartTest,
		"src/calc.js":       "exports.total = (xs) => xs.reduce((a, b) => a + b, 0)\n",
		"test/calc.test.js": "const { total } = require('../src/calc')\n\ntest('adds', () => {\n  expect(total([2, 3])).toBe(5)\n})\n",
	}
	for _, tc := range []struct {
		name string
		head map[string]string
		want []string
	}{
		{"python return_value on an existing test", map[string]string{"tests/test_cart.py": strings.Replace(pyCartTest,
			"def test_remote_total():", "@patch(\"pkg.cart.fetch_total\", return_value=20)\ndef test_remote_total(_fetch):", 1)},
			[]string{"high mocked-to-expected test_remote_total"}},
		{"python bound mock's return_value", map[string]string{"tests/test_cart.py": strings.Replace(pyCartTest,
			"def test_total():\n", "def test_total(mocker):\n    price = mocker.patch(\"pkg.cart.get_price\")\n    price.return_value = 20\n", 1)},
			[]string{"high mocked-to-expected test_total"}},
		{"python monkeypatch lambda", map[string]string{"tests/test_cart.py": strings.Replace(pyCartTest,
			"def test_remote_total():\n", "def test_remote_total(monkeypatch):\n    monkeypatch.setattr(cart, \"fetch_total\", lambda *a: 20)\n", 1)},
			[]string{"high mocked-to-expected test_remote_total"}},
		{"python new test patching its subject", map[string]string{"tests/test_cart.py": pyCartTest +
			"\n\n@patch(\"pkg.cart.total\", return_value=5)\ndef test_total_mocked(_total):\n    assert cart.total([\"tv\"]) == 5\n"},
			[]string{"medium mock-of-subject test_total_mocked"}},
		{"python new test patch.object through a local", map[string]string{"tests/test_cart.py": pyCartTest +
			"\n\ndef test_total_object():\n    with mock.patch.object(cart, \"total\", return_value=5):\n        result = cart.total([\"tv\"])\n    assert result == 5\n"},
			[]string{"medium mock-of-subject test_total_object"}},
		{"python subject patched in an existing test, to the expected value", map[string]string{"tests/test_cart.py": strings.Replace(pyCartTest,
			"def test_total():\n", "def test_total(monkeypatch):\n    monkeypatch.setattr(cart, \"total\", lambda *a: 20)\n", 1)},
			[]string{"high mocked-to-expected test_total"}},
		{"typescript spy resolving the expected value", map[string]string{"test/cart.test.ts": strings.Replace(strings.Replace(tsCartTest,
			"    expect(await remoteTotal(", "    vi.spyOn(prices, 'fetchTotal').mockResolvedValue(20)\n    expect(await remoteTotal(", 1),
			"from '../src/cart'\n", "from '../src/cart'\nimport * as prices from '../src/prices'\n", 1)},
			[]string{"high mocked-to-expected cart > totals remotely"}},
		{"typescript module factory answering the expected value", map[string]string{"test/cart.test.ts": strings.Replace(tsCartTest,
			"from '../src/cart'\n", "from '../src/cart'\n\nvi.mock('../src/prices', () => ({ getPrice: () => 20, fetchTotal: vi.fn() }))\n", 1)},
			// (A module mock applies to every test of the file.)
			[]string{"high mocked-to-expected cart > totals the prices", "high mocked-to-expected cart > totals remotely"}},
		{"typescript new test mocking its own module", map[string]string{"test/cart.test.ts": strings.Replace(tsCartTest,
			"from '../src/cart'\n", "from '../src/cart'\n\nvi.mock('../src/cart')\n", 1) +
			"\nit('totals one', () => {\n  vi.mocked(total).mockReturnValue(5)\n  expect(total(['tv'])).toBe(5)\n})\n"},
			// The tests already there now check the automock as well.
			[]string{"medium mock-of-subject totals one", "medium mock-of-subject cart > totals remotely", "medium mock-of-subject cart > totals the prices"}},
		{"typescript new test spying on its subject", map[string]string{"test/cart.test.ts": tsCartTest +
			"\nimport * as cart from '../src/cart'\n\nit('spies', () => {\n  vi.spyOn(cart, 'total').mockReturnValue(5)\n  expect(cart.total(['tv'])).toBe(5)\n})\n"},
			[]string{"medium mock-of-subject spies"}},
		{"javascript jest automock of the subject, existing test", map[string]string{"test/calc.test.js": "const { total } = require('../src/calc')\njest.mock('../src/calc')\n\ntest('adds', () => {\n  total.mockReturnValue(5)\n  expect(total([2, 3])).toBe(5)\n})\n"},
			[]string{"high mocked-to-expected adds"}},
		{"javascript jest automock of the subject, new test", map[string]string{"test/calc.test.js": "const { total } = require('../src/calc')\njest.mock('../src/calc')\n\ntest('adds', () => {\n  expect(total([2, 3])).toBe(5)\n})\n\ntest('adds more', () => {\n  expect(total([2, 4])).toBe(6)\n})\n"},
			[]string{"medium mock-of-subject adds", "medium mock-of-subject adds more"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := gitChange(t, base, tc.head)
			if diff := cmp.Diff(tc.want, mockRules(fs)); diff != "" {
				t.Errorf("LP-014 findings (-want +got):\n%s\nall:%s", diff, dump(fs))
			}
			for _, f := range fs {
				if (f.Rule == "mocked-to-expected" || f.Rule == "mock-of-subject") && (f.Type != gate.AssertionWeakening || f.File == "" || f.Line == 0 || !strings.Contains(f.Message, f.Test)) {
					t.Errorf("finding %+v: want an assertion_weakening naming its file, line and test", f)
				}
			}
		})
	}
}

// TestMockOverUsageLookAlikes: mocks that are not LP-014 give nothing of
// it, and nothing high: a collaborator mocked (the HTTP client, the clock,
// fs, a repository) while the subject's result is checked, a
// collaborator's answer the subject transforms, another module's mock, a
// partial mock keeping the subject real, checks of how a mock was called,
// and a test of a mocks module.
func TestMockOverUsageLookAlikes(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"pkg/cart.py": pyCart, "tests/test_cart.py": pyCartTest,
		"src/cart.ts": tsCart, "test/cart.test.ts": tsCartTest,
		"src/calc.js":       "exports.total = (xs) => xs.reduce((a, b) => a + b, 0)\nexports.helper = () => 1\n",
		"test/calc.test.js": "const { total } = require('../src/calc')\n\ntest('adds', () => {\n  expect(total([2, 3])).toBe(5)\n})\n",
	}
	for _, tc := range []struct {
		name string
		head map[string]string
	}{
		{"python collaborator transformed", map[string]string{"tests/test_cart.py": strings.Replace(pyCartTest,
			"def test_total():", "@patch(\"pkg.cart.get_price\", return_value=10)\ndef test_total(_price):", 1)}},
		{"python http client and clock in a new test", map[string]string{"tests/test_cart.py": pyCartTest +
			"\n\n@patch(\"pkg.cart.time.time\", return_value=1000)\n@patch(\"pkg.cart.requests.get\")\ndef test_fetch(get, _now):\n    get.return_value.json.return_value = {\"price\": 3}\n    assert cart.fetch_price(\"tv\") == 3\n"}},
		{"python repository object", map[string]string{"tests/test_cart.py": pyCartTest +
			"\n\ndef test_saved(mocker):\n    repo = mocker.Mock()\n    repo.load.return_value = [\"tv\"]\n    assert cart.count(repo) == 1\n"}},
		{"python interaction with the mocked function", map[string]string{"tests/test_cart.py": pyCartTest +
			"\n\n@patch(\"pkg.cart.total\", return_value=5)\ndef test_report(total_mock):\n    cart.report([\"tv\"])\n    total_mock.assert_called_once_with([\"tv\"])\n"}},
		{"python existing interaction check, the mock now answering its argument", map[string]string{"tests/test_cart.py": strings.Replace(pyCartTest,
			`mocker.patch("pkg.cart.send")`, `mocker.patch("pkg.cart.send", return_value=True)`, 1)}},
		{"python test of a fakes module", map[string]string{"pkg/fakes.py": "class FakeClock:\n    def __init__(self, t):\n        self.t = t\n\n    def now(self):\n        return self.t\n",
			"tests/test_fakes.py": "from pkg.fakes import FakeClock\n\n\ndef test_fake_clock():\n    clock = FakeClock(5)\n    assert clock.now() == 5\n"}},
		{"typescript fs mocked in a new test", map[string]string{"test/cart.test.ts": tsCartTest +
			"\nimport fs from 'node:fs'\n\nit('loads', () => {\n  vi.spyOn(fs, 'readFileSync').mockReturnValue('{\"a\":1}')\n  expect(loadConfig('x')).toEqual({ a: 1 })\n})\n"}},
		{"typescript collaborator transformed", map[string]string{"test/cart.test.ts": strings.Replace(tsCartTest,
			"from '../src/cart'\n", "from '../src/cart'\n\nvi.mock('../src/prices', () => ({ getPrice: () => 10 }))\n", 1)}},
		{"typescript another module's automock", map[string]string{"test/cart.test.ts": strings.Replace(tsCartTest,
			"from '../src/cart'\n", "from '../src/cart'\nimport { getPrice } from '../src/prices'\n\nvi.mock('../src/prices')\n", 1) +
			"\nit('prices each item', () => {\n  vi.mocked(getPrice).mockReturnValue(10)\n  expect(total(['tv', 'radio'])).toBe(20)\n})\n"}},
		{"javascript partial mock keeping the subject", map[string]string{"test/calc.test.js": "const { total } = require('../src/calc')\njest.mock('../src/calc', () => ({ ...jest.requireActual('../src/calc'), helper: jest.fn() }))\n\ntest('adds', () => {\n  expect(total([2, 3])).toBe(5)\n})\n\ntest('adds more', () => {\n  expect(total([2, 4])).toBe(6)\n})\n"}},
		{"typescript interaction checks", map[string]string{"test/cart.test.ts": tsCartTest +
			"\nimport * as mailer from '../src/mailer'\nimport { checkout } from '../src/checkout'\n\nit('sends a receipt', async () => {\n  const send = vi.spyOn(mailer, 'send').mockResolvedValue('tv')\n  await checkout(['tv'])\n  expect(send).toHaveBeenCalledWith('tv')\n})\n"}},
		{"typescript test of a mocks module", map[string]string{"src/mocks.ts": "export const mockUser = () => ({ name: 'ada' })\n",
			"test/mocks.test.ts": "import { it, expect } from 'vitest'\nimport { mockUser } from '../src/mocks'\n\nit('builds a user', () => {\n  expect(mockUser().name).toBe('ada')\n})\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := gitChange(t, base, tc.head)
			if got := mockRules(fs); len(got) > 0 {
				t.Errorf("look-alike reported: %v\nall:%s", got, dump(fs))
			}
			expectNoHigh(t, fs)
		})
	}
}

// TestMockFindingsMerge: a mocked-to-expected finding stands for the
// check-of-stub finding of its check, and a high assertion_weakening
// finding of the test (check-of-stub, assertion-weakened) for a
// mock-of-subject one.
func TestMockFindingsMerge(t *testing.T) {
	stub := gate.Finding{Type: gate.AssertionWeakening, Severity: gate.SeverityHigh, Rule: "check-of-stub", Line: 7}
	other := gate.Finding{Type: gate.TestSkipping, Severity: gate.SeverityHigh, Rule: "skip-added", Line: 7}
	weakened := gate.Finding{Type: gate.AssertionWeakening, Severity: gate.SeverityHigh, Rule: "assertion-weakened", Line: 8}
	for _, tc := range []struct {
		name    string
		out, mf []gate.Finding
		want    []string
	}{
		{"mocked-to-expected replaces check-of-stub", []gate.Finding{other, stub}, []gate.Finding{{Rule: "mocked-to-expected", Line: 7}}, []string{"skip-added", "mocked-to-expected"}},
		{"check-of-stub on another check stays", []gate.Finding{{Rule: "check-of-stub", Line: 9}}, []gate.Finding{{Rule: "mocked-to-expected", Line: 7}}, []string{"check-of-stub", "mocked-to-expected"}},
		{"check-of-stub stands for mock-of-subject", []gate.Finding{stub}, []gate.Finding{{Rule: "mock-of-subject", Line: 3}}, []string{"check-of-stub"}},
		{"a check weakened into one of the stub stands for mock-of-subject", []gate.Finding{weakened}, []gate.Finding{{Rule: "mock-of-subject", Line: 3}}, []string{"assertion-weakened"}},
		{"mock-of-subject beside other findings", []gate.Finding{other}, []gate.Finding{{Rule: "mock-of-subject", Line: 3}}, []string{"skip-added", "mock-of-subject"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range withMockFindings(slices.Clone(tc.out), 0, tc.mf) {
				got = append(got, f.Rule)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
