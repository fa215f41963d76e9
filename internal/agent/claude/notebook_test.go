package claude

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

func TestNotebookEdit(t *testing.T) {
	nb := `{"cells":[{"cell_type":"code","id":"a","source":"one"},{"cell_type":"markdown","id":"b","source":"two"}],"nbformat":4}`
	src := func(s string) *string { return &s }
	tests := []struct {
		name string
		in   NotebookEditInput
		want []string // the cells' sources after the edit; nil: the tool fails
	}{
		{"replace by id", NotebookEditInput{CellID: "b", NewSource: src("TWO"), EditMode: "replace"}, []string{"one", "TWO"}},
		{"replace by index", NotebookEditInput{CellID: "cell-0", NewSource: src("ONE")}, []string{"ONE", "two"}},
		{"insert after", NotebookEditInput{CellID: "a", NewSource: src("new"), EditMode: "insert"}, []string{"one", "new", "two"}},
		{"insert at the top", NotebookEditInput{NewSource: src("new"), EditMode: "insert", CellType: "markdown"}, []string{"new", "one", "two"}},
		{"delete", NotebookEditInput{CellID: "a", EditMode: "delete"}, []string{"two"}},
		{"missing cell", NotebookEditInput{CellID: "zz", NewSource: src("x")}, nil},
		{"replace without a cell", NotebookEditInput{NewSource: src("x")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.in.apply([]byte(nb), true)
			if tc.want == nil {
				if !errors.Is(err, agent.ErrNoChange) {
					t.Fatalf("got %s, %v; want the tool to fail", out, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Cells []struct{ Source string } `json:"cells"`
			}
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range doc.Cells {
				got = append(got, c.Source)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("cells (-want +got):\n%s", d)
			}
		})
	}
	for name, cur := range map[string]string{"not json": "{", "no cells": `{"cells": 3}`} {
		if _, err := (&NotebookEditInput{CellID: "a", NewSource: src("x")}).apply([]byte(cur), true); !errors.Is(err, agent.ErrNoChange) {
			t.Errorf("%s: %v, want the tool to fail", name, err)
		}
	}
	if _, err := (&NotebookEditInput{NewSource: src("x"), EditMode: "insert"}).apply(nil, false); !errors.Is(err, agent.ErrNoChange) {
		t.Errorf("a notebook that does not exist: %v", err)
	}
}

func TestEncode(t *testing.T) {
	tests := []struct {
		event agent.Event
		a     agent.Answer
		want  string
	}{
		{agent.PreToolUse, agent.Answer{}, ""},
		{agent.PreToolUse, agent.Answer{Deny: "no"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n"},
		{agent.Stop, agent.Answer{Block: "go on"}, `{"decision":"block","reason":"go on"}` + "\n"},
		{agent.PostToolUse, agent.Answer{Block: "you broke it", Warn: "config"}, `{"decision":"block","reason":"you broke it","systemMessage":"config"}` + "\n"},
		{agent.PreToolUse, agent.Answer{Warn: "config"}, `{"systemMessage":"config"}` + "\n"},
	}
	for _, tc := range tests {
		got, err := Client{}.Encode(tc.event, tc.a)
		if err != nil || string(got) != tc.want {
			t.Errorf("Encode(%s, %+v) = %s, %v; want %s", tc.event, tc.a, got, err, tc.want)
		}
	}
	if _, err := (Client{}).Encode(agent.Stop, agent.Answer{Deny: "x"}); err == nil {
		t.Error("a denial of a stop encoded without an error")
	}
}
