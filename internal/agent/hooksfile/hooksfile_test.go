package hooksfile

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const existingSettings = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"], "deny": []},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/check-bash.sh", "timeout": 30}]}
    ],
    "Notification": [
      {"hooks": [{"type": "command", "command": "notify-send claude"}]}
    ]
  },
  "env": {"B": "2", "A": "1"}
}
`

func keys(t *testing.T, data []byte) []string {
	t.Helper()
	o, err := parseObject(data)
	if err != nil {
		t.Fatal(err)
	}
	return o.keys
}

// stopTimeout is the Stop hook's timeout in these tests.
const stopTimeout = 900

// guardHooks are the hooks Claude Code's adapter installs, for bin.
func guardHooks(bin string) []Hook {
	return []Hook{
		{Event: "PreToolUse", Matcher: "*", Command: Command(bin, "guard", "pre-tool-use")},
		{Event: "PostToolUse", Matcher: "*", Command: Command(bin, "guard", "post-tool-use")},
		{Event: "Stop", Command: Command(bin, "guard", "stop"), Timeout: stopTimeout},
	}
}

// MergeSettings merges the guard's hooks for bin, as an install does.
func MergeSettings(data []byte, bin string, uninstall bool) ([]byte, bool, error) {
	ours := func(cmd string) bool { return GuardCommand(cmd, bin, "pre-tool-use", "post-tool-use", "stop") }
	return Merge(data, guardHooks(bin), ours, uninstall)
}

func installFile(path, bin string, uninstall bool) (bool, error) {
	ours := func(cmd string) bool { return GuardCommand(cmd, bin, "pre-tool-use", "post-tool-use", "stop") }
	return InstallFile(path, guardHooks(bin), ours, uninstall)
}

const Matcher = "*"

func TestMergeSettings(t *testing.T) {
	bin := "/opt/ralph gate/bin/ralph-gate"
	out, changed, err := MergeSettings([]byte(existingSettings), bin, false)
	if err != nil || !changed {
		t.Fatalf("install: changed=%v err=%v", changed, err)
	}
	if diff := cmp.Diff([]string{"model", "permissions", "hooks", "env"}, keys(t, out)); diff != "" {
		t.Errorf("top-level key order (-want +got):\n%s", diff)
	}
	var doc struct {
		Env   json.RawMessage `json:"env"`
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type, Command string
				Timeout       int
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"B", "A"}, keys(t, doc.Env)); diff != "" {
		t.Errorf("nested key order (-want +got):\n%s", diff)
	}
	pre := doc.Hooks["PreToolUse"]
	if len(pre) != 2 || pre[0].Hooks[0].Command != "./scripts/check-bash.sh" || pre[0].Hooks[0].Timeout != 30 {
		t.Errorf("the existing PreToolUse hook changed: %+v", pre)
	}
	want := `'/opt/ralph gate/bin/ralph-gate' guard pre-tool-use`
	if len(pre) != 2 || pre[1].Matcher != Matcher || pre[1].Hooks[0].Command != want {
		t.Errorf("PreToolUse: %+v, want a %q entry with matcher %s", pre, want, Matcher)
	}
	if post := doc.Hooks["PostToolUse"]; len(post) != 1 || post[0].Matcher != Matcher || !strings.HasSuffix(post[0].Hooks[0].Command, " guard post-tool-use") {
		t.Errorf("PostToolUse: %+v", post)
	}
	if stop := doc.Hooks["Stop"]; len(stop) != 1 || stop[0].Matcher != "" || !strings.HasSuffix(stop[0].Hooks[0].Command, " guard stop") || stop[0].Hooks[0].Timeout != stopTimeout {
		t.Errorf("Stop: %+v", stop)
	}
	if len(doc.Hooks["Notification"]) != 1 {
		t.Errorf("the Notification hook was lost")
	}

	// Twice is once.
	again, changed, err := MergeSettings(out, bin, false)
	if err != nil || changed || string(again) != string(out) {
		t.Errorf("second install: changed=%v err=%v", changed, err)
	}
	// A moved binary is pointed at, not added twice.
	moved, changed, err := MergeSettings(out, "/usr/local/bin/ralph-gate", false)
	if err != nil || !changed || strings.Count(string(moved), "guard pre-tool-use") != 1 || !strings.Contains(string(moved), `"/usr/local/bin/ralph-gate guard stop"`) {
		t.Errorf("reinstall from another path: changed=%v err=%v\n%s", changed, err, moved)
	}
	// Uninstall leaves the rest as it was.
	back, changed, err := MergeSettings(moved, bin, true)
	if err != nil || !changed {
		t.Fatalf("uninstall: changed=%v err=%v", changed, err)
	}
	if strings.Contains(string(back), "guard") || strings.Contains(string(back), "PostToolUse") || strings.Contains(string(back), "Stop") {
		t.Errorf("uninstall left guard entries:\n%s", back)
	}
	var a, b any
	_ = json.Unmarshal([]byte(existingSettings), &a)
	_ = json.Unmarshal(back, &b)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("uninstall did not restore the settings (-want +got):\n%s", diff)
	}
	if _, changed, _ := MergeSettings(back, bin, true); changed {
		t.Error("a second uninstall changed something")
	}
}

func TestMergeSettingsSharedGroup(t *testing.T) {
	// The guard's entry in a group the user added hooks to: uninstall keeps
	// the group and the user's hook.
	in := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"ralph-gate guard stop"},{"type":"command","command":"say done"}]}]}}`
	out, changed, err := MergeSettings([]byte(in), "ralph-gate", true)
	if err != nil || !changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	if !strings.Contains(string(out), "say done") || strings.Contains(string(out), "guard stop") {
		t.Errorf("got %s", out)
	}
}

func TestMergeSettingsMalformed(t *testing.T) {
	for name, in := range map[string]string{
		"not json":        `{"hooks": `,
		"array":           `[]`,
		"hooks not obj":   `{"hooks": []}`,
		"event not array": `{"hooks": {"Stop": {}}}`,
		"trailing":        `{} {}`,
	} {
		if _, _, err := MergeSettings([]byte(in), "ralph-gate", false); err == nil {
			t.Errorf("%s: no error", name)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error of more than one line: %q", name, err)
		}
	}
}

func TestInstallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	changed, err := installFile(path, "/bin/ralph-gate", false)
	if err != nil || !changed {
		t.Fatalf("create: changed=%v err=%v", changed, err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = installFile(bad, "/bin/ralph-gate", false)
	var malformed *MalformedError
	if !errors.As(err, &malformed) || !strings.Contains(err.Error(), bad) {
		t.Fatalf("got %v, want a MalformedError naming %s", err, bad)
	}
	if data, _ := os.ReadFile(bad); string(data) != "{oops" {
		t.Error("a malformed settings file was overwritten")
	}
	if changed, err := installFile(filepath.Join(dir, "none.json"), "/bin/ralph-gate", true); err != nil || changed {
		t.Errorf("uninstall from a missing file: changed=%v err=%v", changed, err)
	}
}

// TestMergeSettingsNewMatcher: an install of an earlier version (matcher
// Write|Edit|MultiEdit|Bash) is moved to the matcher of every tool, and a
// group the user shares with it keeps the user's hook under the old matcher.
func TestMergeSettingsNewMatcher(t *testing.T) {
	in := `{"hooks":{
 "PreToolUse":[{"matcher":"Write|Edit|MultiEdit|Bash","hooks":[{"type":"command","command":"ralph-gate guard pre-tool-use"},{"type":"command","command":"./lint.sh"}]}],
 "PostToolUse":[{"matcher":"Write|Edit|MultiEdit|Bash","hooks":[{"type":"command","command":"ralph-gate guard post-tool-use"}]}],
 "Stop":[{"hooks":[{"type":"command","command":"ralph-gate guard stop","timeout":900}]}]}}`
	out, changed, err := MergeSettings([]byte(in), "ralph-gate", false)
	if err != nil || !changed {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	var doc map[string]map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct{ Command string }
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range []string{"PreToolUse", "PostToolUse", "Stop"} {
		for _, g := range doc["hooks"][ev] {
			for _, h := range g.Hooks {
				got = append(got, ev+" "+g.Matcher+" "+h.Command)
			}
		}
	}
	want := []string{
		"PreToolUse Write|Edit|MultiEdit|Bash ./lint.sh",
		"PreToolUse * ralph-gate guard pre-tool-use",
		"PostToolUse * ralph-gate guard post-tool-use",
		"Stop  ralph-gate guard stop",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("hooks (-want +got):\n%s", d)
	}
	if !Installed(out, guardHooks("ralph-gate"), func(cmd string) bool { return GuardCommand(cmd, "ralph-gate", "pre-tool-use", "post-tool-use", "stop") }) {
		t.Error("Installed is false right after an install")
	}
	if Installed([]byte(in), guardHooks("ralph-gate"), func(cmd string) bool { return GuardCommand(cmd, "ralph-gate", "pre-tool-use", "post-tool-use", "stop") }) {
		t.Error("Installed is true for the earlier version's matcher")
	}
}

func TestGuardCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"ralph-gate guard stop":                       true,
		"'/opt/ralph gate/bin/ralph-gate' guard stop": true,
		`"/usr/bin/ralph-gate.exe" guard stop`:        true,
		"/tmp/x/rg guard stop":                        true, // named as bin is
		"ralph-gate guard stop --agent codex":         true,
		"ralph-gate guard install":                    false,
		"notify ralph-gate guard stop":                false,
		"ralph-gate guard stop; rm -rf /":             false,
		"other guard stop":                            false,
	} {
		if got := GuardCommand(cmd, "/usr/local/bin/rg", "stop"); got != want {
			t.Errorf("GuardCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}
