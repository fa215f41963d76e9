package gitrange

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

// TestRangeReusedVersions analyzes a range whose first commit makes a change
// that rules read from the files' text, and whose second touches something
// else. The net change's pairs are then the commit's very pairs, parsed
// once: the range does not carry their text again, and the rules that read
// it must still have it. Each change alone is no block; read without its
// text, the commit's or the net's finding became high or critical.
func TestRangeReusedVersions(t *testing.T) {
	const triple = "package p\n\n// Double doubles.\nfunc Double(x int) int { return 2 * x }\n\n// LegacyTriple triples.\nfunc LegacyTriple(x int) int { return 3 * x }\n"
	const tripleTests = "package p\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(\"Double\")\n\t}\n}\n\nfunc TestLegacyTriple(t *testing.T) {\n\tif LegacyTriple(2) != 6 {\n\t\tt.Fatal(\"LegacyTriple\")\n\t}\n}\n"
	const env = "package a\n\nimport \"strings\"\n\n// Usage says how.\nfunc Usage() string { return \"usage: a\" }\n\nfunc withoutVariables(env []string, name string) []string {\n\tvar out []string\n\tfor _, kv := range env {\n\t\tif !strings.HasPrefix(kv, name+\"=\") {\n\t\t\tout = append(out, kv)\n\t\t}\n\t}\n\treturn out\n}\n"
	const envTests = "package a\n\nimport (\n\t\"slices\"\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestUsage(t *testing.T) {\n\tif !strings.Contains(Usage(), \"usage\") {\n\t\tt.Errorf(\"usage: %s\", Usage())\n\t}\n\tif got := withoutVariables([]string{\"A=1\", \"INPUT_TOKEN=s\", \"INPUT_TOKENS=2\"}, \"INPUT_TOKEN\"); !slices.Equal(got, []string{\"A=1\", \"INPUT_TOKENS=2\"}) {\n\t\tt.Errorf(\"withoutVariables = %v\", got)\n\t}\n}\n"
	for _, tc := range []struct {
		name   string
		base   map[string]string
		change map[string]string // "" deletes the file
	}{
		{
			name:   "a test deleted with the function it tested",
			base:   map[string]string{"p/p.go": triple, "p/p_test.go": tripleTests},
			change: map[string]string{"p/p.go": triple[:strings.Index(triple, "\n// LegacyTriple")+1], "p/p_test.go": tripleTests[:strings.Index(tripleTests, "\nfunc TestLegacyTriple")+1]},
		},
		{
			name: "a check moved with its function into another package",
			base: map[string]string{"a/a.go": env, "a/a_test.go": envTests},
			change: map[string]string{
				"a/a.go":      "package a\n\n// Usage says how.\nfunc Usage() string { return \"usage: a\" }\n",
				"a/a_test.go": strings.Replace(envTests[:strings.Index(envTests, "\tif got :=")]+"}\n", "\t\"slices\"\n", "", 1),
				"b/b.go":      strings.Replace(strings.Replace(env[strings.Index(env, "func withoutVariables"):], "withoutVariables", "WithoutVariables", 1), "func", "package b\n\nimport \"strings\"\n\n// WithoutVariables drops name.\nfunc", 1),
				"b/b_test.go": "package b\n\nimport (\n\t\"slices\"\n\t\"testing\"\n)\n\nfunc TestWithoutVariables(t *testing.T) {\n\tif got := WithoutVariables([]string{\"A=1\", \"INPUT_TOKEN=s\", \"INPUT_TOKENS=2\"}, \"INPUT_TOKEN\"); !slices.Equal(got, []string{\"A=1\", \"INPUT_TOKENS=2\"}) {\n\t\tt.Errorf(\"WithoutVariables = %v\", got)\n\t}\n}\n",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := testgit.Init(t)
			testgit.Write(t, dir, "go.mod", "module ex.com/m\n\ngo 1.22\n")
			testgit.WriteAll(t, dir, tc.base)
			base := testgit.Commit(t, dir, "base")
			for p, content := range tc.change {
				if content == "" {
					testgit.Run(t, dir, "rm", "-q", p)
					continue
				}
				testgit.Write(t, dir, p, content)
			}
			testgit.Commit(t, dir, "the change")
			testgit.Write(t, dir, "README.md", "# m\n")
			head := testgit.Commit(t, dir, "a readme")
			var got []string
			for _, f := range analyzeRange(t, dir, base, head) {
				if f.Severity >= gate.SeverityHigh {
					got = append(got, f.Severity.String()+" "+f.Rule+" net="+map[bool]string{true: "yes", false: "no"}[f.Net]+": "+f.Message)
				}
			}
			if len(got) > 0 {
				t.Errorf("findings at high, the commit's or the net change's:\n  %s", strings.Join(got, "\n  "))
			}
		})
	}
}
