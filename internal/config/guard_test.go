package config

import (
	"strings"
	"testing"
)

func TestGuardMaxStopBlocks(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       int
		err        string
	}{
		{name: "absent", yaml: "fail_on: high\n", want: DefaultMaxStopBlocks},
		{name: "set", yaml: "guard:\n  max_stop_blocks: 5\n", want: 5},
		{name: "zero", yaml: "guard:\n  max_stop_blocks: 0\n", want: 0},
		{name: "empty section", yaml: "guard:\n", want: DefaultMaxStopBlocks},
		{name: "negative", yaml: "guard:\n  max_stop_blocks: -1\n", err: "line 2: guard: max_stop_blocks must be between 0 and 100, not -1"},
		{name: "not a number", yaml: "guard:\n  max_stop_blocks: many\n", err: `line 2: guard: max_stop_blocks: want a whole number, not "many"`},
		{name: "unknown key", yaml: "guard:\n  max_stops: 2\n", err: `line 2: guard: unknown key "max_stops"`},
		{name: "not a mapping", yaml: "guard: 3\n", err: "line 1: guard: want a mapping"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse(".ralph-gate.yml", []byte(tc.yaml))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("Parse: got error %v, want one line containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Guard.StopBlocks(); got != tc.want {
				t.Errorf("StopBlocks() = %d, want %d", got, tc.want)
			}
		})
	}
}
