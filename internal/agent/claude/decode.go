package claude

import (
	"bytes"
	"encoding/json"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// Decode implements agent.Client: the payload read into a neutral call.
// Write, Edit, MultiEdit and NotebookEdit change one file each; Bash runs a
// command; Read, NotebookRead, Grep, Glob and LS read; every other tool (an
// MCP tool, Agent, WebFetch) has only its input.
func (Client) Decode(event agent.Event, data []byte) (*agent.Call, error) {
	p, err := DecodePayload(data, event)
	if err != nil {
		return nil, err
	}
	c := &agent.Call{
		Event: event, Tool: p.ToolName, Cwd: p.Cwd, SessionID: p.SessionID,
		Input: p.ToolInput, Response: p.ToolResponse, StopActive: p.StopHookActive,
	}
	if event == agent.Stop {
		return c, nil
	}
	in, err := p.Input()
	if err != nil {
		return nil, err
	}
	switch in := in.(type) {
	case *WriteInput:
		content := []byte(*in.Content)
		c.Changes = []agent.FileChange{{Path: in.FilePath, Apply: func([]byte, bool) ([]byte, error) { return content, nil }}}
	case *EditInput:
		edits := []EditInput{*in}
		c.Changes = []agent.FileChange{{Path: in.FilePath, Apply: func(cur []byte, existed bool) ([]byte, error) { return ApplyEdits(cur, existed, edits) }}}
	case *MultiEditInput:
		c.Changes = []agent.FileChange{{Path: in.FilePath, Apply: func(cur []byte, existed bool) ([]byte, error) { return ApplyEdits(cur, existed, in.Edits) }}}
	case *NotebookEditInput:
		c.Changes = []agent.FileChange{{Path: in.NotebookPath, Apply: in.apply}}
	case *BashInput:
		c.Command = in.Command
	case *ReadInput:
		for _, v := range []string{in.FilePath, in.NotebookPath} {
			if v != "" {
				c.Reads = append(c.Reads, v)
			}
		}
		if p.ToolName == "Grep" || p.ToolName == "Glob" || p.ToolName == "LS" {
			dir := in.Path
			if dir == "" {
				dir = "."
			}
			c.Searches = append(c.Searches, dir)
			if p.ToolName == "Glob" && in.Pattern != "" {
				c.Searches = append(c.Searches, in.Pattern)
			}
			if in.Glob != "" {
				c.Searches = append(c.Searches, in.Glob)
			}
		}
	}
	return c, nil
}

// Encode implements agent.Client: agent.EncodeHookJSON, Claude Code's hook
// output.
func (Client) Encode(event agent.Event, a agent.Answer) ([]byte, error) {
	return agent.EncodeHookJSON(event, a)
}

// usageLine is the part of a stream-json "result" line the scanner reads:
//
//	{"type":"result","subtype":"success","total_cost_usd":0.0421,"usage":{"input_tokens":12,"cache_creation_input_tokens":5430,"cache_read_input_tokens":10240,"output_tokens":164}}
type usageLine struct {
	Type         string   `json:"type"`
	TotalCostUSD *float64 `json:"total_cost_usd"`
	Usage        *struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

// ScanUsage implements agent.Client: a "result" line's usage and cost.
// Its total counts input, output, cache reads and cache writes.
func (Client) ScanUsage(line []byte) (agent.Usage, bool) {
	if !containsType(line, `"result"`) {
		return agent.Usage{}, false
	}
	var l usageLine
	if json.Unmarshal(line, &l) != nil || l.Type != "result" || l.Usage == nil {
		return agent.Usage{}, false
	}
	u := l.Usage
	if !agent.Plausible(u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens) {
		return agent.Usage{}, false
	}
	return agent.Usage{
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadInputTokens, CacheCreationTokens: u.CacheCreationInputTokens,
		TotalTokens: u.InputTokens + u.OutputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
		CostUSD:     l.TotalCostUSD,
	}, true
}

// containsType is a cheap test before decoding: most lines of an agent's
// output are not usage lines.
func containsType(line []byte, typ string) bool {
	return len(line) > 0 && line[0] == '{' && bytes.Contains(line, []byte(typ))
}
