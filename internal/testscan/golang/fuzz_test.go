package golang

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

func FuzzExtract(f *testing.F) {
	sample, err := os.ReadFile("testdata/sample_test.go.txt")
	if err != nil {
		f.Fatalf("read seed: %v", err)
	}
	f.Add(string(sample))
	f.Add(fpBase)
	f.Add("package p\n\nfunc TestA(t *testing.T) {\n\tcheck := func() {\n\t\tif !strings.HasPrefix(s, \"x\") {\n\t\t\tt.Error(\"x\")\n\t\t}\n\t}\n\t_ = check\n\tcheck = func() {}\n}\n")
	f.Add(fpReformatted)
	lines := strings.Split(string(sample), "\n")
	for _, cut := range []int{5, 23, 40, 61} {
		hunk := strings.Repeat("\n", cut) + strings.Join(lines[cut:min(cut+12, len(lines))], "\n")
		f.Add(hunk)
	}
	f.Add("package p\nfunc TestX(t *testing.T) { t.Run(\"a\", func(t *testing.T) { for _, tc := range x { t.Run(tc.n, nil) } })\n")
	f.Add("}\n}\n)\nfunc Test(t *testing.T) {\n\tif x {\n\t\t}\n\t\t}\n\t]\n")
	f.Add("func TestRaw(t *testing.T) {\n\ts := `\nfunc TestInside(t *testing.T) {}\n")
	f.Add("package p\nfunc check(t testing.TB, c *qt.C, a *assert.Assertions) {\n\tif got := F(); got != 1 {\n\t\tt.Errorf(\"got %d\", got)\n\t}\n\tc.Assert(F(), qt.Equals, 1)\n\ta.Equal(1, F())\n}\ntype S struct{ suite.Suite }\nfunc (s *S) SetupTest() { s.Require().NoError(Init()) }\n")
	f.Add("package p\nfunc (p *P[K]) Parse(s string) (int, error) {\n\tif s == \"a\" {\n\t\treturn 1, nil\n\t}\n\tswitch p.k {\n\tcase 2, -3:\n\t\ts = \"x\"\n\tcase K:\n\t}\n\tf := func() error { return nil }\n\tif (5 == p.n) { return 0, fmt.Errorf(\"%w\", f()) }\n\treturn\n}\n")
	f.Add("package p\nfunc TestG(t *testing.T) {\n\tdefer wg.Wait()\n\tgo func() { assert.Equal(t, 1, f()) }()\n\tgo check(t)\n\t_ = check\n\t<-done\n\tselect {}\n\tfor v := range out { _ = v }\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		New().References("fuzz_test.go", []byte(src), map[string]bool{"check": true, "f": true})
		file, err := New().Extract("fuzz_test.go", []byte(src))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		scantest.CheckTests(t, file.Tests)
		for _, tc := range file.Tests {
			if tc.Dynamic && !strings.Contains(tc.ID, "*") {
				t.Errorf("dynamic id %q has no *", tc.ID)
			}
			if len(tc.Literals) > maxLiterals {
				t.Errorf("%s: %d literals", tc.ID, len(tc.Literals))
			}
		}
		for _, a := range file.HelperAssertions {
			if a.Line < 1 || a.Kind == "" {
				t.Errorf("helper assertion without line or kind: %+v", a)
			}
		}
		// A production file has no helper assertions, unless it imports
		// package testing: then it is a support package, whose helpers
		// assert.
		prod, _ := New().Extract("fuzz.go", []byte(src))
		if prod == nil || prod.HelperAssertions != nil && !importsTesting([]byte(src)) {
			t.Fatalf("production file: %+v", prod)
		}
		scantest.CheckFuncs(t, src, prod.Funcs)
	})
}

// bigTestFile generates a realistic test file of about size bytes.
func bigTestFile(size int) []byte {
	var b strings.Builder
	b.WriteString("package big\n\nimport (\n\t\"testing\"\n\n\t\"github.com/google/go-cmp/cmp\"\n\t\"github.com/stretchr/testify/assert\"\n)\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `func TestParse%[1]d(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{name: "zero", in: "0", want: 0},
		{name: "n%[1]d", in: "%[1]d", want: %[1]d},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.in) //nolint:errcheck
			if err != nil {
				t.Fatalf("Parse(%%q): %%v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%%s", diff)
			}
		})
	}
}

func TestTestify%[1]d(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	v := Load("case-%[1]d")
	assert.Equal(t, %[1]d, v.N)
	// assert.NotNil(t, v)
	assert.InDelta(t, 1.5, v.F, 0.01)
}

`, i)
	}
	return []byte(b.String())
}

func BenchmarkExtract(b *testing.B) {
	src := bigTestFile(1 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New().Extract("big_test.go", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractLargeFile reads a 1 MB file completely; its speed is
// BenchmarkExtract's job.
func TestExtractLargeFile(t *testing.T) {
	src := bigTestFile(1 << 20)
	f := extract(t, "big_test.go", string(src))
	if len(f.Tests) < 1000 {
		t.Fatalf("found %d tests in the generated file, want over 1000", len(f.Tests))
	}
}
