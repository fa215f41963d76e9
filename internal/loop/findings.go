package loop

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// approve marks findings a human approved earlier as suppressed.
func approve(st *state.State, fs []gate.Finding) {
	if len(st.RalphGate.Approved) == 0 {
		return
	}
	ok := set(st.RalphGate.Approved)
	for i := range fs {
		if fs[i].Suppressed == "" && ok[fs[i].ID] {
			fs[i].Suppressed = "approved by a human at the loop's gate"
		}
	}
}

func unsuppressed(fs []gate.Finding) []gate.Finding {
	var out []gate.Finding
	for _, f := range fs {
		if f.Suppressed == "" && f.Net {
			out = append(out, f)
		}
	}
	return out
}

// mergeFindings unions two finding lists by id, the iteration's own first.
func mergeFindings(cumulative, iteration []gate.Finding, head string) []gate.Finding {
	seen := map[string]bool{}
	var out []gate.Finding
	for _, list := range [][]gate.Finding{iteration, cumulative} {
		for _, f := range list {
			if seen[f.ID] {
				continue
			}
			seen[f.ID] = true
			if f.Commit == "" {
				f.Commit = head
			}
			out = append(out, f)
		}
	}
	analyze.Sort(out)
	return out
}

func dedupe(fs []gate.Finding) []gate.Finding {
	seen := map[string]bool{}
	var out []gate.Finding
	for _, f := range fs {
		if !seen[f.ID] {
			seen[f.ID] = true
			out = append(out, f)
		}
	}
	return out
}

// blocking returns why the new findings need a human: a critical finding or
// a test deletion.
func blocking(fs []gate.Finding) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range fs {
		var r string
		switch {
		case f.Severity == gate.SeverityCritical:
			r = fmt.Sprintf("critical %s", f.Type)
		case f.Type == gate.TestDeletion:
			r = "test_deletion"
		}
		if r != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

func triggerOf(fs []gate.Finding) string {
	types := map[string]bool{}
	for _, f := range fs {
		types[string(f.Type)] = true
	}
	var ts []string
	for t := range types {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	if len(ts) == 0 {
		return "regression_detected"
	}
	return "regression_detected: " + strings.Join(ts, ", ")
}
