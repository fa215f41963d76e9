package jsts

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// ignoreArms leaves Assertion.Arms to TestAssertionArms.
var ignoreArms = cmpopts.IgnoreFields(testscan.Assertion{}, "Arms")

func TestAssertionArms(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// want lists, per assertion in order, its arms as "cond#index".
		want [][]string
	}{
		{
			name: "if else and else if",
			src: `test('t', () => {
  expect(a).toBe(0)
  if (b === 'w') { expect(a).toBe(1) }
  else if (c) { expect(a).toBe(2) }
  else expect(a).toBe(3)
})`,
			want: [][]string{nil, {"if ( b === \"w\" )#0"}, {"if ( b === \"w\" )#1", "if ( c )#0"}, {"if ( b === \"w\" )#1", "if ( c )#1"}},
		},
		{
			name: "ternary, loop and switch runs",
			src: `test('t', async () => {
  for (const x of xs) {
    x ? expect(a).toBe(1) : await expect(a).toBe(2)
  }
  switch (b) {
  case 1:
    expect(a).toBe(3)
  case 2:
    expect(a).toBe(4)
    break
  default:
    expect(a).toBe(5)
  }
})`,
			want: [][]string{
				{"for ( const x of xs )#0", "?x#0"},
				{"for ( const x of xs )#0", "?x#1"},
				{"switch ( b )#0"}, {"switch ( b )#0"}, {"switch ( b )#1"},
			},
		},
		{
			name: "callbacks within the test",
			src: `test('t', () => {
  if (b) xs.forEach((x) => { expect(x).toBe(1) })
  else ys.map(function (y) { return expect(y).toBe(2) })
  zs.some(z => expect(z).toBe(3))
})`,
			want: [][]string{{"if ( b )#0", "=>#0"}, {"#1", "function#0"}, {"=>#0"}},
		},
		{
			name: "try blocks and short circuits",
			src: `test('t', () => {
  try { expect(a).toBe(1) } catch (e) { log(e) }
  try { expect(a).toBe(2) } catch (e) { expect(e).toBe(3) }
  try { expect(a).toBe(4) } finally { done2() }
  process.env.X && expect(a).toBe(5)
  expect(b && c).toBe(6)
})`,
			want: [][]string{{"swallowed by catch#0"}, nil, nil, nil, {"process . env . X &&#0"}, nil},
		},
		{
			name: "braceless then before else is not read",
			src: `test('t', () => {
  if (b) expect(a).toBe(1); else expect(a).toBe(2)
})`,
			want: [][]string{{"if ( b )#0"}, {"#1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, "a.test.ts", tc.src)
			if len(f.Tests) != 1 {
				t.Fatalf("got %d tests, want 1", len(f.Tests))
			}
			var got [][]string
			for _, x := range f.Tests[0].Assertions {
				var arms []string
				for _, a := range x.Arms {
					arms = append(arms, fmt.Sprintf("%s#%d", a.Cond, a.Index))
				}
				got = append(got, arms)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("arms (-want +got):\n%s", diff)
			}
		})
	}
}
