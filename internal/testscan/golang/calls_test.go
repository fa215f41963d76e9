package golang

import (
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// TestCalls: a test's calls name the functions and methods it calls, with
// their call sites; calls into imported packages, builtins, the testing
// value's methods and the assertions are left out; a subtest has its
// parent's calls; helpers' calls are filed by helper.
func TestCalls(t *testing.T) {
	src := `package tsdb

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

type fixture struct{ db *DB }

func (f *fixture) open(t *testing.T) *DB {
	db := newTestDB(t)
	f.db = db
	return db
}

func newTestDB(t testing.TB) *DB {
	db, err := Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

func TestSnapshot(t *testing.T) {
	t.Helper()
	db := newTestDB(t)
	var fx fixture
	fx.open(t)
	xs := make([]int, 0, len(db.Blocks()))
	fmt.Println(xs)
	require.Equal(t, 0, db.Len())
	db = newTestDB(t)
	check[int](t, db)
	t.Run("sub", func(t *testing.T) {
		reopen(t, db)
	})
}
`
	want := map[string][]testscan.Call{
		"TestSnapshot":     {call("newTestDB", 2), call(".open", 1), call(".Blocks", 1), call(".Len", 1), call("check", 1)},
		"TestSnapshot/sub": {call("newTestDB", 2), call(".open", 1), call(".Blocks", 1), call(".Len", 1), call("check", 1), call("reopen", 1)},
	}
	wantHelpers := map[string][]testscan.Call{
		"fixture.open": {call("newTestDB", 1)},
		"newTestDB":    {call("Open", 1), call(".Close", 1)},
	}
	scantest.Calls(t, New(), "db_test.go", src, want, wantHelpers)
}

// call is a call of name at sites places.
var call = scantest.Site

// TestCallsBounded: a test that calls many functions keeps the first
// MaxCalls names, and still counts the sites of those it kept.
func TestCallsBounded(t *testing.T) {
	src := "package p\n\nimport \"testing\"\n\nfunc TestMany(t *testing.T) {\n"
	for i := range testscan.MaxCalls + 10 {
		src += "\tf" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "()\n"
	}
	src += "\tfaa()\n}\n"
	scantest.CallsBounded(t, New(), "p_test.go", src, "faa")
}
