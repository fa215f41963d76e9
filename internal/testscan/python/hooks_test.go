package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHookMarkers: the pytest machinery that takes tests out of a run or
// rewrites their results, and the look-alikes that do neither.
func TestHookMarkers(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []string // kinds
	}{
		{"outcome rewritten", "tests/conftest.py", "import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    rep = outcome.get_result()\n    if rep.failed:\n        rep.outcome = 'passed'\n", []string{KindHookOutcome}},
		{"force_result", "conftest.py", "def pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.force_result(None)\n", []string{KindHookOutcome}},
		{"pyfunc_call short-circuit", "conftest.py", "def pytest_pyfunc_call(pyfuncitem):\n    return True\n", []string{KindHookOutcome}},
		{"runtest_call replaced", "conftest.py", "def pytest_runtest_call(item):\n    return True\n", []string{KindHookOutcome}},
		{"items cleared", "conftest.py", "def pytest_collection_modifyitems(config, items):\n    items.clear()\n", []string{KindHookDeselect}},
		{"items filtered", "conftest.py", "def pytest_collection_modifyitems(config, items):\n    items[:] = [i for i in items if 'slow' not in i.name]\n", []string{KindHookDeselect}},
		{"deselected", "conftest.py", "def pytest_collection_modifyitems(config, items):\n    config.hook.pytest_deselected(items=items)\n    del items[:]\n", []string{KindHookDeselect}},
		{"ignore_collect", "conftest.py", "def pytest_ignore_collect(collection_path, config):\n    if 'test_auth' in str(collection_path):\n        return True\n", []string{KindHookDeselect}},
		{"collect_ignore", "conftest.py", "collect_ignore = ['tests/test_auth.py']\n", []string{KindCollectIgnore}},
		{"collect_ignore_glob append", "conftest.py", "collect_ignore_glob.append('test_*.py')\n", []string{KindCollectIgnore}},
		{"module __test__", "tests/test_auth.py", "__test__ = False\n\ndef test_a():\n    assert 1\n", []string{KindTestDisabled}},
		{"class __test__", "tests/test_auth.py", "class TestAuth:\n    __test__ = False\n\n    def test_a(self):\n        assert 1\n", []string{KindTestDisabled}},
		{"setattr outcome", "conftest.py", "def pytest_runtest_makereport(item, call):\n    outcome = yield\n    setattr(outcome.get_result(), 'outcome', 'passed')\n", []string{KindHookOutcome}},
		{"assertEqual monkeypatched", "conftest.py", "import unittest\n\nunittest.TestCase.assertEqual = lambda *a, **k: None\n", []string{KindHookOutcome}},
		{"self.assertTrue replaced in setUp", "tests/test_x.py", "import unittest\n\nclass TestX(unittest.TestCase):\n    def setUp(self):\n        self.assertTrue = lambda *a: None\n\n    def test_a(self):\n        self.assertTrue(False)\n", []string{KindHookOutcome}},
		{"collect_ignore_glob everything", "conftest.py", "collect_ignore_glob = ['*']\n", []string{KindCollectIgnore}},
		{"collect_ignore_glob every .py", "conftest.py", "collect_ignore_glob = [\"**/*.py\"]\n", []string{KindCollectIgnore}},
		{"setup hook skips", "conftest.py", "import pytest\n\ndef pytest_runtest_setup(item):\n    if 'auth' in item.name:\n        pytest.skip('flaky')\n", []string{KindHookSkip}},
		{"runtest_call skips", "conftest.py", "import pytest\n\ndef pytest_runtest_call(item):\n    pytest.xfail('later')\n", []string{KindHookSkip}},
		{"modifyitems adds skip markers", "conftest.py", "import pytest\n\ndef pytest_collection_modifyitems(config, items):\n    skip = pytest.mark.skip(reason='wip')\n    for item in items:\n        item.add_marker(skip)\n", []string{KindHookSkip}},
		{"itemcollected adds xfail", "conftest.py", "import pytest\n\ndef pytest_itemcollected(item):\n    item.add_marker(pytest.mark.xfail(strict=False))\n", []string{KindHookSkip}},
		{"autouse fixture skips", "conftest.py", "import pytest\n\n@pytest.fixture(autouse=True)\ndef _gate():\n    pytest.skip('later')\n", []string{KindHookSkip}},
		{"autouse fixture applies xfail", "tests/conftest.py", "import pytest\n\n@pytest.fixture(autouse=True)\ndef _x(request):\n    request.applymarker(pytest.mark.xfail(reason='flaky'))\n", []string{KindHookSkip}},
		{"autouse fixture in a test class raises SkipTest", "tests/test_a.py", "import pytest, unittest\n\nclass TestA:\n    @pytest.fixture(autouse=True)\n    def _setup(self):\n        raise unittest.SkipTest('wip')\n\n    def test_a(self):\n        assert 1\n", []string{KindHookSkip}},
		// Look-alikes.
		{"autouse fixture that sets up", "conftest.py", "import pytest\n\n@pytest.fixture(autouse=True)\ndef _env(monkeypatch):\n    monkeypatch.setenv('TZ', 'UTC')\n    yield\n", nil},
		{"autouse fixture importorskip", "conftest.py", "import pytest\n\n@pytest.fixture(autouse=True)\ndef _np():\n    pytest.importorskip('numpy')\n", nil},
		{"fixture skips whoever requests it", "conftest.py", "import pytest\n\n@pytest.fixture\ndef server():\n    pytest.skip('no server')\n", []string{KindHookSkip}},
		{"fixture in a test module xfails", "tests/test_a.py", "import pytest\n\n@pytest.fixture()\ndef neg():\n    pytest.xfail('wip')\n    return -2\n\ndef test_a(neg):\n    assert neg\n", []string{KindHookSkip}},
		{"fixture skips where a service is missing", "conftest.py", "import os, pytest\n\n@pytest.fixture\ndef db():\n    if not os.environ.get('DB_URL'):\n        pytest.skip('no database')\n    return connect()\n", nil},
		{"fixture skips at teardown only", "conftest.py", "import pytest\n\n@pytest.fixture\ndef tmp():\n    yield 1\n    pytest.skip('after')\n", nil},
		{"setup hook that configures", "conftest.py", "def pytest_runtest_setup(item):\n    item.config.cache.set('last', item.nodeid)\n", nil},
		{"collect_ignore_glob of py2 files", "conftest.py", "collect_ignore_glob = ['*_py2.py']\n", nil},
		{"failureException set", "tests/test_x.py", "import unittest\n\nclass TestX(unittest.TestCase):\n    failureException = MyError\n\n    def test_a(self):\n        self.assertTrue(True)\n", nil},
		{"assert result kept in a variable", "tests/test_x.py", "def test_a():\n    asserted = check()\n    assert asserted\n", nil},
		{"items sorted", "conftest.py", "def pytest_collection_modifyitems(config, items):\n    items.sort(key=lambda i: i.name)\n    items[:] = sorted(items, key=lambda i: i.nodeid)\n", nil},
		{"markers added", "conftest.py", "import pytest\n\ndef pytest_collection_modifyitems(config, items):\n    for item in items:\n        item.add_marker(pytest.mark.timeout(60))\n", nil},
		{"report extras", "conftest.py", "def pytest_runtest_makereport(item, call):\n    outcome = yield\n    rep = outcome.get_result()\n    setattr(item, 'rep_' + rep.when, rep)\n", nil},
		{"pyfunc_call that runs the test", "conftest.py", "def pytest_pyfunc_call(pyfuncitem):\n    pyfuncitem.obj(**pyfuncitem.funcargs)\n    return True\n", nil},
		{"collect_ignore of setup.py", "conftest.py", "collect_ignore = ['setup.py', 'docs/conf.py']\n", nil},
		{"helper class __test__", "tests/helpers.py", "class Helper:\n    __test__ = False\n", nil},
		{"__test__ in a string", "tests/test_auth.py", "s = '__test__ = False'\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := (&Extractor{}).Extract(tc.path, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range f.Bypasses {
				if m.Kind != "forced-exit" {
					got = append(got, m.Kind)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
		})
	}
}
