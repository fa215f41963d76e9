package aiwgschema

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// example returns a schema file's example as JSON.
func example(t *testing.T, file string, path ...string) map[string]any {
	t.Helper()
	data, err := files.ReadFile("schemas/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			v = x[0]
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s %v is not an object", file, path)
	}
	return m
}

func toJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSchemasOwnExamplesValidate(t *testing.T) {
	st := example(t, LoopState, "examples", "0")
	if err := Validate(toJSON(t, st), LoopState); err != nil {
		t.Errorf("loop-state.yaml's example: %v", err)
	}
	ana := example(t, IterationAnalyis, "examples", "multi_loop_analytics")
	if err := ValidateAnalytics(toJSON(t, ana)); err != nil {
		t.Errorf("iteration-analytics.yaml's example: %v", err)
	}
}

func TestBrokenDocumentsAreRejected(t *testing.T) {
	good := func() map[string]any { return example(t, LoopState, "examples", "0") }
	tests := []struct {
		name   string
		doc    func() map[string]any
		check  func([]byte) error
		wantIn string
	}{
		{"status outside the enum", func() map[string]any { m := good(); m["status"] = "sleeping"; return m }, ValidateState, "/status"},
		{"bad loop id", func() map[string]any { m := good(); m["loop_id"] = "loop-1"; return m }, ValidateState, "/loop_id"},
		{"missing iteration", func() map[string]any { m := good(); delete(m, "iteration"); return m }, ValidateState, "iteration"},
		{"pid may be null", nil, nil, ""},
		{"timestamp not RFC 3339", func() map[string]any { m := good(); m["started_at"] = "yesterday"; return m }, ValidateState, "/started_at"},
		{"baseline without coverage", func() map[string]any {
			m := good()
			m["baseline_metrics"] = map[string]any{"captured_at": "2026-01-01T00:00:00Z", "test_count": 3}
			return m
		}, ValidateState, "coverage_percentage"},
		{"registry with five loops", func() map[string]any {
			entry := map[string]any{"loop_id": "ralph-a-1a2b3c4d", "task_summary": "t", "status": "running",
				"iteration": 0, "started_at": "2026-01-01T00:00:00Z"}
			return map[string]any{"version": "2.0.0", "max_concurrent_loops": 4, "updated_at": "2026-01-01T00:00:00Z",
				"total_active": 5, "active_loops": []any{entry, entry, entry, entry, entry}}
		}, ValidateRegistry, "/active_loops"},
	}
	for _, tt := range tests {
		if tt.doc == nil {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check(toJSON(t, tt.doc()))
			if err == nil || !strings.Contains(err.Error(), tt.wantIn) {
				t.Errorf("error = %v, want one naming %q", err, tt.wantIn)
			}
		})
	}
	t.Run("nullable fields accept null", func(t *testing.T) {
		m := good()
		m["pid"], m["completed_at"], m["last_checkpoint"], m["error_context"] = nil, nil, nil, nil
		m["best_iteration"], m["regression_events"] = nil, []any{map[string]any{
			"timestamp": "2026-01-01T00:00:00Z", "iteration": 1, "regression_type": "test_deletion",
			"severity": "critical", "recovery_outcome": nil, "human_decision": nil}}
		if err := ValidateState(toJSON(t, m)); err != nil {
			t.Errorf("nulls where the schema says nullable: %v", err)
		}
		m["regression_events"].([]any)[0].(map[string]any)["human_decision"] = "maybe"
		if err := ValidateState(toJSON(t, m)); err == nil {
			t.Error("a human_decision outside the enum passed")
		}
	})
}
