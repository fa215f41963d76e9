//go:build unix

package loop

import (
	"errors"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// TestMarkFalsePositive: a finding a human marks as a false alarm is
// counted as one, never blocks again, and marking it twice changes nothing.
func TestMarkFalsePositive(t *testing.T) {
	t.Parallel()
	r, e, snap, out := blockedIteration(t)
	s := snap.State
	var del gate.Finding
	for _, f := range out.Iteration.Findings {
		if f.Type == gate.TestDeletion {
			del = f
		}
	}
	if del.ID == "" {
		t.Fatalf("no deletion finding in %+v", out.Iteration.Findings)
	}
	var in *InputError
	if _, err := MarkFalsePositive(e, snap, del.ID, " "); !errors.As(err, &in) || !strings.Contains(err.Error(), "--by NAME") {
		t.Errorf("without a name: %v", err)
	}
	if _, err := MarkFalsePositive(e, snap, "RG-nothing", "me"); !errors.As(err, &in) || !strings.Contains(err.Error(), `no finding or regression event "RG-nothing"`) {
		t.Errorf("unknown id: %v", err)
	}
	// A regression event stands for its findings.
	marked, err := MarkFalsePositive(e, snap, s.RegressionEvents[0].EventID, "me")
	if err != nil {
		t.Fatal(err)
	}
	if len(marked) != 1 || marked[0].FindingID != del.ID || marked[0].By != "me" || marked[0].Iteration != 2 || marked[0].Type != string(gate.TestDeletion) {
		t.Fatalf("marked = %+v", marked)
	}
	pm := s.PersistenceMetrics
	if pm.FalsePositiveCount != 1 || pm.TruePositiveCount != 0 || pm.FalsePositiveRate == nil || *pm.FalsePositiveRate != 1 {
		t.Errorf("persistence metrics = %+v", pm)
	}
	if !s.DetectedPatterns[0].FalsePositive || len(s.RalphGate.Approved) != 1 || s.RalphGate.Approved[0] != del.ID {
		t.Errorf("patterns %+v, approved %v", s.DetectedPatterns, s.RalphGate.Approved)
	}
	if again, err := MarkFalsePositive(e, snap, del.ID, "you"); err != nil || again != nil {
		t.Errorf("marked twice: %+v, %v", again, err)
	}
	if hooks := hooksOf(t, e, s.LoopID); !strings.HasSuffix(hooks, "false_positive") {
		t.Errorf("hooks = %s", hooks)
	}
	// The gate is still a human's to answer; once approved, the marked
	// finding does not block the next iteration.
	if _, err := Approve(e, snap, ""); err != nil {
		t.Fatal(err)
	}
	r.write("more.txt", "x\n")
	r.commit("iteration 3")
	if out := r.record(e, snap); out.Decision != Continue {
		t.Errorf("iteration 3: %s", out.Reason)
	}
	if re := r.load(e, s.LoopID).State; len(re.RalphGate.FalsePositives) != 1 {
		t.Errorf("saved false positives = %+v", re.RalphGate.FalsePositives)
	}
}

// TestUpdatePersistence: latency over records and denied tool calls,
// the gate's time against the agent's, and true and false positives.
func TestUpdatePersistence(t *testing.T) {
	t.Parallel()
	st := loopWith(50, 60)
	st.RalphGate.DetectionLatencyMS = []int{100, 300}
	st.IterationHistory[0].Agent, st.IterationHistory[0].GateMS = &state.AgentRun{DurationMS: 1000}, 250
	st.IterationHistory[1].Agent, st.IterationHistory[1].GateMS = &state.AgentRun{DurationMS: 0}, 99 // no agent time: left out
	st.DetectedPatterns = []state.Pattern{{FindingID: "a"}, {FindingID: "b"}, {FindingID: "c"}}
	st.RalphGate.FalsePositives = []state.FalsePositive{{FindingID: "b"}}
	UpdatePersistence(st, SummarizeToolCalls([]state.ToolCall{{Event: state.EventDenied, LatencyMS: 500}}))
	pm := st.PersistenceMetrics
	if pm.DetectionLatencyP95MS != 500 || pm.DetectionLatencyP99MS != 500 || pm.IntegrationOverheadPct == nil || *pm.IntegrationOverheadPct != 25 ||
		pm.TruePositiveCount != 3 || pm.FalsePositiveCount != 1 || pm.FalsePositiveRate == nil || *pm.FalsePositiveRate != 0.25 {
		t.Errorf("persistence metrics = %+v", pm)
	}
	empty := &state.State{}
	UpdatePersistence(empty, ToolCallSummary{})
	if pm := empty.PersistenceMetrics; pm.IntegrationOverheadPct != nil || pm.FalsePositiveRate != nil || pm.DetectionLatencyP95MS != 0 {
		t.Errorf("nothing measured = %+v", pm)
	}
}
