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

// post sends a Messages request and returns the events' data lines.
func post(t *testing.T, url string, body any) []map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url+"/v1/messages", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var events []map[string]any
	sc := bufio.NewScanner(resp.Body)
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
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	return events
}

func userMessage(text string) map[string]any {
	return map[string]any{"stream": true, "model": "m", "tools": []any{map[string]any{"name": "Bash"}},
		"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}}}
}

// summary reduces a stream to its block types, tool names and inputs.
func summary(events []map[string]any) []string {
	var out []string
	for _, ev := range events {
		switch ev["type"] {
		case "content_block_start":
			cb := ev["content_block"].(map[string]any)
			out = append(out, "start "+cb["type"].(string)+" "+str(cb["name"]))
		case "content_block_delta":
			d := ev["delta"].(map[string]any)
			out = append(out, "delta "+str(d["text"])+str(d["partial_json"]))
		case "message_delta":
			out = append(out, "stop "+ev["delta"].(map[string]any)["stop_reason"].(string))
		}
	}
	return out
}

func str(v any) string { s, _ := v.(string); return s }

func TestAnthropicStreamsScriptByThread(t *testing.T) {
	s := StartAnthropic(t, []Turn{
		{Text: "main one", Calls: []Call{{Name: "Agent", Input: map[string]any{"prompt": "SUB-TASK"}}}},
		{Thread: "SUB-TASK", Calls: []Call{{Name: "Edit", Input: map[string]any{"file_path": "a.go"}}}},
		{Text: "main two"},
		{Thread: "SUB-TASK", Text: "sub done"},
	}, Options{})
	got := [][]string{
		summary(post(t, s.URL, userMessage("the task"))),
		summary(post(t, s.URL, userMessage("the task"))), // main goes on before the subagent asks
		summary(post(t, s.URL, userMessage("SUB-TASK"))), // the subagent's first request
		summary(post(t, s.URL, userMessage("SUB-TASK"))),
	}
	want := [][]string{
		{"start text ", "delta main one", "start tool_use Agent", `delta {"prompt":"SUB-TASK"}`, "stop tool_use"},
		{"start text ", "delta main two", "stop end_turn"},
		{"start tool_use Edit", `delta {"file_path":"a.go"}`, "stop tool_use"},
		{"start text ", "delta sub done", "stop end_turn"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("streams (-want +got):\n%s", d)
	}
	s.Check()
	if n := len(s.Requests()); n != 4 {
		t.Errorf("%d requests kept, want 4", n)
	}
}

func TestAnthropicPastScriptFails(t *testing.T) {
	s := StartAnthropic(t, []Turn{{Text: "only"}}, Options{})
	post(t, s.URL, userMessage("x"))
	b, _ := json.Marshal(userMessage("x"))
	resp, err := http.Post(s.URL+"/v1/messages", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a request past the script: status %d, want 400", resp.StatusCode)
	}
	if errs := s.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "after the thread's last turn") {
		t.Errorf("errors = %q", errs)
	}
}

func TestSideRequestsAnsweredOutsideScript(t *testing.T) {
	s := StartAnthropic(t, []Turn{{Text: "main"}}, Options{})
	side := map[string]any{"stream": true, "model": "m", "messages": []any{map[string]any{"role": "user", "content": "title this"}}}
	if got := summary(post(t, s.URL, side)); !cmp.Equal(got, []string{"start text ", "delta ok", "stop end_turn"}) {
		t.Errorf("side request: %q", got)
	}
	post(t, s.URL, userMessage("x"))
	s.Check()
}
