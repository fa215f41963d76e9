package claude

import (
	"errors"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

func str(s string) *string { return &s }

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name    string
		cur     string
		existed bool
		edits   []EditInput
		want    string
		fails   bool
	}{
		{name: "once", cur: "a b c", existed: true, edits: []EditInput{{OldString: str("b"), NewString: str("B")}}, want: "a B c"},
		{name: "twice without replace_all", cur: "b b", existed: true, edits: []EditInput{{OldString: str("b"), NewString: str("B")}}, fails: true},
		{name: "replace_all", cur: "b b", existed: true, edits: []EditInput{{OldString: str("b"), NewString: str("B"), ReplaceAll: true}}, want: "B B"},
		{name: "missing", cur: "a", existed: true, edits: []EditInput{{OldString: str("x"), NewString: str("y")}}, fails: true},
		{name: "no change", cur: "a", existed: true, edits: []EditInput{{OldString: str("a"), NewString: str("a")}}, fails: true},
		{name: "create", edits: []EditInput{{OldString: str(""), NewString: str("new")}}, want: "new"},
		{name: "empty old on a full file", cur: "x", existed: true, edits: []EditInput{{OldString: str(""), NewString: str("new")}}, fails: true},
		{name: "in order", cur: "a", existed: true, edits: []EditInput{{OldString: str("a"), NewString: str("b")}, {OldString: str("b"), NewString: str("c")}}, want: "c"},
		{name: "all or none", cur: "a", existed: true, edits: []EditInput{{OldString: str("a"), NewString: str("b")}, {OldString: str("z"), NewString: str("c")}}, fails: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ApplyEdits([]byte(tc.cur), tc.existed, tc.edits)
			if tc.fails {
				if !errors.Is(err, agent.ErrNoChange) {
					t.Fatalf("got %q, %v; want the tool to fail", got, err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
