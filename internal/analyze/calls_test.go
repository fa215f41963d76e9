package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// The shape of prometheus f6ca7145 ("use one test newTestDB constructor"):
// tests stop opening the database and checking its Close themselves, and call
// a constructor that registers the Close check with t.Cleanup.
const dbHelpers = `package tsdb

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func openTestDB(t testing.TB, dir string) *DB {
	db, err := Open(dir)
	require.NoError(t, err)
	return db
}

func newTestDB(t testing.TB) *DB {
	db, err := Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, db.Close())
	})
	return db
}
`

const dbTestBefore = `package tsdb

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSnapshot(t *testing.T) {
	db := openTestDB(t, t.TempDir())
	defer func() {
		require.NoError(t, db.Close())
	}()
	require.Equal(t, 0, db.Len())

	reopened, err := Open(db.Dir())
	require.NoError(t, err)
	defer func() { require.NoError(t, reopened.Close()) }()
	require.Equal(t, 0, reopened.Len())
}
`

const dbTestAfter = `package tsdb

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSnapshot(t *testing.T) {
	db := newTestDB(t)
	require.Equal(t, 0, db.Len())

	db = newTestDB(t)
	require.Equal(t, 0, db.Len())
}
`

// A check moved behind a call to a helper that holds it is not a removal,
// wherever the helper lives: in a file of the change, in the same file, or in
// a test file of the package the change did not touch (Change.Siblings).
func TestCheckMovedBehindCall(t *testing.T) {
	siblings := func(dir string) []Source {
		if dir != "tsdb" {
			return nil
		}
		return []Source{
			{Path: "tsdb/helpers_test.go", Key: "h1", Data: []byte(dbHelpers)},
			{Path: "tsdb/db_test.go", Key: "stale", Data: []byte("package tsdb\n")}, // changed: not read from here
		}
	}
	sameFile := strings.Replace(dbHelpers, "package tsdb\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/require\"\n)\n", "", 1)
	for _, tc := range []struct {
		name string
		ch   Change
	}{
		{"helper in an unchanged file of the package", Change{
			Files:    []FileChange{mod("tsdb/db_test.go", dbTestBefore, dbTestAfter)},
			Siblings: siblings,
		}},
		{"helper in the same file, unchanged", Change{
			Files: []FileChange{mod("tsdb/db_test.go", dbTestBefore+sameFile, dbTestAfter+sameFile)},
		}},
		{"helper in another changed file", Change{
			Files: []FileChange{
				mod("tsdb/db_test.go", dbTestBefore, dbTestAfter),
				mod("tsdb/helpers_test.go", dbHelpers, strings.Replace(dbHelpers, "t.TempDir()", "dir()", 1)),
			},
		}},
		{"method helper", Change{
			Files: []FileChange{mod("tsdb/db_test.go",
				dbTestBefore+"\ntype fixture struct{}\n\nfunc (f *fixture) open(t *testing.T) *DB {\n\tdb, err := Open(t.TempDir())\n\trequire.NoError(t, err)\n\tt.Cleanup(func() { require.NoError(t, db.Close()) })\n\treturn db\n}\n\nfunc openTestDB(t testing.TB, dir string) *DB {\n\tdb, err := Open(dir)\n\trequire.NoError(t, err)\n\treturn db\n}\n",
				strings.ReplaceAll(dbTestAfter, "newTestDB(t)", "fx.open(t)")+"\ntype fixture struct{}\n\nfunc (f *fixture) open(t *testing.T) *DB {\n\tdb, err := Open(t.TempDir())\n\trequire.NoError(t, err)\n\tt.Cleanup(func() { require.NoError(t, db.Close()) })\n\treturn db\n}\n\nvar fx fixture\n"),
			},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := runChange(tc.ch)
			expectNoHigh(t, fs)
			if strings.Contains(dump(fs), "assertion-removed") {
				t.Errorf("moved checks reported as removed:%s", dump(fs))
			}
		})
	}
}

// The credit goes only to checks the new calls reach more often than the old
// ones did: deleting a check a helper called all along also makes, or
// deleting a different check, is still a removal.
func TestCheckNotMovedBehindCall(t *testing.T) {
	siblings := func(string) []Source {
		return []Source{{Path: "tsdb/helpers_test.go", Key: "h1", Data: []byte(dbHelpers)}}
	}
	withNew := strings.Replace(dbTestBefore, "openTestDB(t, t.TempDir())", "newTestDB(t)", 1)
	for _, tc := range []struct {
		name     string
		old, new string
	}{
		{"helper called before and after", withNew, strings.Replace(withNew, "\tdefer func() { require.NoError(t, reopened.Close()) }()\n", "", 1)},
		{"a comparison deleted beside the move", dbTestBefore, strings.Replace(dbTestAfter, "\tdb = newTestDB(t)\n\trequire.Equal(t, 0, db.Len())\n", "\tdb = newTestDB(t)\n", 1)},
		{"an error check deleted, the helper's one counted once", dbTestBefore, strings.Replace(dbTestAfter, "\tdb = newTestDB(t)\n\trequire.Equal(t, 0, db.Len())\n", "\tdb, _ = Open(db.Dir())\n\trequire.Equal(t, 0, db.Len())\n", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := runChange(Change{Files: []FileChange{mod("tsdb/db_test.go", tc.old, tc.new)}, Siblings: siblings})
			expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "tsdb/db_test.go", "TestSnapshot")
		})
	}
}

// A helper whose check moved into a helper it now calls has not lost it.
func TestHelperCheckMovedBehindCall(t *testing.T) {
	before := dbHelpers + "\nfunc checkSnapshot(t *testing.T, dir string) {\n\tdb := openTestDB(t, dir)\n\tdefer func() { require.NoError(t, db.Close()) }()\n\trequire.Equal(t, 0, db.Len())\n}\n\nfunc TestSnapshot(t *testing.T) {\n\tcheckSnapshot(t, t.TempDir())\n}\n"
	after := strings.Replace(before, "\tdb := openTestDB(t, dir)\n\tdefer func() { require.NoError(t, db.Close()) }()\n", "\tdb := newTestDB(t)\n", 1)
	fs := run(mod("tsdb/db_test.go", before, after))
	if strings.Contains(dump(fs), "helper-assertion-removed") {
		t.Errorf("moved check reported:%s", dump(fs))
	}
	// The same helper losing a check nothing it calls holds is reported.
	lost := strings.Replace(before, "\tdefer func() { require.NoError(t, db.Close()) }()\n", "", 1)
	fs = run(mod("tsdb/db_test.go", before, lost))
	if !strings.Contains(dump(fs), "helper-assertion-removed") {
		t.Errorf("want helper-assertion-removed:%s", dump(fs))
	}
}

const addHelperBase = "package calc\n\nimport \"testing\"\n\nfunc checkAdd(t *testing.T, a, b, want int) {\n\tt.Helper()\n\tif got := Add(a, b); got != want {\n\t\tt.Fatalf(\"Add(%d, %d) = %d, want %d\", a, b, got, want)\n\t}\n}\n\nfunc TestAdd(t *testing.T) {\n\tcheckAdd(t, 2, 3, 5)\n\tcheckAdd(t, -1, 1, 0)\n}\n"

// Deleting a call to a helper that checks drops its checks from the test.
func TestHelperCallRemoved(t *testing.T) {
	oneCall := strings.Replace(addHelperBase, "\tcheckAdd(t, -1, 1, 0)\n", "", 1)
	fs := run(mod("calc_test.go", addHelperBase, oneCall))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityMedium, "calc_test.go", "TestAdd")
	expectNoHigh(t, fs) // the test still calls the helper

	noCall := strings.Replace(oneCall, "\tcheckAdd(t, 2, 3, 5)\n", "\t_ = Add(2, 3)\n", 1)
	fs = run(mod("calc_test.go", addHelperBase, noCall))
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "calc_test.go", "TestAdd")
	if !strings.Contains(dump(fs), "helper-call-removed") || !strings.Contains(dump(fs), "checkAdd") {
		t.Errorf("want helper-call-removed naming checkAdd:%s", dump(fs))
	}

	// The helper in an unchanged file of the package.
	helper := addHelperBase[:strings.Index(addHelperBase, "func TestAdd")]
	tests := "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tcheckAdd(t, 2, 3, 5)\n\tt.Log(\"done\")\n}\n"
	fs = runChange(Change{
		Files:    []FileChange{mod("calc/add_test.go", tests, strings.Replace(tests, "\tcheckAdd(t, 2, 3, 5)\n", "", 1))},
		Siblings: func(string) []Source { return []Source{{Path: "calc/helpers_test.go", Key: "h", Data: []byte(helper)}} },
	})
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "calc/add_test.go", "TestAdd")
}

// Legitimate edits around helper calls raise nothing high.
func TestHelperCallEditsLegitimate(t *testing.T) {
	withOwn := strings.Replace(addHelperBase, "\tcheckAdd(t, 2, 3, 5)\n", "\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"zero\")\n\t}\n\tcheckAdd(t, 2, 3, 5)\n", 1)
	fs := run(mod("calc_test.go", withOwn, strings.Replace(strings.Replace(withOwn, "import \"testing\"\n", "import (\n\t\"testing\"\n\n\t\"example.com/calc/testutil\"\n)\n", 1),
		"\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"zero\")\n\t}\n\tcheckAdd(t, 2, 3, 5)\n\tcheckAdd(t, -1, 1, 0)\n", "\ttestutil.Equals(t, []int{0, 5, 0}, []int{Add(0, 0), Add(2, 3), Add(-1, 1)})\n", 1)))
	expectNoHigh(t, fs) // calls folded into one project assertion
	for _, tc := range []struct {
		name, new string
		quiet     bool // no finding at all
	}{
		{"inlined", strings.Replace(addHelperBase, "\tcheckAdd(t, 2, 3, 5)\n\tcheckAdd(t, -1, 1, 0)\n",
			"\tcheckAdd(t, 2, 3, 5)\n\tif got := Add(-1, 1); got != 0 {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n", 1), true},
		{"replaced by another helper", strings.Replace(addHelperBase, "\tcheckAdd(t, -1, 1, 0)\n", "\tcheckSum(t, 0, -1, 1)\n}\n\nfunc checkSum(t *testing.T, want int, xs ...int) {\n\tif got := Add(xs[0], xs[1]); got != want {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n", 1), true},
		{"helper renamed", strings.ReplaceAll(addHelperBase, "checkAdd", "assertAdd"), true},
		{"two calls replaced by one project assertion", strings.Replace(strings.Replace(addHelperBase, "import \"testing\"\n", "import (\n\t\"testing\"\n\n\t\"example.com/calc/testutil\"\n)\n", 1),
			"\tcheckAdd(t, 2, 3, 5)\n\tcheckAdd(t, -1, 1, 0)\n", "\ttestutil.Equals(t, []int{5, 0}, []int{Add(2, 3), Add(-1, 1)})\n", 1), false},
		{"folded into a table", strings.Replace(addHelperBase, "\tcheckAdd(t, 2, 3, 5)\n\tcheckAdd(t, -1, 1, 0)\n",
			"\tfor _, c := range []struct{ a, b, want int }{{2, 3, 5}, {-1, 1, 0}} {\n\t\tcheckAdd(t, c.a, c.b, c.want)\n\t}\n", 1), false},
		{"case moved to a new test", strings.Replace(addHelperBase, "\tcheckAdd(t, -1, 1, 0)\n}\n",
			"}\n\nfunc TestAddNegative(t *testing.T) {\n\tcheckAdd(t, -1, 1, 0)\n}\n", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := run(mod("calc_test.go", addHelperBase, tc.new))
			expectNoHigh(t, fs)
			if tc.quiet && strings.Contains(dump(fs), "helper-call-removed") {
				t.Errorf("helper-call-removed fired:%s", dump(fs))
			}
		})
	}
}

// JavaScript: a check moved into a helper of an untouched file of the test
// folder is not a removal; dropping the call to a checking page-object
// method is reported.
func TestCallsJavaScript(t *testing.T) {
	helpers := "export function expectUser(user) {\n  expect(user.name).toBe('bob');\n  expect(user.age).toBe(42);\n}\n\nexport class UserPage {\n  async checkTitle(page) {\n    expect(await page.title()).toBe('Users');\n  }\n}\n"
	siblings := func(dir string) []Source {
		if dir != "test" {
			return nil
		}
		return []Source{{Path: "test/helpers.js", Key: "h", Data: []byte(helpers)}}
	}
	before := "import { load } from '../src/users.js';\n\ntest('loads bob', async () => {\n  const user = await load(1);\n  expect(user.name).toBe('bob');\n  expect(user.age).toBe(42);\n});\n"
	after := "import { load } from '../src/users.js';\nimport { expectUser } from './helpers.js';\n\ntest('loads bob', async () => {\n  const user = await load(1);\n  expectUser(user);\n});\n"
	fs := runChange(Change{Files: []FileChange{mod("test/users.test.js", before, after)}, Siblings: siblings})
	expectNoHigh(t, fs)
	if strings.Contains(dump(fs), "assertion-removed") {
		t.Errorf("moved checks reported:%s", dump(fs))
	}
	// Without the helper file the move cannot be seen, and the removal is
	// reported: missing data is not read as no regression.
	fs = runChange(Change{Files: []FileChange{mod("test/users.test.js", before, after)}})
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "test/users.test.js", "loads bob")

	page := "import { UserPage } from './helpers.js';\n\ntest('title', async ({ page }) => {\n  const users = new UserPage();\n  await page.goto('/users');\n  await users.checkTitle(page);\n});\n"
	fs = runChange(Change{Files: []FileChange{mod("test/page.test.js", page, strings.Replace(page, "  await users.checkTitle(page);\n", "", 1))}, Siblings: siblings})
	expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, "test/page.test.js", "title")
	if !strings.Contains(dump(fs), "checkTitle") {
		t.Errorf("want the finding to name checkTitle:%s", dump(fs))
	}
}

// Python, Java and Rust: a check moved into a helper the test now calls is
// not a removal; the same check deleted is.
func TestCallsOtherLanguages(t *testing.T) {
	conftest := "import pytest\n\n\ndef get_ok(client, url):\n    resp = client.get(url)\n    assert resp.status_code == 200\n    return resp\n"
	siblings := func(dir string) []Source {
		if dir != "tests" {
			return nil
		}
		return []Source{{Path: "tests/conftest.py", Key: "c", Data: []byte(conftest)}}
	}
	pyBefore := "def test_users(client):\n    resp = client.get('/users')\n    assert resp.status_code == 200\n    assert resp.json() == []\n"
	pyAfter := "from conftest import get_ok\n\n\ndef test_users(client):\n    resp = get_ok(client, '/users')\n    assert resp.json() == []\n"
	pyDeleted := "def test_users(client):\n    resp = client.get('/users')\n    assert resp.json() == []\n"

	javaHelper := "\n    private void checkOk(Response resp) {\n        assertEquals(200, resp.status());\n    }\n"
	javaBefore := "package app;\n\nclass UsersTest {\n    @Test\n    void lists() {\n        Response resp = client.get(\"/users\");\n        assertEquals(200, resp.status());\n        assertEquals(\"[]\", resp.body());\n    }\n" + javaHelper + "}\n"
	javaAfter := strings.Replace(javaBefore, "        assertEquals(200, resp.status());\n        assertEquals(\"[]\"", "        checkOk(resp);\n        assertEquals(\"[]\"", 1)
	javaDeleted := strings.Replace(javaBefore, "        assertEquals(200, resp.status());\n        assertEquals(\"[]\"", "        assertEquals(\"[]\"", 1)

	rsBefore := "#[cfg(test)]\nmod tests {\n    fn check_ok(resp: &Response) {\n        assert_eq!(resp.status(), 200);\n    }\n\n    #[test]\n    fn lists() {\n        let resp = get(\"/users\");\n        assert_eq!(resp.status(), 200);\n        assert_eq!(resp.body(), \"[]\");\n    }\n}\n"
	rsAfter := strings.Replace(rsBefore, "        assert_eq!(resp.status(), 200);\n        assert_eq!(resp.body()", "        check_ok(&resp);\n        assert_eq!(resp.body()", 1)
	rsDeleted := strings.Replace(rsBefore, "        assert_eq!(resp.status(), 200);\n        assert_eq!(resp.body()", "        assert_eq!(resp.body()", 1)

	for _, tc := range []struct {
		lang, path, test       string
		before, after, deleted string
	}{
		{"python", "tests/test_users.py", "test_users", pyBefore, pyAfter, pyDeleted},
		{"java", "src/test/java/app/UsersTest.java", "UsersTest.lists", javaBefore, javaAfter, javaDeleted},
		{"rust", "tests/users.rs", "tests::lists", rsBefore, rsAfter, rsDeleted},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			fs := runChange(Change{Files: []FileChange{mod(tc.path, tc.before, tc.after)}, Siblings: siblings})
			expectNoHigh(t, fs)
			if strings.Contains(dump(fs), "assertion-removed") {
				t.Errorf("moved check reported:%s", dump(fs))
			}
			fs = runChange(Change{Files: []FileChange{mod(tc.path, tc.before, tc.deleted)}, Siblings: siblings})
			expectFinding(t, fs, gate.AssertionWeakening, gate.SeverityHigh, tc.path, tc.test)
		})
	}
}

// JavaScript helpers in another folder are found through the test file's
// relative imports (express: utils.shouldHaveBody in test/support/utils.js).
func TestCallsJavaScriptImportedHelpers(t *testing.T) {
	utils := "exports.shouldHaveBody = shouldHaveBody;\n\nfunction shouldHaveBody(buf) {\n  return function (res) {\n    assert.ok(res.body, 'response has body');\n    assert.strictEqual(res.body.toString('hex'), buf.toString('hex'));\n  };\n}\n"
	siblings := func(dir string) []Source {
		if dir != "test/support" {
			return nil
		}
		return []Source{{Path: "test/support/utils.js", Key: "u", Data: []byte(utils)}}
	}
	before := "var assert = require('assert');\nvar utils = require('./support/utils');\n\nit('should send the body', function (done) {\n  request(app).get('/').expect(function (res) {\n    assert.ok(res.body, 'response has body');\n    assert.strictEqual(res.body.toString('hex'), buf.toString('hex'));\n  }).end(done);\n});\n"
	after := "var assert = require('assert');\nvar utils = require('./support/utils');\n\nit('should send the body', function (done) {\n  request(app).get('/').expect(utils.shouldHaveBody(buf)).end(done);\n});\n"
	fs := runChange(Change{Files: []FileChange{mod("test/res.send.js", before, after)}, Siblings: siblings})
	expectNoHigh(t, fs)
	if strings.Contains(dump(fs), "assertion-removed") {
		t.Errorf("checks moved into an imported helper reported:%s", dump(fs))
	}
	// Dropping the call is reported, naming the helper.
	dropped := strings.Replace(after, ".expect(utils.shouldHaveBody(buf))", "", 1)
	fs = runChange(Change{Files: []FileChange{mod("test/res.send.js", after, dropped)}, Siblings: siblings})
	if !strings.Contains(dump(fs), "helper-call-removed") || !strings.Contains(dump(fs), "shouldHaveBody") {
		t.Errorf("want helper-call-removed naming shouldHaveBody:%s", dump(fs))
	}
}

// A helper two files define is the one of the test's own file: switching
// from the local copy to the shared one loses nothing, and the checks of the
// two copies are not added up.
func TestCallsSameHelperTwoFiles(t *testing.T) {
	helper := "function shouldHaveBody(buf) {\n  return function (res) {\n    assert.ok(res.body, 'has body');\n    assert.strictEqual(res.body.toString('hex'), buf.toString('hex'));\n  };\n}\n"
	utils := "exports.shouldHaveBody = shouldHaveBody;\n\n" + helper
	test := "var utils = require('./support/utils');\n\nit('sends', function (done) {\n  request(app).get('/').expect(shouldHaveBody(buf)).end(done);\n});\n"
	before := test + "\n" + helper
	after := strings.Replace(test, "expect(shouldHaveBody(buf))", "expect(utils.shouldHaveBody(buf))", 1)
	fs := runChange(Change{Files: []FileChange{
		mod("test/res.send.js", before, after),
		mod("test/support/utils.js", utils, "// Shared test helpers.\n"+utils),
	}})
	if strings.Contains(dump(fs), "helper-call-removed") || strings.Contains(dump(fs), "assertion-removed") {
		t.Errorf("switching to the shared copy of a helper reported:%s", dump(fs))
	}
}
