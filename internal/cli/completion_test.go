package cli

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestHelpListsEveryFlag: every flag a command's flag sets define is in its
// help text: help cannot fall behind the flags.
func TestHelpListsEveryFlag(t *testing.T) {
	for _, c := range commandNames() {
		if c == "help" || c == "version" || c == "completion" {
			continue
		}
		help := commandHelp[c]
		if help == "" {
			t.Errorf("%s: no help text", c)
			continue
		}
		flags := commandFlags(c)
		for _, sub := range subcommands[c] {
			flags = append(flags, commandFlags(c, sub)...)
		}
		for _, f := range flags {
			if !strings.Contains(help, f) {
				t.Errorf("%s: flag %s is not in 'ralph-gate help %s'", c, f, c)
			}
		}
	}
	if got := commandFlags("analyze"); !strings.Contains(strings.Join(got, " "), "--format") {
		t.Errorf("analyze's flags: %v", got)
	}
}

// TestSubcommandsAreTheDispatchers: each subcommand completion offers is one
// its command accepts.
func TestSubcommandsAreTheDispatchers(t *testing.T) {
	for c, subs := range subcommands {
		for _, sub := range subs {
			var out bytes.Buffer
			err := run(context.Background(), []string{c, sub, "--help"}, Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }})
			if err != nil && strings.Contains(err.Error(), "unknown subcommand") {
				t.Errorf("%s %s: %v", c, sub, err)
			}
		}
		var out bytes.Buffer
		err := run(context.Background(), []string{c, "no-such-sub"}, Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }})
		if err == nil || !strings.Contains(err.Error(), "unknown subcommand") {
			t.Errorf("%s no-such-sub: %v, want an unknown subcommand error", c, err)
		}
	}
}

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"completion", shell}, Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}); err != nil {
		t.Fatalf("completion %s: %v", shell, err)
	}
	return out.String()
}

// TestBashCompletion loads the bash script in bash and completes command
// names, a command's flags and a subcommand.
func TestBashCompletion(t *testing.T) {
	script := completionScript(t, "bash")
	for _, c := range []struct {
		line []string
		want string
	}{
		{[]string{"ralph-gate", "ana"}, "analytics analyze"},
		{[]string{"ralph-gate", "analyze", "--fo"}, "--format"},
		{[]string{"ralph-gate", "hook", "ins"}, "install"},
		{[]string{"ralph-gate", "init", "--d"}, "--dry-run"},
		{[]string{"ralph-gate", "completion", "z"}, "zsh"},
	} {
		prog := script + "\nCOMP_WORDS=(" + strings.Join(c.line, " ") + ")\nCOMP_CWORD=" + itoa(len(c.line)-1) + "\n_ralph_gate\necho \"${COMPREPLY[*]}\"\n"
		out, err := exec.Command("bash", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("%v: completes %q, want %q", c.line, got, c.want)
		}
	}
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+n))) }

// TestZshFishCompletion: the zsh and fish scripts name every command and the
// flags of analyze; each parses in its shell when the shell is installed.
func TestZshFishCompletion(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		script := completionScript(t, shell)
		for _, want := range []string{"analyze", "compare", "init", "waive", "format"} {
			if !strings.Contains(script, want) {
				t.Errorf("%s completion lacks %q", shell, want)
			}
		}
		if _, err := exec.LookPath(shell); err == nil {
			cmd := exec.Command(shell, "-n")
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, out)
			}
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"completion", "powershell"}, Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}); ExitCode(err) != ExitUsage {
		t.Errorf("completion powershell: %v, want a usage error", err)
	}
}
