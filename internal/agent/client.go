package agent

import "strings"

// Client is one coding-agent client: everything ralph-gate knows of it.
type Client interface {
	// Name is the name `run --agent NAME` and `guard --agent NAME` take.
	Name() string
	// Title is the client's name for people ("Claude Code").
	Title() string
	// Preset is the command line `run --agent NAME` runs (through sh -c,
	// with the prompt on standard input): the agent may edit files and run
	// commands without asking, and every call passes the guard's hooks.
	Preset() string
	// Runs reports whether a program name (a command line's first word,
	// without its directory) starts this client.
	Runs(program string) bool
	// ProjectDir is the project a hook runs for, as the client tells its
	// hooks outside the payload ("" when it does not): the repository is
	// looked for there first, since a call's cwd may be anywhere.
	ProjectDir(getenv func(string) string) string
	// Decode reads one hook input for event.
	Decode(event Event, payload []byte) (*Call, error)
	// Encode writes the guard's answer to a call of event as the client
	// reads it from the hook's standard output; nil says nothing.
	Encode(event Event, a Answer) ([]byte, error)
	// ScanUsage reads one line of the client's output: the tokens and cost
	// it reports, ok false for a line that is not a usage line.
	ScanUsage(line []byte) (u Usage, ok bool)
	// Hooks says where the guard's hooks go for the work tree at root, and
	// how the client is told to trust them; home and getenv place the
	// user's configuration.
	Hooks(root, home string, getenv func(string) string) HookSetup
	// Own lists the client's files, absolute, that decide its hooks and
	// permissions: an agent that edits them can switch the guard off, so
	// they are protected like the gate's own configuration. home is the
	// user's home directory ("" when unknown); getenv reads the client's
	// environment (its config directory may be moved).
	Own(root, home string, getenv func(string) string) []string
}

// HookSetup is where a client reads the guard's hooks.
type HookSetup struct {
	// File is the hooks file `run` installs for its run, absolute ("" when
	// the run passes its hooks on the command line, RunArgs).
	File string
	// Exclude, when set, is File relative to the work tree: run tells git
	// to ignore it, so the iteration commits never carry it.
	Exclude string
	// Shared is the hooks file `guard install` writes by default, meant to
	// be committed with the project.
	Shared string
	// SharedFrom names what Shared is found from, for the message when it
	// cannot be ("HOME or CODEX_HOME").
	SharedFrom string
	// Install merges the guard's hooks (commands built by cmd) into the
	// hooks file at path, created when missing, or removes them; it reports
	// whether the file changed. A file that is not what the client reads is
	// left alone (*hooksfile.MalformedError).
	Install func(path string, cmd func(Event) string, uninstall bool) (bool, error)
	// Installed reports whether the file at path runs the guard's hooks,
	// whatever binary they name.
	Installed func(path string) bool
	// RunArgs, when set, are added to the preset's command line: the
	// hooks (commands built by cmd), installed and trusted for that run
	// only, in place of a hooks file.
	RunArgs func(cmd func(Event) string) string
	// Trust says what a user does before the client runs the hooks of the
	// Shared file ("" when it runs them as they are).
	Trust string
}

// Sub is the guard subcommand that handles an event.
func (e Event) Sub() string {
	switch e {
	case PreToolUse:
		return "pre-tool-use"
	case PostToolUse:
		return "post-tool-use"
	}
	return "stop"
}

// HookCommand returns the command each hook of a client runs: the
// ralph-gate binary's guard subcommand for the event, naming the client.
func HookCommand(bin string, c Client) func(Event) string {
	return func(e Event) string {
		return quote(bin) + " guard " + e.Sub() + " --agent " + c.Name()
	}
}

// quote quotes a path for a POSIX shell when it needs it.
func quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}~#!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
