package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mutationReport is the mutation part of compare's JSON report.
type mutationReport struct {
	Mutation *struct {
		Ran                                             bool
		Reason, Budget                                  string
		Killed, Survived, NotViable, NotRun, Unmeasured int
		Score                                           *float64
		Mutants                                         []struct {
			File, Operator, Original, Mutated, Outcome, Detail string
			Line                                               int
			KilledBy                                           string `json:"killed_by"`
		}
	} `json:"mutation"`
}

func parseMutation(t *testing.T, out string) mutationReport {
	t.Helper()
	var m mutationReport
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("report does not parse: %v\n%s", err, out)
	}
	return m
}

// mutationLang is one language's project for mutation: BASE's discount
// takes nothing off; HEAD takes 10 off totals of 100 or more. The pinning
// test checks the boundary (100 and 99); the weak one a total far above
// it, which the boundary's mutant (>= to >) leaves green.
type mutationLang struct {
	name, code, base, fix, testFile, pinning, weak string
	project                                        func(t *testing.T) *repo
	boundary                                       string // the line the surviving mutant changes
}

func mutationLangs() []mutationLang {
	return []mutationLang{
		{
			name: "go", project: goModule, code: "discount.go",
			base:     "package calc\n\n// Discount is what a total costs.\nfunc Discount(total int) int {\n\treturn total\n}\n",
			fix:      "package calc\n\n// Discount takes 10 off totals of 100 or more.\nfunc Discount(total int) int {\n\tif total >= 100 {\n\t\treturn total - 10\n\t}\n\treturn total\n}\n",
			testFile: "discount_test.go",
			pinning:  "package calc\n\nimport \"testing\"\n\nfunc TestDiscountBoundary(t *testing.T) {\n\tif got := Discount(100); got != 90 {\n\t\tt.Fatalf(\"Discount(100) = %d, want 90\", got)\n\t}\n\tif got := Discount(99); got != 99 {\n\t\tt.Fatalf(\"Discount(99) = %d, want 99\", got)\n\t}\n}\n",
			weak:     "package calc\n\nimport \"testing\"\n\nfunc TestDiscountLarge(t *testing.T) {\n\tif got := Discount(150); got != 140 {\n\t\tt.Fatalf(\"Discount(150) = %d, want 140\", got)\n\t}\n}\n",
			boundary: "if total >= 100 {",
		},
		{
			name: "python", project: pytestProject, code: "discount.py",
			base:     "def discount(total):\n    return total\n",
			fix:      "def discount(total):\n    if total >= 100:\n        return total - 10\n    return total\n",
			testFile: "tests/test_discount.py",
			pinning:  "from discount import discount\n\n\ndef test_discount_boundary():\n    assert discount(100) == 90\n    assert discount(99) == 99\n",
			weak:     "from discount import discount\n\n\ndef test_discount_large():\n    assert discount(150) == 140\n",
			boundary: "if total >= 100:",
		},
		{
			name: "typescript", project: vitestProject, code: "src/discount.ts",
			base:     "export function discount(total: number): number {\n  return total\n}\n",
			fix:      "export function discount(total: number): number {\n  if (total >= 100) {\n    return total - 10\n  }\n  return total\n}\n",
			testFile: "test/discount.test.ts",
			pinning:  "import { discount } from '../src/discount'\n\ntest('boundary', () => {\n  expect(discount(100)).toBe(90)\n  expect(discount(99)).toBe(99)\n})\n",
			weak:     "import { discount } from '../src/discount'\n\ntest('large', () => {\n  expect(discount(150)).toBe(140)\n})\n",
			boundary: "if (total >= 100) {",
		},
	}
}

// TestCompareMutation: with --mutation, a fix whose test checks a total far
// above the new boundary gets mutant-survived naming the boundary's line
// (medium: exit 0); the same fix with a test at the boundary kills every
// mutant and gets none; without --mutation nothing is mutated; the text
// and markdown reports list the survivor.
func TestCompareMutation(t *testing.T) {
	t.Parallel()
	for _, l := range mutationLangs() {
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			if l.name == "python" {
				slow(t)
			}
			r := l.project(t)
			r.write(l.code, l.base)
			base := r.commit("discount")
			line := 1 + strings.Count(l.fix[:strings.Index(l.fix, l.boundary)], "\n")

			r.write(l.code, l.fix)
			r.write(l.testFile, l.weak)
			weak := r.commit("discount: 10 off from 100")
			res := runGate(t, r.dir, "", "compare", "--format", "json", "--mutation", base, weak)
			rep := parseCompare(t, res.stdout)
			f, ok := rep.findingOf("unverified", "mutant-survived")
			if res.code != 0 || !ok || f.Severity != "medium" || f.File != l.code || !strings.Contains(f.Message, l.boundary) {
				t.Fatalf("weak test: exit %d, finding %+v; want a medium mutant-survived on %s naming %q\n%s\n%s", res.code, f, l.code, l.boundary, res.stdout, res.stderr)
			}
			m := parseMutation(t, res.stdout).Mutation
			if m == nil || !m.Ran || m.Survived != 1 || m.Killed < 1 || m.Score == nil || *m.Score >= 100 {
				t.Fatalf("weak test: mutation %+v", m)
			}
			for _, mu := range m.Mutants {
				if mu.Outcome == "survived" && (mu.Line != line || mu.Operator != "boundary") {
					t.Errorf("survivor %+v, want the boundary mutant on line %d", mu, line)
				}
			}
			text := runGate(t, r.dir, "", "compare", "--mutation", base, weak)
			if !strings.Contains(text.stdout, "Mutation: ") || !strings.Contains(text.stdout, "survived") || !strings.Contains(text.stdout, l.boundary) {
				t.Errorf("text report lacks the survivor:\n%s", text.stdout)
			}
			md := runGate(t, r.dir, "", "compare", "--format", "markdown", "--mutation", base, weak)
			if !strings.Contains(md.stdout, "### Mutation") || !strings.Contains(md.stdout, "| survived |") {
				t.Errorf("markdown report lacks the mutation table:\n%s", md.stdout)
			}
			res = runGate(t, r.dir, "", "compare", "--format", "json", base, weak)
			if rep := parseCompare(t, res.stdout); rep.has("unverified", "mutant-survived", "") || parseMutation(t, res.stdout).Mutation != nil {
				t.Errorf("without --mutation: findings %+v\n%s", rep.Findings, res.stdout)
			}

			r.git("reset", "-q", "--hard", base)
			r.write(l.code, l.fix)
			r.write(l.testFile, l.pinning)
			honest := r.commit("discount: 10 off from 100, tested at the boundary")
			res = runGate(t, r.dir, "", "compare", "--format", "json", "--mutation", base, honest)
			rep = parseCompare(t, res.stdout)
			m = parseMutation(t, res.stdout).Mutation
			if res.code != 0 || rep.has("unverified", "", "") || m == nil || m.Survived != 0 || m.Killed < 2 || m.Score == nil || *m.Score != 100 {
				t.Fatalf("honest fix: exit %d, findings %+v, mutation %+v\n%s", res.code, rep.Findings, m, res.stderr)
			}

			// A budget smaller than one run: the first mutant runs, the
			// others are cut, and the report says so.
			r.git("reset", "-q", "--hard", base)
			cfg := ""
			if b, err := os.ReadFile(filepath.Join(r.dir, ".ralph-gate.yml")); err == nil {
				cfg = string(b)
			}
			r.write(".ralph-gate.yml", cfg+"mutation:\n  budget: 1ns\n  jobs: 1\n")
			tight := r.commit("a tight budget")
			r.write(l.code, l.fix)
			r.write(l.testFile, l.pinning)
			r.commit("discount again")
			res = runGate(t, r.dir, "", "compare", "--mutation", tight, "HEAD")
			if res.code != 0 || !strings.Contains(res.stdout, "the budget of 1ns ran out: 1 of 2 mutants did not run (mutation.budget)") || !strings.Contains(res.stdout, "1 not run") {
				t.Errorf("budget 1ns: exit %d, want the budget's line\n%s\n%s", res.code, res.stdout, res.stderr)
			}
		})
	}
}
