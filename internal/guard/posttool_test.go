package guard

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/loop"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

func TestClassify(t *testing.T) {
	root := newTree(t)
	ws := NewWorkspace(root, filepath.Join(root, ".git"), root, nil)
	tests := []struct {
		tool  string
		input any
		risk  string
	}{
		{"Write", map[string]any{"file_path": filepath.Join(root, "pkg", "calc_test.go"), "content": ""}, "test_file_modification"},
		{"Edit", map[string]any{"file_path": "test/fixtures/data.json", "old_string": "a", "new_string": "b"}, "test_file_modification"},
		{"Write", map[string]any{"file_path": "web/x.test.js", "content": ""}, "test_file_modification"},
		{"Write", map[string]any{"file_path": "pkg/calc.go", "content": ""}, ""},
		{"Bash", map[string]any{"command": "rm -rf build"}, "bulk_deletion"},
		{"Bash", map[string]any{"command": "rm -r -f build"}, "bulk_deletion"},
		{"Bash", map[string]any{"command": "sudo rm -fR /tmp/x"}, "bulk_deletion"},
		// Wrappers, as shellwrap reads them everywhere: assignments,
		// options with values, timeout's duration.
		{"Bash", map[string]any{"command": "env CI=1 rm -rf build"}, "bulk_deletion"},
		{"Bash", map[string]any{"command": "sudo -u ci nice -n 5 rm -rf build"}, "bulk_deletion"},
		{"Bash", map[string]any{"command": "timeout 5 rm -rf build"}, "bulk_deletion"},
		{"Bash", map[string]any{"command": "rm -r build"}, ""},
		{"Bash", map[string]any{"command": "git -C . rm old.go"}, "version_control_deletion"},
		{"Bash", map[string]any{"command": "echo 'rm -rf /'"}, ""},
		{"Bash", map[string]any{"command": "go test ./..."}, ""},
	}
	for _, tc := range tests {
		risk, _, _ := ws.Classify(payload(t, root, tc.tool, tc.input))
		if risk != tc.risk {
			t.Errorf("%s %v: risk %q, want %q", tc.tool, tc.input, risk, tc.risk)
		}
	}
}

func TestRecord(t *testing.T) {
	root := newTree(t)
	ws := NewWorkspace(root, filepath.Join(root, ".git"), root, nil)
	store := state.NewStore(root)
	st := &state.State{LoopID: "ralph-x-12345678", Iteration: 2}
	p := payload(t, root, "Bash", map[string]any{"command": "rm -rf build"})
	p.SessionID = "s1"
	if err := Record(store, st, ws, p, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	calls, err := store.ToolCalls(st.LoopID)
	if err != nil || len(calls) != 1 {
		t.Fatalf("calls %+v, %v", calls, err)
	}
	c := calls[0]
	if c.Tool != "Bash" || c.Command != "rm -rf build" || !c.Risky || c.Risk != "bulk_deletion" || c.SessionID != "s1" || c.Iteration != 3 {
		t.Errorf("got %+v", c)
	}
	sum := loop.SummarizeToolCalls(calls)
	if sum.Total != 1 || sum.ByTool["Bash"] != 1 || len(sum.Risky) != 1 {
		t.Errorf("summary %+v", sum)
	}
}
