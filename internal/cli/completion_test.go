package cli

import (
	"bytes"
	"context"
	"flag"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestHelpListsEveryFlag: a command's help lists the flags of its flag
// sets, described by their usage strings and nowhere else: help cannot fall
// behind the flags.
func TestHelpListsEveryFlag(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^ +--[a-z]`)
	for _, c := range commandNames() {
		if c == "help" || c == "version" || c == "completion" {
			continue
		}
		if commandHelp[c] == "" {
			t.Errorf("%s: no help text", c)
			continue
		}
		if m := flagLine.FindString(commandHelp[c]); m != "" {
			t.Errorf("%s: the prose lists a flag by hand (%q): describe it in its usage string", c, m)
		}
		help := helpText(c)
		for _, fs := range commandFlagSets(c) {
			fs.VisitAll(func(f *flag.Flag) {
				if !strings.Contains(help, "  --"+f.Name+" ") && !strings.Contains(help, "  --"+f.Name+"\n") {
					t.Errorf("%s: flag --%s is not in 'ralph-gate help %s'", c, f.Name, c)
				}
				if f.Usage == "" {
					t.Errorf("%s: flag --%s has no usage", c, f.Name)
				}
				if arg, _ := flag.UnquoteUsage(f); !isBoolFlag(f) && !strings.Contains(f.Usage, "`") {
					t.Errorf("%s: flag --%s names its value %q: put it in backquotes in the usage", c, f.Name, arg)
				}
			})
		}
	}
	if got := commandFlags("analyze"); !strings.Contains(strings.Join(got, " "), "--format") {
		t.Errorf("analyze's flags: %v", got)
	}
}

// TestHelpIsTheFlagsHelp: -h, --help and 'help CMD' print the same text,
// the one written from the flag sets.
func TestHelpIsTheFlagsHelp(t *testing.T) {
	for _, c := range []string{"compare", "record", "hook", "status"} {
		var a, b, h bytes.Buffer
		quiet := func(w *bytes.Buffer) Env { return Env{Stdout: w, Stderr: w, Getenv: func(string) string { return "" }} }
		_ = Run(context.Background(), []string{c, "-h"}, quiet(&a))
		_ = Run(context.Background(), []string{c, "--help"}, quiet(&b))
		_ = Run(context.Background(), []string{"help", c}, quiet(&h))
		if a.String() != h.String() || b.String() != h.String() || !strings.Contains(h.String(), "\nFlags:\n  --") {
			t.Errorf("%s: -h, --help and help differ, or list no flag:\n%s\n---\n%s", c, a.String(), h.String())
		}
		for _, line := range strings.Split(h.String(), "\n") {
			if len(line) > 80 && strings.HasPrefix(line, "  --") {
				t.Errorf("%s: a flag line of %d columns: %q", c, len(line), line)
			}
		}
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
