package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// postResponses sends a Responses request and returns its status and the
// events' data, in order.
func postResponses(t *testing.T, url string, body any) (int, []map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url+"/v1/responses", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var events []map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		events = append(events, ev)
	}
	return resp.StatusCode, events
}

// codexTools are the tools Codex 0.169.0 offers gpt-5.5, reduced to what
// the server reads.
var codexTools = []any{
	map[string]any{"type": "function", "name": "exec_command"},
	map[string]any{"type": "custom", "name": "apply_patch"},
	map[string]any{"type": "tool_search", "execution": "client"},
	map[string]any{"type": "namespace", "name": "ns", "tools": []any{map[string]any{"type": "function", "name": "inner"}}},
}

// responsesRequest is a streamed request whose input opens with a user
// message of text, followed by more items.
func responsesRequest(text string, more ...any) map[string]any {
	input := []any{
		map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": "instructions"}}},
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}},
	}
	return map[string]any{"model": "gpt-5.5", "stream": true, "tools": codexTools, "input": append(input, more...)}
}

// itemsDone reduces a stream to its finished output items: type, name (with
// namespace) and input.
func itemsDone(events []map[string]any) []string {
	var out []string
	for _, ev := range events {
		if ev["type"] != "response.output_item.done" {
			continue
		}
		it := ev["item"].(map[string]any)
		switch it["type"] {
		case "message":
			out = append(out, "message "+str(it["content"].([]any)[0].(map[string]any)["text"]))
		case "function_call":
			name := str(it["name"])
			if ns := str(it["namespace"]); ns != "" {
				name = ns + "." + name
			}
			out = append(out, "function_call "+name+" "+str(it["arguments"]))
		case "custom_tool_call":
			out = append(out, "custom_tool_call "+str(it["name"])+" "+str(it["input"]))
		case "tool_search_call":
			b, _ := json.Marshal(it["arguments"])
			out = append(out, "tool_search_call "+string(b))
		default:
			out = append(out, "other "+str(it["type"]))
		}
	}
	return out
}

func TestOpenAIStreamsScriptByThread(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"
	exposed := map[string]any{"type": "tool_search_output", "call_id": "c", "execution": "client", "tools": []any{
		map[string]any{"type": "namespace", "name": "mcp__probe", "tools": []any{map[string]any{"type": "function", "name": "write_note"}}},
	}}
	s := StartOpenAI(t, []Turn{
		{Text: "main one", Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "echo hi"}}}},
		{Thread: "SUB-TASK", Calls: []Call{{Name: "apply_patch", Input: patch}, {Name: "tool_search", Input: map[string]any{"query": "note"}}}},
		{Calls: []Call{{Name: "write_note", Namespace: "mcp__probe", Input: map[string]any{"path": "n"}}, {Name: "inner", Namespace: "ns"}}},
		{Thread: "SUB-TASK", Text: "sub done"},
	}, Options{})
	var got [][]string
	for _, body := range []map[string]any{
		responsesRequest("the task"),
		responsesRequest("the task", exposed), // main goes on before the subagent asks
		responsesRequest("you are a subagent: SUB-TASK"),
		responsesRequest("you are a subagent: SUB-TASK"),
	} {
		status, events := postResponses(t, s.URL, body)
		if status != http.StatusOK {
			t.Fatalf("status %d", status)
		}
		got = append(got, itemsDone(events))
	}
	want := [][]string{
		{"message main one", `function_call exec_command {"cmd":"echo hi"}`},
		{`function_call mcp__probe.write_note {"path":"n"}`, "function_call ns.inner {}"},
		{"custom_tool_call apply_patch " + patch, `tool_search_call {"query":"note"}`},
		{"message sub done"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("streams (-want +got):\n%s", d)
	}
	s.Check()
	var threads []string
	for _, r := range s.Requests() {
		threads = append(threads, r.Thread)
	}
	if d := cmp.Diff([]string{"", "", "SUB-TASK", "SUB-TASK"}, threads); d != "" {
		t.Errorf("threads (-want +got):\n%s", d)
	}
}

func TestOpenAIStreamEvents(t *testing.T) {
	s := StartOpenAI(t, []Turn{{Text: "hi", Calls: []Call{{Name: "apply_patch", Input: "*** Begin Patch\n*** End Patch\n"}}}},
		Options{Usage: Usage{InputTokens: 1000, OutputTokens: 50, CachedInputTokens: 400, CacheWriteTokens: 30, ReasoningTokens: 7}})
	_, events := postResponses(t, s.URL, responsesRequest("x"))
	var types []string
	for _, ev := range events {
		types = append(types, str(ev["type"]))
	}
	want := []string{
		"response.created",
		"response.output_item.added", "response.output_text.delta", "response.output_text.done", "response.output_item.done",
		"response.output_item.added", "response.custom_tool_call_input.delta", "response.output_item.done",
		"response.completed",
	}
	if d := cmp.Diff(want, types); d != "" {
		t.Errorf("event types (-want +got):\n%s", d)
	}
	last := events[len(events)-1]["response"].(map[string]any)
	wantUsage := map[string]any{
		"input_tokens": 1000.0, "input_tokens_details": map[string]any{"cached_tokens": 400.0, "cache_write_tokens": 30.0},
		"output_tokens": 50.0, "output_tokens_details": map[string]any{"reasoning_tokens": 7.0}, "total_tokens": 1050.0,
	}
	if d := cmp.Diff(wantUsage, last["usage"]); d != "" {
		t.Errorf("usage (-want +got):\n%s", d)
	}
	s.Check()
}

func TestOpenAIWithoutStream(t *testing.T) {
	s := StartOpenAI(t, []Turn{{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "ls"}}}}}, Options{})
	body := responsesRequest("x")
	body["stream"] = false
	b, _ := json.Marshal(body)
	resp, err := http.Post(s.URL+"/v1/responses", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Status string           `json:"status"`
		Output []map[string]any `json:"output"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "completed" || len(got.Output) != 1 || got.Output[0]["type"] != "function_call" || got.Output[0]["arguments"] != `{"cmd":"ls"}` {
		t.Errorf("response = %+v", got)
	}
	s.Check()
}

func TestOpenAIFirst(t *testing.T) {
	msg := func(role, text string) map[string]any {
		return map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": "input_text", "text": text}}}
	}
	tests := []struct {
		name  string
		input []any
		want  string
	}{
		{"prompt only", []any{msg("user", "task")}, "task\n"},
		{"codex opening", []any{msg("developer", "rules"), msg("user", "<environment_context/>"), msg("user", "task")}, "<environment_context/>\ntask\n"},
		{"later messages left out", []any{msg("user", "task"), map[string]any{"type": "function_call", "name": "x"}, msg("user", "<hook_prompt>more</hook_prompt>")}, "task\n"},
		{"string content", []any{map[string]any{"role": "user", "content": "plain"}}, "plain\n"},
		{"assistant first", []any{msg("assistant", "hello"), msg("user", "task")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := openAIFirst(map[string]any{"input": tt.input}); got != tt.want {
				t.Errorf("openAIFirst = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestOpenAIFailures(t *testing.T) {
	t.Run("a tool the request does not offer", func(t *testing.T) {
		s := StartOpenAI(t, []Turn{{Calls: []Call{{Name: "shell", Input: map[string]any{"command": []string{"ls"}}}}}}, Options{})
		_, events := postResponses(t, s.URL, responsesRequest("x"))
		if got := itemsDone(events); !cmp.Equal(got, []string{`function_call shell {"command":["ls"]}`}) {
			t.Errorf("items = %q", got)
		}
		if errs := s.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "calls shell, which the request does not offer (offered: apply_patch, exec_command, ns.inner, tool_search)") {
			t.Errorf("errors = %q", errs)
		}
	})
	t.Run("a scripted model error", func(t *testing.T) {
		s := StartOpenAI(t, []Turn{{Status: http.StatusInternalServerError}}, Options{})
		status, events := postResponses(t, s.URL, responsesRequest("x"))
		if status != http.StatusInternalServerError || len(events) != 0 {
			t.Errorf("status %d, %d events; want 500 and none", status, len(events))
		}
		s.Check()
	})
	t.Run("past the script", func(t *testing.T) {
		s := StartOpenAI(t, []Turn{{Text: "only"}}, Options{})
		postResponses(t, s.URL, responsesRequest("x"))
		if status, _ := postResponses(t, s.URL, responsesRequest("x")); status != http.StatusBadRequest {
			t.Errorf("a request past the script: status %d, want 400", status)
		}
		if errs := s.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "after the thread's last turn") {
			t.Errorf("errors = %q", errs)
		}
	})
}

func TestOpenAISideRequest(t *testing.T) {
	s := StartOpenAI(t, []Turn{{Text: "main"}}, Options{})
	side := responsesRequest("summarize")
	delete(side, "tools")
	if _, events := postResponses(t, s.URL, side); !cmp.Equal(itemsDone(events), []string{"message ok"}) {
		t.Errorf("side request: %q", itemsDone(events))
	}
	postResponses(t, s.URL, responsesRequest("x"))
	s.Check()
	if reqs := s.Requests(); len(reqs) != 2 || !reqs[0].Side || reqs[1].Side {
		t.Errorf("requests kept: %+v", reqs)
	}
}

func TestOpenAIInputFromRequest(t *testing.T) {
	s := StartOpenAI(t, []Turn{
		{Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "start"}}}},
		{Calls: []Call{{Name: "exec_command", Input: func(r Request) any {
			return map[string]any{"cmd": "poll " + lastOutput(r)}
		}}}},
	}, Options{})
	postResponses(t, s.URL, responsesRequest("x"))
	_, events := postResponses(t, s.URL, responsesRequest("x", map[string]any{"type": "function_call_output", "call_id": "c", "output": "session 42"}))
	if got := itemsDone(events); !cmp.Equal(got, []string{`function_call exec_command {"cmd":"poll session 42"}`}) {
		t.Errorf("items = %q", got)
	}
	s.Check()
}
