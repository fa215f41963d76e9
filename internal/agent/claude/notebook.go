package claude

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// apply is the notebook a NotebookEdit leaves behind: the cell named by
// cell_id (its "id", or "cell-N" for the N-th cell) replaced or deleted, or
// a new cell inserted after it (at the top without a cell_id). Claude Code
// refuses an edit of a notebook that does not exist or does not parse, and
// of a cell it cannot find: those change nothing (agent.ErrNoChange).
func (in *NotebookEditInput) apply(cur []byte, existed bool) ([]byte, error) {
	if !existed {
		return nil, agent.ErrNoChange
	}
	var nb map[string]json.RawMessage
	if err := json.Unmarshal(cur, &nb); err != nil {
		return nil, agent.ErrNoChange
	}
	var cells []map[string]json.RawMessage
	if err := json.Unmarshal(nb["cells"], &cells); err != nil {
		return nil, agent.ErrNoChange
	}
	at := -1
	if in.CellID != "" {
		at = findCell(cells, in.CellID)
		if at < 0 {
			return nil, agent.ErrNoChange
		}
	}
	source := ""
	if in.NewSource != nil {
		source = *in.NewSource
	}
	switch in.EditMode {
	case "delete":
		if at < 0 {
			return nil, agent.ErrNoChange
		}
		cells = append(cells[:at:at], cells[at+1:]...)
	case "insert":
		typ := in.CellType
		if typ == "" {
			typ = "code"
		}
		cell := map[string]json.RawMessage{"cell_type": mustRaw(typ), "metadata": json.RawMessage("{}"), "source": mustRaw(source)}
		if typ == "code" {
			cell["outputs"], cell["execution_count"] = json.RawMessage("[]"), json.RawMessage("null")
		}
		cells = append(cells[:at+1:at+1], append([]map[string]json.RawMessage{cell}, cells[at+1:]...)...)
	case "", "replace":
		if at < 0 {
			return nil, agent.ErrNoChange
		}
		cells[at]["source"] = mustRaw(source)
		if in.CellType != "" {
			cells[at]["cell_type"] = mustRaw(in.CellType)
		}
	default:
		return nil, fmt.Errorf("hook input: tool_input of NotebookEdit: edit_mode %q", in.EditMode)
	}
	raw, err := json.Marshal(cells)
	if err != nil {
		return nil, err
	}
	nb["cells"] = raw
	return json.MarshalIndent(nb, "", " ")
}

// findCell returns the index of the cell with id, or of "cell-N".
func findCell(cells []map[string]json.RawMessage, id string) int {
	for i, c := range cells {
		var cid string
		if json.Unmarshal(c["id"], &cid) == nil && cid == id {
			return i
		}
	}
	if n, ok := strings.CutPrefix(id, "cell-"); ok {
		if i, err := strconv.Atoi(n); err == nil && i >= 0 && i < len(cells) {
			return i
		}
	}
	return -1
}

func mustRaw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
