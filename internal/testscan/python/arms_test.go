package python

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// ignoreArms leaves Assertion.Arms to TestAssertionArms.
var ignoreArms = cmpopts.IgnoreFields(testscan.Assertion{}, "Arms")

func TestAssertionArms(t *testing.T) {
	src := `import sys

def test_sep():
    got = sep()
    assert got
    if sys.platform == "win32":
        assert got == "\\"
    elif sys.platform == "darwin":
        assert got == ":"
    else:
        assert got == "/"
    for c in cases:
        if c:
            assert c == 1
    try:
        run()
    except OSError:
        assert False
    try:
        assert run() == 1
    except (KeyError, AssertionError):
        pass
    try:
        assert run() == 2
    except Exception as e:
        raise RuntimeError("context") from e
    try:
        assert run() == 3
    except ValueError:
        pass
`
	f, err := New().Extract("test_sep.py", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %+v", err, f)
	}
	var got [][]string
	for _, x := range f.Tests[0].Assertions {
		var arms []string
		for _, a := range x.Arms {
			arms = append(arms, fmt.Sprintf("%s#%d", a.Cond, a.Index))
		}
		got = append(got, arms)
	}
	plat := `if sys . platform == "win32"`
	want := [][]string{
		nil,
		{plat + "#0"}, {plat + "#1"}, {plat + "#2"},
		{"for c in cases#0", "if c#0"},
		{"#0"},
		{"swallowed by except ( KeyError , AssertionError )#0"},
		nil,
		nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("arms (-want +got):\n%s", diff)
	}
}

// TestStubbedChecks: a check whose subject calls a function the test
// replaced (monkeypatch.setattr, mock.patch, patch.object, in the body, a
// decorator, a requested fixture or an autouse fixture) cannot fail; a
// check of code that only uses a patched dependency can.
func TestStubbedChecks(t *testing.T) {
	src := `import os
import pytest
from unittest import mock
from app import calc


@pytest.fixture
def fake_load(monkeypatch):
    monkeypatch.setattr("app.store.load", lambda: {})


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    monkeypatch.setattr(calc, "log", lambda *a: None)


def test_body(monkeypatch):
    monkeypatch.setattr(calc, "parse", lambda s: 42)
    assert calc.parse("x") == 42
    assert calc.total("x") == 3


@mock.patch("app.calc.width", return_value=1)
def test_decorator(_m):
    assert calc.width("abc") == 1


def test_fixture(fake_load):
    assert load() == {}


def test_autouse():
    assert calc.log("x") is None


def test_object():
    with mock.patch.object(calc, "parse", return_value=1):
        assert calc.total("x") == 3


def test_dependency(monkeypatch):
    monkeypatch.setattr(os, "getenv", lambda *a: "1")
    assert calc.parse("x") == 3
`
	f, err := New().Extract("tests/test_calc.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]bool{}
	for _, tc := range f.Tests {
		for _, a := range tc.Assertions {
			got[tc.ID] = append(got[tc.ID], a.Strength == testscan.Trivial)
		}
	}
	want := map[string][]bool{
		"test_body":       {true, false},
		"test_decorator":  {true},
		"test_fixture":    {true},
		"test_autouse":    {true},
		"test_object":     {false},
		"test_dependency": {false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trivial checks (-want +got):\n%s", diff)
	}
}

// TestStubbedForAll: a conftest.py lists the functions its autouse
// fixtures (and the fixtures they request) replace; a fixture that is not
// autouse, or a file that is not a conftest, lists none.
func TestStubbedForAll(t *testing.T) {
	src := `import pytest
from unittest import mock


@pytest.fixture
def fake_width(monkeypatch):
    monkeypatch.setattr("src.calc.width", lambda s: 1)


@pytest.fixture(autouse=True)
def stable(monkeypatch, fake_width):
    monkeypatch.setattr("src.calc.parse", lambda s: 42)


@pytest.fixture
def not_auto():
    with mock.patch("src.calc.total", return_value=3):
        yield
`
	f, err := New().Extract("tests/conftest.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"parse", "width"}, f.StubbedForAll); diff != "" {
		t.Errorf("StubbedForAll (-want +got):\n%s", diff)
	}
	if g, _ := New().Extract("tests/helpers.py", []byte(src)); len(g.StubbedForAll) != 0 {
		t.Errorf("a file that is not a conftest: %v", g.StubbedForAll)
	}
}

// TestThroughLocals: a local set once before the check, to a call of the
// function the check's subject calls, is the expected value; one set to
// True is a constant alternative; a local set twice, after the check or to
// an independent value keeps its name.
func TestThroughLocals(t *testing.T) {
	src := `def test_a():
    expected = parse("x")
    assert parse("x") == expected


def test_b():
    ok = True
    assert parse("x") == 42 or ok


def test_c():
    expected = reference("x")
    assert parse("x") == expected


def test_d():
    expected = parse("x")
    expected = 42
    assert parse("x") == expected
`
	f, err := New().Extract("tests/test_calc.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tc := range f.Tests {
		a := tc.Assertions[0]
		got[tc.ID] = a.Subject + " | " + a.Expected
	}
	want := map[string]string{
		"test_a": `parse("x") | parse("x")`,
		"test_b": `parse("x")==42 or True | `,
		"test_c": `parse("x") | expected`,
		"test_d": `parse("x") | expected`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}
}

// TestThreadChecks: the checks of a nested def used only as a thread's
// work (Thread's target, Timer's function, start_new_thread's first
// argument) and of a lambda given as one get a Detached arm, and the calls
// made there are the test's Detached calls; a def also called in the test
// keeps its checks in the test.
func TestThreadChecks(t *testing.T) {
	src := `import threading
from threading import Thread
import _thread

def test_x():
    def a():
        assert f() == 1
    def b():
        assert f() == 2
        helper_b()
    def c():
        assert f() == 3
    def d():
        assert f() == 4
    threading.Thread(target=a, daemon=True).start()
    threading.Timer(0.1, b).start()
    _thread.start_new_thread(c, ())
    Thread(target=d).start()
    d()
    Thread(target=lambda: helper_l(f())).start()
    Thread(target=lambda: self.assertEqual(f(), 5)).start()
    assert f() == 6
`
	f, err := New().Extract("test_x.py", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %+v", err, f)
	}
	var got []string
	for _, x := range f.Tests[0].Assertions {
		cond := ""
		for _, a := range x.Arms {
			if testscan.IsDetached(a.Cond) {
				cond = a.Cond[len(testscan.Detached):]
			}
		}
		got = append(got, fmt.Sprintf("%s %s", x.Expected, cond))
	}
	want := []string{
		"1 threading.Thread(target=a)",
		"2 threading.Timer(..., b)",
		"3 _thread.start_new_thread(c, ...)",
		"4 ",
		"5 Thread(target=lambda: ...)",
		"6 ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("detached arms (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"helper_b", "helper_l"}, f.Tests[0].Detached); diff != "" {
		t.Errorf("detached calls (-want +got):\n%s", diff)
	}
	for _, c := range f.Tests[0].Calls {
		if c.Name == "helper_b" || c.Name == "helper_l" {
			t.Errorf("call %s made only on a thread is among the test's calls", c.Name)
		}
	}
}

// TestFailureCatchingWith: a check in `with suppress(...)` of an error a
// failed assert is gets a Swallowed arm, one in `with pytest.raises(...)`
// (or assertRaises) of such an error an Inverted arm; other errors give no
// arm.
func TestFailureCatchingWith(t *testing.T) {
	for _, c := range []struct{ with, want string }{
		{"with contextlib.suppress(AssertionError):", testscan.Swallowed},
		{"with suppress(KeyError, Exception):", testscan.Swallowed},
		{"with pytest.raises(AssertionError):", testscan.Inverted},
		{"with self.assertRaises(Exception):", testscan.Inverted},
		{"with pytest.raises(BaseException, match='x'):", testscan.Inverted},
		{"with pytest.raises(ValueError):", ""},
		{"with suppress(KeyError):", ""},
		{"with open(p) as f:", ""},
	} {
		src := "def test_x():\n    " + c.with + "\n        assert f() == 1\n"
		f, err := New().Extract("test_x.py", []byte(src))
		if err != nil || len(f.Tests) != 1 || len(f.Tests[0].Assertions) == 0 {
			t.Fatalf("%s: extract: %v, %+v", c.with, err, f)
		}
		as := f.Tests[0].Assertions
		got := ""
		for _, a := range as[len(as)-1].Arms {
			if strings.HasPrefix(a.Cond, testscan.Swallowed) {
				got = testscan.Swallowed
			} else if strings.HasPrefix(a.Cond, testscan.Inverted) {
				got = testscan.Inverted
			}
		}
		if got != c.want {
			t.Errorf("%s: arm %q, want %q", c.with, got, c.want)
		}
	}
}

// TestConstantArms: `if NAME:` on a name bound once to a literal, at the
// module's top or in the test, is spelled as that literal; a name bound
// twice, written as a loop target, or a parameter of the test is not.
func TestConstantArms(t *testing.T) {
	for _, c := range []struct{ module, body, cond, want string }{
		{"SLOW = False\n", "", "SLOW", "if False /* SLOW */"},
		{"", "    check = 0\n", "not check", "if not 0 /* check */"},
		{"SLOW = False\nSLOW = True\n", "", "SLOW", ""},
		{"SLOW = False\n", "    for SLOW in [True]:\n        pass\n", "SLOW", ""},
		{"", "    slow = compute()\n", "slow", ""},
	} {
		src := c.module + "\n\ndef test_x(fixture):\n" + c.body + "    if " + c.cond + ":\n        assert f() == 1\n"
		f, err := New().Extract("test_x.py", []byte(src))
		if err != nil || len(f.Tests) != 1 || len(f.Tests[0].Assertions) == 0 {
			t.Fatalf("extract: %v, %+v", err, f)
		}
		as := f.Tests[0].Assertions
		got := ""
		for _, a := range as[len(as)-1].Arms {
			if strings.Contains(a.Cond, "/*") {
				got = a.Cond
			}
		}
		if got != c.want {
			t.Errorf("%q %q if %s: arm %q, want %q", c.module, c.body, c.cond, got, c.want)
		}
	}
	src := "def test_x(SLOW):\n    if SLOW:\n        assert f() == 1\n\nSLOW = False\n"
	f, _ := New().Extract("test_x.py", []byte(src))
	for _, a := range f.Tests[0].Assertions[0].Arms {
		if strings.Contains(a.Cond, "/*") {
			t.Errorf("a parameter of the test read as the module's constant: %q", a.Cond)
		}
	}
}

// TestInertDefs: the checks of a nested async def or generator that the
// test only calls as a statement never run; awaited, run or iterated they
// do. A bare call of a module-level one is a Detached call.
func TestInertDefs(t *testing.T) {
	for _, c := range []struct {
		body   string
		checks int
	}{
		{"    async def check():\n        assert f() == 1\n    check()\n", 0},
		{"    def check():\n        assert f() == 1\n        yield\n    check()\n", 0},
		{"    async def check():\n        assert f() == 1\n    await check()\n", 1},
		{"    async def check():\n        assert f() == 1\n    asyncio.run(check())\n", 1},
		{"    def check():\n        assert f() == 1\n        yield\n    for _ in check():\n        pass\n", 1},
		{"    def check():\n        def inner():\n            yield\n        assert f() == 1\n    check()\n", 1},
	} {
		f, err := New().Extract("test_x.py", []byte("async def test_x():\n"+c.body))
		if err != nil || len(f.Tests) != 1 {
			t.Fatalf("extract: %v, %+v", err, f)
		}
		if got := len(f.Tests[0].Assertions); got != c.checks {
			t.Errorf("%q: %d checks, want %d", c.body, got, c.checks)
		}
	}
	src := "async def check_summary(s):\n    assert s == 1\n\n\ndef test_x():\n    check_summary(1)\n    other(check_summary(2))\n"
	f, _ := New().Extract("test_x.py", []byte(src))
	if diff := cmp.Diff([]string(nil), f.Tests[0].Detached); diff != "" {
		t.Errorf("a call also passed on is not detached (-want +got):\n%s", diff)
	}
	src = "async def check_summary(s):\n    assert s == 1\n\n\ndef test_x():\n    check_summary(1)\n"
	f, _ = New().Extract("test_x.py", []byte(src))
	if diff := cmp.Diff([]string{"check_summary"}, f.Tests[0].Detached); diff != "" {
		t.Errorf("detached calls (-want +got):\n%s", diff)
	}
}

// TestHelperSkip: a test that calls, before its first check, a module-level
// def that skips is skipped there; not when the call comes after a check
// or the def does not skip.
func TestHelperSkip(t *testing.T) {
	for _, c := range []struct {
		helper, body string
		kind         testscan.SkipKind
	}{
		{"def skip_slow():\n    pytest.skip('slow')\n", "    skip_slow()\n    assert f() == 1\n", testscan.SkipCall},
		{"def skip_slow():\n    if os.environ.get('CI'):\n        pytest.skip('ci')\n", "    skip_slow()\n    assert f() == 1\n", testscan.SkipConditional},
		{"def skip_slow():\n    pytest.skip('slow')\n", "    assert f() == 1\n    skip_slow()\n", ""},
		{"def skip_slow():\n    print('x')\n", "    skip_slow()\n    assert f() == 1\n", ""},
		{"def check(s):\n    if not s:\n        return\n    print(s)\n", "    check('x')\n    assert f() == 1\n", ""},
	} {
		src := "import os\nimport pytest\n\n\n" + c.helper + "\n\ndef test_x():\n" + c.body
		f, err := New().Extract("test_x.py", []byte(src))
		if err != nil || len(f.Tests) != 1 {
			t.Fatalf("extract: %v, %+v", err, f)
		}
		var kind testscan.SkipKind
		if f.Tests[0].Skip != nil {
			kind = f.Tests[0].Skip.Kind
		}
		if kind != c.kind {
			t.Errorf("%q %q: skip %q, want %q", c.helper, c.body, kind, c.kind)
		}
	}
}
