package jsts

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

const original = `describe('format', () => {
  it('pads numbers', () => {
    const out = pad(7, { width: 3, fill: '0' })
    expect(out).toBe('007')
    expect(calls.map(c => c.arg)).toEqual([7, 3,])
  })
  it('trims', () => {
    // keeps inner spaces
    expect(trim('  a b  ')).toBe('a b')
  })
})
`

// reformatted is original after prettier with double quotes, semicolons,
// trailing commas "none", always-parenthesized arrow parameters and another
// print width; comments changed too.
const reformatted = `describe("format", () => {
  it("pads numbers", () => {
    const out = pad(7, {
      width: 3,
      fill: "0"
    });
    expect(out).toBe("007");
    expect(calls.map((c) => c.arg)).toEqual([7, 3]);
  });

  it("trims", () => {
    /* inner spaces are kept */
    expect(trim("  a b  ")).toBe("a b");
  });
});
`

func TestReformatKeepsIDsFingerprintsAndOperands(t *testing.T) {
	a := extract(t, "f.test.js", original)
	b := extract(t, "f.test.js", reformatted)
	if diff := cmp.Diff(scantest.IDs(a), scantest.IDs(b)); diff != "" {
		t.Fatalf("ids changed (-original +reformatted):\n%s", diff)
	}
	for k := range a.Tests {
		x, y := a.Tests[k], b.Tests[k]
		if x.Fingerprint != y.Fingerprint {
			t.Errorf("%s: fingerprint %s -> %s after reformatting", x.ID, x.Fingerprint, y.Fingerprint)
		}
		if x.BodyTokens != y.BodyTokens {
			t.Errorf("%s: BodyTokens %d -> %d", x.ID, x.BodyTokens, y.BodyTokens)
		}
		strip := func(as []testscan.Assertion) []testscan.Assertion {
			out := append([]testscan.Assertion(nil), as...)
			for i := range out {
				out[i].Line = 0
			}
			return out
		}
		if diff := cmp.Diff(strip(x.Assertions), strip(y.Assertions)); diff != "" {
			t.Errorf("%s: assertions changed (-original +reformatted):\n%s", x.ID, diff)
		}
		if diff := cmp.Diff(x.Literals, y.Literals); diff != "" {
			t.Errorf("%s: literals changed (-original +reformatted):\n%s", x.ID, diff)
		}
	}
}

func TestFingerprintRenameMoveAndEdit(t *testing.T) {
	base := extract(t, "f.test.js", original)
	pads := scantest.ByID(t, base, "format > pads numbers")

	tests := []struct {
		name   string
		src    string
		id     string
		sameFP bool
	}{
		{
			name:   "renamed test keeps the fingerprint",
			src:    strings.Replace(original, "'pads numbers'", "'left-pads numbers with zeros'", 1),
			id:     "format > left-pads numbers with zeros",
			sameFP: true,
		},
		{
			name: "moved to another file and group keeps the fingerprint",
			src: `describe('padding', () => {
  test('pads', () => {
    const out = pad(7, { width: 3, fill: '0' })
    expect(out).toBe('007')
    expect(calls.map(c => c.arg)).toEqual([7, 3,])
  })
})`,
			id:     "padding > pads",
			sameFP: true,
		},
		{
			name: "one literal changed alters the fingerprint",
			src:  strings.Replace(original, "toBe('007')", "toBe('07')", 1),
			id:   "format > pads numbers",
		},
		{
			name: "one number changed alters the fingerprint",
			src:  strings.Replace(original, "width: 3", "width: 2", 1),
			id:   "format > pads numbers",
		},
		{
			name: "a weaker matcher alters the fingerprint",
			src:  strings.Replace(original, "expect(out).toBe('007')", "expect(out).toBeDefined()", 1),
			id:   "format > pads numbers",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := scantest.ByID(t, extract(t, "g.test.js", tc.src), tc.id)
			if same := got.Fingerprint == pads.Fingerprint; same != tc.sameFP {
				t.Errorf("fingerprint %s vs base %s: same = %v, want %v", got.Fingerprint, pads.Fingerprint, same, tc.sameFP)
			}
		})
	}
}

func TestFragments(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []testRow
		// asserts maps test ids to their number of recovered assertions.
		asserts map[string]int
	}{
		{
			name: "hunk with an unclosed test followed by a complete one",
			src: `describe('parser', () => {
  it('parses a', () => {
    expect(parse('a')).toEqual(['a'])



  it.skip('parses b', () => {
    expect(parse('b')).toEqual(['b'])
  })
`,
			want: []testRow{
				{ID: "parser > parses a", Line: 2, EndLine: 3},
				{ID: "parser > parses b", Line: 7, EndLine: 9, Skip: skip(testscan.SkipMarked, 7)},
			},
			asserts: map[string]int{"parser > parses a": 1, "parser > parses b": 1},
		},
		{
			name: "hunk starting in the middle of a test",
			src: `    expect(orphan).toBe(1)
  })

  it('whole', () => {
    // expect(old).toBe(2)
    expect(value).toBeTruthy()
  })
})
`,
			want:    []testRow{{ID: "whole", Line: 4, EndLine: 7}},
			asserts: map[string]int{"whole": 1},
		},
		{
			name: "hunk cut inside a template literal",
			src: "it('before', () => { expect(a).toBe(1) })\n\n\n" +
				"  const msg = `unterminated ${value} and it('fake', () => {})\n",
			want:    []testRow{{ID: "before", Line: 1, EndLine: 1}},
			asserts: map[string]int{"before": 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := extract(t, "frag.test.ts", tc.src)
			if diff := cmp.Diff(tc.want, rows(f)); diff != "" {
				t.Errorf("tests (-want +got):\n%s", diff)
			}
			if !f.Partial {
				t.Errorf("Partial = false for a fragment")
			}
			for id, n := range tc.asserts {
				if got := len(scantest.ByID(t, f, id).Assertions); got != n {
					t.Errorf("%s: %d assertions, want %d", id, got, n)
				}
			}
		})
	}
}
