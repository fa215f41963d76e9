package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func TestExtractAssertions(t *testing.T) {
	tests := []struct {
		name          string
		src           string
		id            string
		want          []testscan.Assertion
		wantCommented int
	}{
		{
			name: "testing.T failures take the strength of their condition",
			id:   "TestConditions",
			src: `package p

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestConditions(t *testing.T) {
	got, err := Run()
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got != 42 {
		t.Errorf("got %d, want 42", got)
		t.Log("more detail")
		t.Fail()
	}
	if want := "x"; want != got.Name {
		t.Errorf("name")
	}
	if !reflect.DeepEqual(got.Items, wantItems) {
		t.Error("items")
	}
	if !bytes.Equal(got.Raw, []byte("raw")) {
		t.Error("raw")
	}
	if got.Next == nil {
		t.Fatal("no next")
	}
	if len(got.Items) != 2 {
		t.Fatal("len")
	}
	if got.N > 10 {
		t.Error("too big")
	}
	if got.Name == "forbidden" {
		t.Error("must differ")
	}
	if got.OK {
	} else {
		t.Error("not ok")
	}
	if !errors.Is(err, ErrClosed) {
		t.Error("wrong error")
	}
	if 1 != 1 {
		t.Error("never")
	}
	t.Fatal("unconditional")
	if !strings.HasPrefix(got.Name, "usage:") {
		t.Error("prefix")
	}
	if s := got.String(); !strings.Contains(s, "ok") {
		t.Error("contains")
	}
	if !bytes.Contains(got.Raw, []byte("raw")) {
		t.Error("bytes")
	}
	if !strings.HasSuffix(got.Name, suffix) {
		t.Error("suffix")
	}
}
`,
			want: []testscan.Assertion{
				{Line: 13, Kind: "t.Fatalf", Strength: testscan.Medium, Subject: "err"},
				{Line: 16, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "42"},
				{Line: 21, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got.Name", Expected: "want"},
				{Line: 24, Kind: "t.Error", Strength: testscan.Strong, Subject: "got.Items", Expected: "wantItems"},
				{Line: 27, Kind: "t.Error", Strength: testscan.Strong, Subject: "got.Raw", Expected: `[]byte("raw")`},
				{Line: 30, Kind: "t.Fatal", Strength: testscan.Weak, Subject: "got.Next"},
				{Line: 33, Kind: "t.Fatal", Strength: testscan.Medium, Subject: "len(got.Items)", Expected: "2"},
				{Line: 36, Kind: "t.Error", Strength: testscan.Medium, Subject: "got.N", Expected: "10"},
				{Line: 39, Kind: "t.Error", Strength: testscan.Strong, Negated: true, Subject: "got.Name", Expected: `"forbidden"`},
				{Line: 42, Kind: "t.Error", Strength: testscan.Medium, Subject: "got.OK"},
				{Line: 46, Kind: "errors.Is", Strength: testscan.Strong, Subject: "err", Expected: "ErrClosed"},
				{Line: 49, Kind: "t.Error", Strength: testscan.Trivial, Subject: "1", Expected: "1"},
				{Line: 52, Kind: "t.Fatal", Strength: testscan.Medium},
				// A condition call's literal is what its subject is
				// checked for; a name is not a particular value.
				{Line: 53, Kind: "t.Error", Strength: testscan.Medium, Subject: "got.Name", Expected: `"usage:"`},
				{Line: 56, Kind: "t.Error", Strength: testscan.Medium, Subject: "s", Expected: `"ok"`, Origin: "got.String()"},
				{Line: 59, Kind: "t.Error", Strength: testscan.Medium, Subject: "got.Raw", Expected: `[]byte("raw")`},
				{Line: 62, Kind: "t.Error", Strength: testscan.Medium, Subject: "got.Name"},
			},
		},
		{
			name: "cmp.Diff and cmp.Equal checks",
			id:   "TestCmp",
			src: `package p

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
)

func TestCmp(t *testing.T) {
	got := Build()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Build() mismatch (-want +got):\n%s", diff)
	}
	d := cmp.Diff(Config{Name: "a"}, got.Config, cmpopts.EquateEmpty())
	if d != "" {
		t.Fatal(d)
	}
	if !cmp.Equal(got.List, wantList) {
		t.Error("list")
	}
	assert.Empty(t, cmp.Diff(wantMeta, got.Meta))
}
`,
			want: []testscan.Assertion{
				{Line: 12, Kind: "cmp.Diff", Strength: testscan.Strong, Subject: "got", Expected: "want"},
				{Line: 16, Kind: "cmp.Diff", Strength: testscan.Strong, Subject: "got.Config", Expected: `Config{Name:"a"}`},
				{Line: 19, Kind: "cmp.Equal", Strength: testscan.Strong, Subject: "got.List", Expected: "wantList"},
				{Line: 22, Kind: "cmp.Diff", Strength: testscan.Strong, Subject: "got.Meta", Expected: "wantMeta"},
			},
		},
		{
			name: "testify package functions, objects, Not variants and trivial checks",
			id:   "TestTestify",
			src: `package p

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTestify(t *testing.T) {
	v, err := Load("cfg.yaml")
	require.NoError(t, err)
	assert.Equal(t, "prod", v.Env, "env")
	assert.Equalf(t, 3, v.Replicas, "replicas of %s", v.Name)
	assert.NotEqual(t, "", v.Name)
	assert.InDelta(t, 0.5, v.Ratio, 1e-9)
	assert.Contains(t, v.Tags, "web")
	assert.Len(t, v.Tags, 2)
	assert.NotNil(t, v.Limits)
	assert.Error(t, Validate(nil))
	assert.True(t, true)
	assert.Equal(t, "x", "x")
	a := assert.New(t)
	a.ElementsMatch([]string{"a", "b"}, v.Tags)
	r := require.New(t)
	r.ErrorIs(err, nil)
	// assert.Equal(t, 4, v.Replicas)
	// require.NoError(t, v.Check())
	// this comment (mentions a call) is prose
}
`,
			want: []testscan.Assertion{
				{Line: 12, Kind: "require.NoError", Strength: testscan.Medium, Subject: "err"},
				{Line: 13, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "v.Env", Expected: `"prod"`},
				{Line: 14, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "v.Replicas", Expected: "3"},
				{Line: 15, Kind: "assert.NotEqual", Strength: testscan.Strong, Negated: true, Subject: "v.Name", Expected: `""`},
				{Line: 16, Kind: "assert.InDelta", Strength: testscan.Strong, Subject: "v.Ratio", Expected: "0.5", Tolerance: "1e-9"},
				{Line: 17, Kind: "assert.Contains", Strength: testscan.Medium, Subject: "v.Tags", Expected: `"web"`},
				{Line: 18, Kind: "assert.Len", Strength: testscan.Medium, Subject: "v.Tags", Expected: "2"},
				{Line: 19, Kind: "assert.NotNil", Strength: testscan.Weak, Negated: true, Subject: "v.Limits"},
				{Line: 20, Kind: "assert.Error", Strength: testscan.Weak, Subject: "Validate(nil)"},
				{Line: 21, Kind: "assert.True", Strength: testscan.Trivial, Subject: "true"},
				{Line: 22, Kind: "assert.Equal", Strength: testscan.Trivial, Subject: `"x"`, Expected: `"x"`},
				{Line: 24, Kind: "assert.ElementsMatch", Strength: testscan.Strong, Subject: "v.Tags", Expected: `[]string{"a", "b"}`},
				{Line: 26, Kind: "require.ErrorIs", Strength: testscan.Strong, Subject: "err", Expected: "nil"},
			},
			wantCommented: 2,
		},
		{
			name: "testify suite methods",
			id:   "S.TestSuite",
			src: `package p

func (s *S) TestSuite() {
	s.Require().NoError(s.db.Ping())
	s.Equal(2, s.db.Count())
	s.Assert().Nil(s.db.Err())
	s.seed()
	s.T().Errorf("always")
}
`,
			want: []testscan.Assertion{
				{Line: 4, Kind: "require.NoError", Strength: testscan.Medium, Subject: "s.db.Ping()"},
				{Line: 5, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "s.db.Count()", Expected: "2"},
				{Line: 6, Kind: "assert.Nil", Strength: testscan.Medium, Subject: "s.db.Err()"},
				{Line: 8, Kind: "t.Errorf", Strength: testscan.Medium},
			},
		},
		{
			name: "quicktest, is and gotest.tools",
			id:   "TestLibs",
			src: `package p

import (
	"testing"

	qt "github.com/frankban/quicktest"
	"github.com/matryer/is"
	gt "gotest.tools/v3/assert"
)

func TestLibs(t *testing.T) {
	c := qt.New(t)
	c.Assert(Sum(1, 2), qt.Equals, 3)
	c.Assert(err, qt.Not(qt.IsNil))
	qt.Assert(t, qt.DeepEquals(Items(), []int{1}))
	is := is.New(t)
	is.Equal(Name(), "bob")
	is.NoErr(err)
	gt.Equal(t, Count(), 7)
	gt.Assert(t, Count() == 7)
}
`,
			want: []testscan.Assertion{
				{Line: 13, Kind: "qt.Equals", Strength: testscan.Strong, Subject: "Sum(1, 2)", Expected: "3"},
				{Line: 14, Kind: "qt.IsNil", Strength: testscan.Medium, Negated: true, Subject: "err"},
				{Line: 15, Kind: "qt.DeepEquals", Strength: testscan.Strong, Subject: "Items()", Expected: "[]int{1}"},
				{Line: 17, Kind: "is.Equal", Strength: testscan.Strong, Subject: "Name()", Expected: `"bob"`},
				{Line: 18, Kind: "is.NoErr", Strength: testscan.Medium, Subject: "err"},
				{Line: 19, Kind: "assert.Equal", Strength: testscan.Strong, Subject: "Count()", Expected: "7"},
				{Line: 20, Kind: "assert.Assert", Strength: testscan.Strong, Subject: "Count()", Expected: "7"},
			},
		},
		{
			name: "a project's assertion helpers in other packages, by name",
			id:   "TestProject",
			src: `package p

import (
	"testing"

	"example.com/proj/util/testutil"
)

func TestProject(t *testing.T) {
	srv := testutil.NewServer(t)
	testutil.RequireEqual(t, want, srv.Labels())
	testutil.Ok(t, srv.Close())
	testutil.NotOk(t, srv.Start())
	testutil.Equals(t, 3, srv.Count())
	testutil.AssertContains(t, srv.Names(), "a")
	testutil.Equal(srv.Count(), 3)
	notimported.RequireEqual(t, 1, srv.Count())
}
`,
			want: []testscan.Assertion{
				{Line: 11, Kind: "testutil.RequireEqual", Strength: testscan.Strong, Subject: "srv.Labels()", Expected: "want"},
				{Line: 12, Kind: "testutil.Ok", Strength: testscan.Medium, Subject: "srv.Close()"},
				{Line: 13, Kind: "testutil.NotOk", Strength: testscan.Medium, Negated: true, Subject: "srv.Start()"},
				{Line: 14, Kind: "testutil.Equals", Strength: testscan.Strong, Subject: "srv.Count()", Expected: "3"},
				{Line: 15, Kind: "testutil.AssertContains", Strength: testscan.Medium, Subject: "srv.Names()"},
			},
		},
		{
			name: "helpers defined in the body count; helpers outside do not",
			id:   "TestHelpers",
			src: `package p

import "testing"

func TestHelpers(t *testing.T) {
	check := func(t *testing.T, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("got %d want %d", got, want)
		}
	}
	check(t, Add(1, 1), 2)
	checkOutside(t, 3)
}
`,
			want: []testscan.Assertion{
				{Line: 8, Kind: "t.Errorf", Strength: testscan.Strong, Subject: "got", Expected: "want"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := extract(t, "a_test.go", tt.src)
			tc := scantest.ByID(t, f, tt.id)
			if diff := cmp.Diff(tt.want, tc.Assertions, ignoreFlow); diff != "" {
				t.Errorf("assertions (-want +got):\n%s", diff)
			}
			if tc.CommentedAssertions != tt.wantCommented {
				t.Errorf("CommentedAssertions = %d, want %d", tc.CommentedAssertions, tt.wantCommented)
			}
		})
	}
}

func TestTableRowsSubstituteExpected(t *testing.T) {
	src := `package p

import "testing"

func TestDouble(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   int
		want int
	}{
		{"two", 1, 2},
		{"four", 2, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Double(tc.in); got != tc.want {
				t.Errorf("got %d", got)
			}
		})
	}
}
`
	f := extract(t, "d_test.go", src)
	for id, want := range map[string]string{"TestDouble/two": "2", "TestDouble/four": "4"} {
		tc := scantest.ByID(t, f, id)
		if len(tc.Assertions) != 1 || tc.Assertions[0].Expected != want {
			t.Errorf("%s assertions = %+v, want one with Expected %q", id, tc.Assertions, want)
		}
	}
	if diff := cmp.Diff([]string{"1", "2", `"got %d"`}, scantest.ByID(t, f, "TestDouble/two").Literals); diff != "" {
		t.Errorf("row literals (-want +got):\n%s", diff)
	}
	// The row's name is a literal the test uses (often its input).
	if got := scantest.ByID(t, f, "TestDouble/two").NameLiteral; got != `"two"` {
		t.Errorf("NameLiteral = %q", got)
	}
}
