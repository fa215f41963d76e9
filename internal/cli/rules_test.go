package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

var updateRulesPage = flag.Bool("update", false, "rewrite docs/rules.md from the rule catalogue")

func runRulesCmd(t *testing.T, args ...string) (stdout string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = Run(context.Background(), append([]string{"rules"}, args...), Env{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }})
	return out.String(), err
}

// TestRulesPageIsCurrent keeps docs/rules.md the catalogue's page: run with
// -update after changing a rule.
func TestRulesPageIsCurrent(t *testing.T) {
	page := filepath.Join("..", "..", "docs", "rules.md")
	got, err := runRulesCmd(t, "--format", "markdown")
	if err != nil {
		t.Fatal(err)
	}
	if *updateRulesPage {
		if err := os.WriteFile(page, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("docs/rules.md is stale (go test ./internal/cli -run TestRulesPageIsCurrent -update) (-page +catalogue):\n%s", diff)
	}
}

func TestRulesText(t *testing.T) {
	out, err := runRulesCmd(t)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	rules := gate.Rules()
	if len(lines) != len(rules) {
		t.Fatalf("%d lines for %d rules:\n%s", len(lines), len(rules), out)
	}
	for i, r := range rules {
		f := strings.Fields(lines[i])
		if len(f) < 5 || f[0] != r.Name() || f[1] != string(r.Type) || f[2] != r.Severity.String() || f[3] != r.Pattern || !strings.HasSuffix(lines[i], "  "+r.Doc) {
			t.Errorf("line %d = %q, want %s %s %s %s ... %s", i, lines[i], r.Name(), r.Type, r.Severity, r.Pattern, r.Doc)
		}
	}
	for _, want := range []string{
		"suppression-<kind>",
		"LP-010 (LP-009 if critical)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestRulesJSON(t *testing.T) {
	out, err := runRulesCmd(t, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	rules := gate.Rules()
	if len(got) != len(rules) {
		t.Fatalf("%d entries for %d rules", len(got), len(rules))
	}
	first := got[0]
	want := map[string]any{"id": rules[0].ID, "type": string(rules[0].Type), "severity": rules[0].Severity.String(),
		"pattern": rules[0].Pattern, "doc": rules[0].Doc}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("first entry (-want +got):\n%s", diff)
	}
	for _, e := range got {
		switch e["id"] {
		case gate.RuleSuppression.ID:
			if e["family"] != true {
				t.Errorf("suppression- is not marked a family: %v", e)
			}
		case gate.RuleCoverageDropped.ID:
			if e["pattern_at_critical"] != "LP-009" {
				t.Errorf("coverage-dropped: %v", e)
			}
		}
	}
}

func TestRulesUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "yaml"}, `rules: --format: want text, json or markdown (got "yaml")`},
		{[]string{"--no-such-flag"}, "rules: flag provided but not defined: -no-such-flag (run 'ralph-gate help rules')"},
		{[]string{"extra"}, `rules takes no arguments, got "extra" (run 'ralph-gate help rules')`},
	} {
		out, err := runRulesCmd(t, tc.args...)
		if ExitCode(err) != ExitUsage || err.Error() != tc.want || out != "" {
			t.Errorf("rules %v: exit %d, %v, stdout %q; want exit %d, %q", tc.args, ExitCode(err), err, out, ExitUsage, tc.want)
		}
	}
}
