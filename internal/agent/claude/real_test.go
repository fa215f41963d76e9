package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// TestRealPayloads decodes the payloads recorded from Claude Code 2.1.332
// (testdata/real/README.md) into the neutral calls the guard judges.
func TestRealPayloads(t *testing.T) {
	type want struct {
		event   agent.Event
		tool    string
		reads   []string
		changes []string
		command string
		active  bool
	}
	tests := map[string]want{
		"pre-read-seal-key": {event: agent.PreToolUse, tool: "Read", reads: []string{"@HOME@/cfg/loop-seal.key"}},
		"pre-bash-cat":      {event: agent.PreToolUse, tool: "Bash", command: "cat @HOME@/cfg/loop-seal.key"},
		"pre-edit-weaken":   {event: agent.PreToolUse, tool: "Edit", changes: []string{"@ROOT@/calc_test.go"}},
		"pre-write-delete":  {event: agent.PreToolUse, tool: "Write", changes: []string{"@ROOT@/calc_test.go"}},
		"pre-toolsearch":    {event: agent.PreToolUse, tool: "ToolSearch"},
		"pre-notebookedit":  {event: agent.PreToolUse, tool: "NotebookEdit", changes: []string{"@ROOT@/analysis.ipynb"}},
		"pre-agent":         {event: agent.PreToolUse, tool: "Agent"},
		"pre-edit-subagent": {event: agent.PreToolUse, tool: "Edit", changes: []string{"@ROOT@/calc_test.go"}},
		"post-read":         {event: agent.PostToolUse, tool: "Read", reads: []string{"@ROOT@/analysis.ipynb"}},
		"post-notebookedit": {event: agent.PostToolUse, tool: "NotebookEdit", changes: []string{"@ROOT@/analysis.ipynb"}},
		"post-agent":        {event: agent.PostToolUse, tool: "Agent"},
		"post-edit":         {event: agent.PostToolUse, tool: "Edit", changes: []string{"@ROOT@/calc.go"}},
		"stop-first":        {event: agent.Stop},
		"stop-active":       {event: agent.Stop, active: true},
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "real", "*.json"))
	if len(files) != len(tests) {
		t.Errorf("%d recorded payloads, %d expected", len(files), len(tests))
	}
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "real", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			c, err := Client{}.Decode(w.event, data)
			if err != nil {
				t.Fatal(err)
			}
			var changes []string
			for _, ch := range c.Changes {
				changes = append(changes, ch.Path)
			}
			command := ""
			if c.Command != nil {
				command = *c.Command
			}
			got := want{event: c.Event, tool: c.Tool, reads: c.Reads, changes: changes, command: command, active: c.StopActive}
			if d := cmp.Diff(w, got, cmp.AllowUnexported(want{})); d != "" {
				t.Errorf("call (-want +got):\n%s", d)
			}
			if c.Cwd != "@ROOT@" || c.SessionID == "" {
				t.Errorf("cwd %q session %q", c.Cwd, c.SessionID)
			}
		})
	}
	// The NotebookEdit's change is the notebook with its cell replaced.
	data, _ := os.ReadFile(filepath.Join("testdata", "real", "pre-notebookedit.json"))
	c, err := Client{}.Decode(agent.PreToolUse, data)
	if err != nil {
		t.Fatal(err)
	}
	nb := `{"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":"print(1)","outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}`
	out, err := c.Changes[0].Apply([]byte(nb), true)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Source string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Cells) != 1 || doc.Cells[0].Source != "print(2)" {
		t.Errorf("notebook after the edit: %s (%v)", out, err)
	}
	if !strings.Contains(string(out), `"nbformat": 4`) {
		t.Errorf("the notebook lost its other keys: %s", out)
	}
}
