package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
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
	f, err := New().Extract("db_test.go", []byte(src))
	if err != nil || f.Partial {
		t.Fatalf("extract: %v partial=%v", err, f.Partial)
	}
	calls := map[string][]testscan.Call{}
	for _, tc := range f.Tests {
		calls[tc.ID] = tc.Calls
	}
	want := map[string][]testscan.Call{
		"TestSnapshot":     {call("newTestDB", 2), call(".open", 1), call(".Blocks", 1), call(".Len", 1), call("check", 1)},
		"TestSnapshot/sub": {call("newTestDB", 2), call(".open", 1), call(".Blocks", 1), call(".Len", 1), call("check", 1), call("reopen", 1)},
	}
	if diff := cmp.Diff(want, calls, cmpopts.IgnoreFields(testscan.Call{}, "Values")); diff != "" {
		t.Errorf("test calls (-want +got):\n%s", diff)
	}
	wantHelpers := map[string][]testscan.Call{
		"fixture.open": {call("newTestDB", 1)},
		"newTestDB":    {call("Open", 1), call(".Close", 1)},
	}
	if diff := cmp.Diff(wantHelpers, f.HelperCalls); diff != "" {
		t.Errorf("helper calls (-want +got):\n%s", diff)
	}
}

func call(name string, sites int) testscan.Call {
	return testscan.Call{Name: name, Sites: sites}
}

// TestCallsBounded: a test that calls many functions keeps the first
// MaxCalls names, and still counts the sites of those it kept.
func TestCallsBounded(t *testing.T) {
	src := "package p\n\nimport \"testing\"\n\nfunc TestMany(t *testing.T) {\n"
	for i := range testscan.MaxCalls + 10 {
		src += "\tf" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "()\n"
	}
	src += "\tfaa()\n}\n"
	f, err := New().Extract("p_test.go", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %d tests", err, len(f.Tests))
	}
	calls := f.Tests[0].Calls
	if len(calls) != testscan.MaxCalls || calls[0].Name != "faa" || calls[0].Sites != 2 {
		t.Errorf("got %d calls, first %+v; want %d, faa twice", len(calls), calls[0], testscan.MaxCalls)
	}
}
