package fakemodel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"
)

// TestCodexSubagentCallsAreHooked spawns a subagent (multi_agent_v1's
// spawn_agent, found through tool_search) whose shell command the hooks
// see, marked with the subagent's agent_id, while the main thread waits
// for it.
func TestCodexSubagentCallsAreHooked(t *testing.T) {
	bin := codexBinary(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	agentID := regexp.MustCompile(`"agent_id"\s*:\s*"([^"]+)"`)
	srv := StartOpenAI(t, []Turn{
		{Calls: []Call{{Name: "tool_search", Input: map[string]any{"query": "spawn agent", "limit": 5}}}},
		{Calls: []Call{{Name: "spawn_agent", Namespace: "multi_agent_v1", Input: map[string]any{"message": "SUB-TASK: write sub.txt"}}}},
		{Thread: "SUB-TASK", Calls: []Call{{Name: "exec_command", Input: map[string]any{"cmd": "printf 'by the subagent\\n' > sub.txt", "login": false}}}},
		{Thread: "SUB-TASK", Text: "sub done"},
		{Calls: []Call{{Name: "wait_agent", Namespace: "multi_agent_v1", Input: func(r Request) any {
			var id string
			if m := agentID.FindStringSubmatch(lastOutput(r)); m != nil {
				id = m[1]
			}
			return map[string]any{"targets": []string{id}, "timeout_ms": 60000}
		}}}},
		{Text: "Done.", When: outputHas(`"completed":"sub done"`)},
	}, Options{Timeout: 2 * time.Minute})
	setup := newCodexSetup(t, bin, srv, map[string]string{"README.md": "x\n"})
	log := t.TempDir()
	q, err := syntax.Quote(self, syntax.LangPOSIX)
	if err != nil {
		t.Fatal(err)
	}
	ql, _ := syntax.Quote(log, syntax.LangPOSIX)
	setup.Args = codexHookArgs([]codexHook{
		{Event: "PreToolUse", Key: "pre_tool_use", Command: hookEnv + "=PreToolUse " + hookLogEnv + "=" + ql + " " + q, Timeout: 600},
	})
	run := setup.run(t, "Delegate the work.", 3*time.Minute)
	run.mustSucceed(t)
	srv.Check()

	if got, err := os.ReadFile(filepath.Join(setup.Dir, "sub.txt")); err != nil || string(got) != "by the subagent\n" {
		t.Errorf("sub.txt = %q (%v)", got, err)
	}
	var threads []string
	for _, r := range srv.Requests() {
		threads = append(threads, r.Thread)
	}
	// The subagent's first request comes while the main thread's spawn
	// output is on its way; they may come in either order.
	if n := count(threads, "SUB-TASK"); n != 2 || len(threads) != 6 {
		t.Errorf("threads of the requests: %q, want 4 main and 2 SUB-TASK", threads)
	}

	norm := newCodexNormalizer(setup, log, self)
	// Call ids count the server's replies, whose order the two threads
	// share at random.
	callID := regexp.MustCompile(`call_[0-9]+`)
	fixture := func(data []byte) []byte { return callID.ReplaceAll(norm.json(data), []byte("call_<n>")) }
	tools := map[string]string{}
	for _, p := range readHookLog(t, log) {
		var m struct {
			Tool      string `json:"tool_name"`
			AgentID   string `json:"agent_id"`
			AgentType string `json:"agent_type"`
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal(p.data, &m); err != nil {
			t.Fatal(err)
		}
		tools[m.Tool] = m.AgentID + "/" + m.AgentType
		switch m.Tool {
		case "spawn_agent":
			golden(t, "hooks/subagent-PreToolUse-spawn_agent.json", fixture(p.data))
		case "Bash":
			golden(t, "hooks/subagent-PreToolUse-Bash.json", fixture(p.data))
		}
	}
	want := map[string]string{"spawn_agent": "/", "multi_agent_v1wait_agent": "/", "Bash": "<uuid>/default"}
	for k, v := range tools {
		tools[k] = uuidRE.ReplaceAllString(v, "<uuid>")
	}
	if d := cmp.Diff(want, tools); d != "" {
		t.Errorf("PreToolUse tool_name -> agent_id/agent_type (-want +got):\n%s", d)
	}
}

func count(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}
