package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrivateSealKey: the key that seals the loop's state lives outside the
// repository; every tool call that names it (read, write, search, a shell
// command in any form the parser sees) is refused, and calls about other
// files outside the repository are not.
func TestPrivateSealKey(t *testing.T) {
	root := newTree(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	private := filepath.Join(home, ".config", "ralph-gate")
	if err := os.MkdirAll(private, 0o700); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(private, sealKeyName)
	if err := os.WriteFile(key, []byte("00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(private, filepath.Join(root, "docs", "cfg")); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root)
	g.WS.SetPrivate(private)
	call := func(tool string, input map[string]any) Decision {
		t.Helper()
		raw, _ := json.Marshal(input)
		d, err := g.PreToolUse(payload(t, root, tool, json.RawMessage(raw)))
		if err != nil {
			t.Fatalf("%s %v: %v", tool, input, err)
		}
		return d
	}
	for _, tc := range []struct {
		tool  string
		input map[string]any
	}{
		{"Read", map[string]any{"file_path": key}},
		{"Read", map[string]any{"file_path": filepath.Join(root, "docs", "cfg", sealKeyName)}},
		{"Grep", map[string]any{"pattern": "x", "path": private}},
		{"Glob", map[string]any{"pattern": "**/*.key", "path": filepath.Join(home, ".config", "ralph-gate")}},
		{"Write", map[string]any{"file_path": key, "content": "11\n"}},
		{"Edit", map[string]any{"file_path": key, "old_string": "00", "new_string": "11"}},
		{"Bash", map[string]any{"command": "cat ~/.config/ralph-gate/loop-seal.key"}},
		{"Bash", map[string]any{"command": "cat $HOME/.config/ralph-gate/*"}},
		{"Bash", map[string]any{"command": "cp " + key + " /tmp/k"}},
		{"Bash", map[string]any{"command": "ls docs/cfg"}},
		{"Bash", map[string]any{"command": "K=" + private + "; cat \"$K\"/*"}},
		{"Bash", map[string]any{"command": "echo 11 > " + key}},
	} {
		if d := call(tc.tool, tc.input); !d.Deny || !strings.Contains(d.Reason, "seal") {
			t.Errorf("%s %v: allowed (%q)", tc.tool, tc.input, d.Reason)
		}
	}
	for _, tc := range []struct {
		tool  string
		input map[string]any
	}{
		{"Read", map[string]any{"file_path": filepath.Join(root, "pkg", "calc.go")}},
		{"Read", map[string]any{"file_path": filepath.Join(home, ".config", "other", "x")}},
		{"Bash", map[string]any{"command": "cat ~/.bashrc && ralph-gate status"}},
		{"Grep", map[string]any{"pattern": "ralph-gate", "path": root}},
	} {
		if d := call(tc.tool, tc.input); d.Deny {
			t.Errorf("%s %v: denied: %s", tc.tool, tc.input, d.Reason)
		}
	}
}

// TestPrivateHomeTilde: a file tool's ~ is the user's home, so a read of
// the seal key's directory spelled with it is denied too.
func TestPrivateHomeTilde(t *testing.T) {
	root := newTree(t)
	home := filepath.Join(filepath.Dir(root), "home") // newGuard's home
	private := filepath.Join(home, ".config", "ralph-gate")
	if err := os.MkdirAll(private, 0o700); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root)
	g.WS.SetPrivate(private)
	for tool, in := range map[string]map[string]any{
		"Grep": {"pattern": "x", "path": "~/.config/ralph-gate"},
		"Glob": {"pattern": "~/.config/ralph-gate/*"},
		"Read": {"file_path": "~/.config/ralph-gate"},
		"LS":   {"path": "~/.config"},
	} {
		d, err := g.PreToolUse(payload(t, root, tool, in))
		if err != nil || !d.Deny {
			t.Errorf("%s %v: %+v, %v; want denied", tool, in, d, err)
		}
	}
	if d, _ := g.PreToolUse(payload(t, root, "Read", map[string]any{"file_path": "~/notes.txt"})); d.Deny {
		t.Errorf("a Read of another file in the home was denied: %s", d.Reason)
	}
	// A search reads everything below it: one of a directory that holds
	// the seal key is denied, one of the project is not.
	for _, in := range []map[string]any{{"pattern": "key", "path": "~/.config"}, {"pattern": "key", "path": home}, {"pattern": "x", "path": "/"}} {
		if d, _ := g.PreToolUse(payload(t, root, "Grep", in)); !d.Deny {
			t.Errorf("Grep %v was allowed", in)
		}
	}
	for tool, in := range map[string]map[string]any{"Grep": {"pattern": "func"}, "Glob": {"pattern": "**/*.go"}} {
		if d, _ := g.PreToolUse(payload(t, root, tool, in)); d.Deny {
			t.Errorf("%s %v of the project was denied: %s", tool, in, d.Reason)
		}
	}
}

// TestPrivateExpandedWords: a shell word reaches the seal key through the
// agent's variables or a glob as well as by name; the guard expands them as
// the shell would.
func TestPrivateExpandedWords(t *testing.T) {
	root := newTree(t)
	home := filepath.Join(filepath.Dir(root), "home")
	private := filepath.Join(home, ".config", "ralph-gate")
	if err := os.MkdirAll(private, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(private, sealKeyName), []byte("00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	g := newGuard(t, root)
	g.WS.SetPrivate(private)
	env := map[string]string{"RALPH_GATE_CONFIG_DIR": private, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "CFG": filepath.Join(home, ".config")}
	g.WS.Getenv = func(k string) string { return env[k] }
	for _, cmd := range []string{
		"cat ~/.config/ralph-*/*",
		"cat $RALPH_GATE_CONFIG_DIR/*",
		`cat "${XDG_CONFIG_HOME}"/ralph-gate/*`,
		"head -c 99 ~/.config/ralph-gate/loop-seal.k?y",
		"cat $CFG/ralph-gate/l*",
		"tar czf /tmp/x.tgz $RALPH_GATE_CONFIG_DIR",
	} {
		if d := g.CheckCommand(cmd); !d.Deny {
			t.Errorf("%s: allowed, want denied", cmd)
		}
	}
	for _, cmd := range []string{"cat ~/.config/other/*", "ls $CFG", "echo $HOME", "cat pkg/*.go"} {
		if d := g.CheckCommand(cmd); d.Deny {
			t.Errorf("%s: denied: %s", cmd, d.Reason)
		}
	}
}
