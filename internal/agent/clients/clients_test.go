package clients

import (
	"strings"
	"testing"
)

func TestForCommand(t *testing.T) {
	for cmd, want := range map[string]string{
		"claude -p --output-format stream-json": "claude",
		"/usr/local/bin/claude -p":              "claude",
		"FOO=1 env -i claude -p":                "claude",
		"npx @anthropic-ai/claude-code -p":      "claude",
		"'/opt/my tools/claude' -p":             "",
		"./my-agent.sh --model claude":          "",
		"python3 agent.py":                      "",
		"":                                      "",
	} {
		got := ""
		if c := ForCommand(cmd); c != nil {
			got = c.Name()
		}
		if got != want {
			t.Errorf("ForCommand(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, name := range Names() {
		c, err := Lookup(name)
		if err != nil || c.Name() != name {
			t.Errorf("Lookup(%q) = %v, %v", name, c, err)
		}
	}
	if _, err := Lookup("aider"); err == nil || !strings.Contains(err.Error(), `unknown agent client "aider"`) {
		t.Errorf("Lookup(aider): %v", err)
	}
}
