package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionYAML holds the part of action.yml the checks below read.
type actionYAML struct {
	Inputs  map[string]struct{ Default string } `yaml:"inputs"`
	Outputs map[string]struct{ Value string }   `yaml:"outputs"`
	Runs    struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID  string            `yaml:"id"`
			Env map[string]string `yaml:"env"`
			Run string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// TestActionYAMLMatchesTheCommand: every input of action.yml reaches the step
// that reads it under the name the runner would give it (INPUT_FAIL-ON), and
// every output comes from the gate step's outputs.
func TestActionYAMLMatchesTheCommand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionYAML
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) != 2 {
		t.Fatalf("runs = %+v, want a composite action of two steps", a.Runs)
	}
	install, gate := a.Runs.Steps[0], a.Runs.Steps[1]
	// exec: the step's shell must not outlive the exec holding the token
	// in its environment (SECURITY.md).
	if gate.ID != "gate" || strings.TrimSpace(gate.Run) != "exec ralph-gate action" {
		t.Errorf("second step = %+v, want id gate running 'exec ralph-gate action'", gate)
	}
	installInputs := map[string]string{"version": "RG_VERSION", "install": "RG_INSTALL"}
	for name := range a.Inputs {
		want := "${{ inputs." + name + " }}"
		if env, ok := installInputs[name]; ok {
			if install.Env[env] != want {
				t.Errorf("install step: %s = %q, want %q", env, install.Env[env], want)
			}
			continue
		}
		key := "INPUT_" + strings.ToUpper(name)
		if gate.Env[key] != want {
			t.Errorf("gate step: %s = %q, want %q", key, gate.Env[key], want)
		}
		if !strings.Contains(actionHelp, name) {
			t.Errorf("help does not name the input %s", name)
		}
	}
	for key := range gate.Env {
		if _, ok := a.Inputs[strings.ToLower(strings.TrimPrefix(key, "INPUT_"))]; !ok {
			t.Errorf("gate step sets %s, which is no input", key)
		}
	}
	var outputs []string
	for name, o := range a.Outputs {
		outputs = append(outputs, name)
		if o.Value != "${{ steps.gate.outputs."+name+" }}" {
			t.Errorf("output %s = %q", name, o.Value)
		}
	}
	slices.Sort(outputs)
	if want := []string{"approved", "findings", "report", "sarif", "verdict"}; !slices.Equal(outputs, want) {
		t.Errorf("outputs = %v, want %v", outputs, want)
	}
	if a.Inputs["approve-label"].Default != "ralph-gate/approved" || a.Inputs["token"].Default != "${{ github.token }}" {
		t.Errorf("defaults: approve-label %q, token %q", a.Inputs["approve-label"].Default, a.Inputs["token"].Default)
	}
}

func TestActionUsage(t *testing.T) {
	var out bytes.Buffer
	env := Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
	err := Run(context.Background(), []string{"action", "extra"}, env)
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "takes no arguments") {
		t.Errorf("extra argument: %v", err)
	}
	out.Reset()
	if err := Run(context.Background(), []string{"help", "action"}, env); err != nil || !strings.Contains(out.String(), "INPUT_FAIL-ON") {
		t.Errorf("help action: %v\n%s", err, out.String())
	}
}
