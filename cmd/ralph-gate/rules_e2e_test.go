package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRulesCommand: `ralph-gate rules` lists the catalogue, a line a rule,
// or a JSON array; a bad flag or format is a usage error in one line.
func TestRulesCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := runGate(t, dir, "", "rules")
	if res.code != 0 || !strings.Contains(res.stdout, "test-deleted ") || !strings.Contains(res.stdout, "suppression-<kind>") {
		t.Fatalf("rules: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	text := strings.Count(res.stdout, "\n")
	res = runGate(t, dir, "", "rules", "--format", "json")
	var rules []struct {
		ID, Type, Severity, Pattern, Doc string
	}
	if err := json.Unmarshal([]byte(res.stdout), &rules); res.code != 0 || err != nil {
		t.Fatalf("rules --format json: exit %d, %v\n%s", res.code, err, res.stdout)
	}
	if len(rules) != text {
		t.Errorf("json lists %d rules, text %d", len(rules), text)
	}
	for _, r := range rules {
		if r.ID == "" || r.Type == "" || r.Severity == "" || r.Pattern == "" || r.Doc == "" {
			t.Errorf("incomplete rule %+v", r)
		}
	}
	for _, args := range [][]string{{"rules", "--format", "yaml"}, {"rules", "--bogus"}, {"rules", "extra"}} {
		res := runGate(t, dir, "", args...)
		if res.code != 2 || res.stdout != "" || strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 || !strings.Contains(res.stderr, "rules") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, res.code, res.stdout, res.stderr)
		}
	}
}
