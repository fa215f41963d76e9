// Package codex is ralph-gate's adapter for OpenAI's Codex CLI
// (https://github.com/openai/codex): its preset, its hook payloads and
// answers, where its hooks go and how they are trusted, which of its files
// decide them, and the usage lines of `codex exec --json`.
package codex

import (
	"bytes"
	"encoding/json"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// Client is Codex.
type Client struct{}

// Name implements agent.Client.
func (Client) Name() string { return "codex" }

// Title implements agent.Client.
func (Client) Title() string { return "Codex" }

// ProjectDir implements agent.Client: Codex runs its hooks in the
// project's directory (the process's own), whatever the call's cwd, which
// follows a command's workdir anywhere; it names the project nowhere else.
func (Client) ProjectDir(func(string) string) string { return "" }

// Runs implements agent.Client.
func (Client) Runs(program string) bool { return program == "codex" }

// usageLine is the part of a `codex exec --json` turn.completed line the
// scanner reads:
//
//	{"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}}
type usageLine struct {
	Type  string `json:"type"`
	Usage *struct {
		InputTokens           int `json:"input_tokens"`
		CachedInputTokens     int `json:"cached_input_tokens"`
		CacheWriteInputTokens int `json:"cache_write_input_tokens"`
		OutputTokens          int `json:"output_tokens"`
		ReasoningOutputTokens int `json:"reasoning_output_tokens"`
	} `json:"usage"`
}

// ScanUsage implements agent.Client: a turn.completed line's usage. Codex
// reports no cost. Its input counts its cached input, and its output its
// reasoning, so the total is input + output.
func (Client) ScanUsage(line []byte) (agent.Usage, bool) {
	if !bytes.Contains(line, []byte(`"turn.completed"`)) {
		return agent.Usage{}, false
	}
	var l usageLine
	if json.Unmarshal(line, &l) != nil || l.Type != "turn.completed" || l.Usage == nil {
		return agent.Usage{}, false
	}
	u := l.Usage
	if !agent.Plausible(u.InputTokens, u.CachedInputTokens, u.CacheWriteInputTokens, u.OutputTokens, u.ReasoningOutputTokens) {
		return agent.Usage{}, false
	}
	return agent.Usage{
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CachedInputTokens: u.CachedInputTokens,
		CacheWriteTokens: u.CacheWriteInputTokens, ReasoningTokens: u.ReasoningOutputTokens,
		TotalTokens: u.InputTokens + u.OutputTokens,
	}, true
}
