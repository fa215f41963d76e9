package agent_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
)

func scanUsage(t *testing.T, data []byte, chunk int) *agent.Usage {
	t.Helper()
	s := agent.UsageScanner{Clients: clients.All}
	for len(data) > 0 {
		n := min(chunk, len(data))
		if _, err := s.Write(data[:n]); err != nil {
			t.Fatal(err)
		}
		data = data[n:]
	}
	return s.Usage()
}

// TestUsageScanner reads the usage lines of Claude's stream-json and Codex's
// exec --json (testdata/usage, with where their shapes come from), written
// whole or in pieces that split lines anywhere.
func TestUsageScanner(t *testing.T) {
	claude, err := os.ReadFile("testdata/usage/claude-stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	codex, err := os.ReadFile("testdata/usage/codex-exec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{1, 7, 4096, 1 << 20} {
		u := scanUsage(t, claude, chunk)
		if u == nil || u.Source != "claude" || u.TotalTokens != 15846 || u.CostUSD == nil || *u.CostUSD != 0.0421 || u.Lines != 1 {
			t.Fatalf("claude, chunks of %d: %+v", chunk, u)
		}
		if u.InputTokens != 12 || u.OutputTokens != 164 || u.CacheReadTokens != 10240 || u.CacheCreationTokens != 5430 {
			t.Errorf("claude parts: %+v", u)
		}
		u = scanUsage(t, codex, chunk)
		if u == nil || u.Source != "codex" || u.TotalTokens != 26115 || u.CostUSD != nil || u.Lines != 2 || u.CachedInputTokens != 25472 {
			t.Fatalf("codex, chunks of %d: %+v", chunk, u)
		}
	}
	// Both in one output: tokens add up, and the cost is unknown because
	// Codex's part has none.
	u := scanUsage(t, append(append([]byte{}, claude...), codex...), 64)
	if u.Source != "claude+codex" || u.TotalTokens != 15846+26115 || u.CostUSD != nil {
		t.Errorf("both: %+v", u)
	}
	// Two Claude sessions in one iteration: costs add up.
	u = scanUsage(t, append(append([]byte{}, claude...), claude...), 100)
	if u.TotalTokens != 2*15846 || u.CostUSD == nil || *u.CostUSD != 0.0842 {
		t.Errorf("two sessions: %+v", u)
	}
}

func TestUsageScannerNothing(t *testing.T) {
	for name, out := range map[string]string{
		"empty":           "",
		"plain text":      "I fixed the bug.\nDone.\n",
		"text of a line":  `echo {"type":"result","usage":{"input_tokens":5}}` + "\n",
		"no usage":        `{"type":"result","subtype":"success","total_cost_usd":0.5}` + "\n",
		"negative tokens": `{"type":"turn.completed","usage":{"input_tokens":-5,"output_tokens":1}}` + "\n",
		"other type":      `{"type":"turn.failed","usage":{"input_tokens":5,"output_tokens":1}}` + "\n",
		"broken json":     `{"type":"result","usage":{"input_tokens":5` + "\n",
		"absurd count":    `{"type":"turn.completed","usage":{"input_tokens":9223372036854775807,"output_tokens":1}}` + "\n",
	} {
		if u := scanUsage(t, []byte(out), 3); u != nil {
			t.Errorf("%s: usage %+v, want none (unknown)", name, u)
		}
	}
	// A last line without its newline still counts.
	if u := scanUsage(t, []byte(`{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":1}}`), 10); u == nil || u.TotalTokens != 6 {
		t.Errorf("last line without newline: %+v", u)
	}
	// A result without a cost makes the cost unknown.
	out := `{"type":"result","total_cost_usd":0.1,"usage":{"input_tokens":5,"output_tokens":1}}` + "\n" +
		`{"type":"result","usage":{"input_tokens":5,"output_tokens":1}}` + "\n"
	if u := scanUsage(t, []byte(out), 10); u == nil || u.CostUSD != nil || u.TotalTokens != 12 {
		t.Errorf("a result without cost: %+v", u)
	}
}

// TestUsageScannerLongLine: a line too long to keep is skipped and marks
// the usage incomplete; the lines after it are still read.
func TestUsageScannerLongLine(t *testing.T) {
	s := agent.UsageScanner{Clients: clients.All}
	long := bytes.Repeat([]byte("x"), 1<<20)
	for i := 0; i < 40; i++ {
		s.Write(long)
	}
	s.Write([]byte("\n" + `{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":1}}` + "\n"))
	if !s.Incomplete {
		t.Error("a 40 MB line did not mark the usage incomplete")
	}
	if u := s.Usage(); u == nil || u.TotalTokens != 6 {
		t.Errorf("usage after the long line: %+v", u)
	}
}

func FuzzUsageScanner(f *testing.F) {
	for _, name := range []string{"testdata/usage/claude-stream.jsonl", "testdata/usage/codex-exec.jsonl"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, 5)
		}
	}
	f.Add([]byte(`{"type":"result","total_cost_usd":1e308,"usage":{"input_tokens":9223372036854775807,"output_tokens":1}}`), 1)
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		if chunk <= 0 || chunk > len(data)+1 {
			chunk = len(data) + 1
		}
		whole := scanUsage(t, data, len(data)+1)
		split := scanUsage(t, data, chunk)
		if (whole == nil) != (split == nil) || whole != nil && (whole.TotalTokens != split.TotalTokens || whole.Lines != split.Lines) {
			t.Fatalf("whole %+v, in chunks of %d %+v", whole, chunk, split)
		}
		if whole != nil && (whole.InputTokens < 0 || whole.OutputTokens < 0 || whole.TotalTokens < 0) {
			t.Fatalf("negative tokens: %+v", whole)
		}
	})
}

// TestUsageRealClaude reads the stream-json of a real Claude Code 2.1.332
// run (testdata/usage/README.md): one result line, with the cost Claude
// Code computed.
func TestUsageRealClaude(t *testing.T) {
	data, err := os.ReadFile("testdata/usage/claude-2.1.332-stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	u := scanUsage(t, data, 4096)
	if u == nil || u.Source != "claude" || u.InputTokens != 2000 || u.OutputTokens != 400 || u.TotalTokens != 2400 || u.Lines != 1 || u.CostUSD == nil || *u.CostUSD != 0.0176 {
		t.Errorf("usage %+v", u)
	}
}

// TestAddCost keeps the decimals the agent reported: no float noise.
func TestAddCost(t *testing.T) {
	for _, tc := range []struct{ a, b, want float64 }{
		{0.0016, 0.0164, 0.018},
		{0.1, 0.2, 0.3},
		{0.042, 0.042, 0.084},
		{1, 0.000001, 1.000001},
		{0, 0.5, 0.5},
	} {
		if got := agent.AddCost(tc.a, tc.b); got != tc.want {
			t.Errorf("AddCost(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	// Summed over lines: two sessions of 0.0016 and 0.0164.
	out := `{"type":"result","total_cost_usd":0.0016,"usage":{"input_tokens":1,"output_tokens":1}}` + "\n" +
		`{"type":"result","total_cost_usd":0.0164,"usage":{"input_tokens":1,"output_tokens":1}}` + "\n"
	if u := scanUsage(t, []byte(out), 7); u == nil || u.CostUSD == nil || *u.CostUSD != 0.018 {
		t.Errorf("summed cost: %+v", u)
	}
}
