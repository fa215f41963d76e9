package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

func TestJSONContract(t *testing.T) {
	out := render(t, JSON, fullReport(), Options{})
	if !bytes.HasSuffix(out, []byte("}\n")) {
		t.Errorf("no trailing newline: %q", out[max(0, len(out)-10):])
	}
	if !bytes.HasPrefix(out, []byte("{\n  \"schema\": \"ralph-gate/report/v1\",\n")) {
		t.Errorf("not 2-space indented or schema not first:\n%s", out[:min(len(out), 80)])
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"schema", "tool", "base", "head", "commits", "findings", "metrics", "verdict"} {
		if _, ok := doc[key]; !ok {
			t.Errorf("contract field %q missing", key)
		}
	}
	f := doc["findings"].([]any)[4].(map[string]any)
	want := map[string]any{
		"id": f["id"], "type": "coverage_regression", "severity": "high", "net": true,
		"message":        "Coverage fell from 81.25% to 78.50%, beyond the 0.5 point tolerance.",
		"baseline_value": 81.25, "current_value": 78.5, "evidence": "measured", "rule": "coverage-overall",
	}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("file-less finding (-want +got):\n%s", diff)
	}

	var back gate.Report
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fullReport(), &back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestJSONFillsContractDefaults(t *testing.T) {
	out := render(t, JSON, &gate.Report{FailOn: gate.SeverityHigh}, Options{})
	want := `{
  "schema": "ralph-gate/report/v1",
  "tool": {
    "name": "ralph-gate",
    "version": ""
  },
  "base": "",
  "head": "",
  "commits": [],
  "findings": [],
  "verdict": "pass",
  "fail_on": "high"
}
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestJSONDoesNotEscapeHTML(t *testing.T) {
	rep := warnReport()
	rep.Findings[0].Message = "toEqual -> toBeDefined & <nothing>"
	out := render(t, JSON, rep, Options{})
	if !bytes.Contains(out, []byte(`"toEqual -> toBeDefined & <nothing>"`)) {
		t.Errorf("message escaped:\n%s", out)
	}
}
