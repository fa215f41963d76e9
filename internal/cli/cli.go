// Package cli implements ralph-gate's subcommands and flags. cmd/ralph-gate only
// calls Run and maps its error to an exit code with ExitCode.
package cli

import (
	"context"
	"flag"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Env is what a command may touch of the outside world: no command reads
// os.Args, os.Getenv or the standard streams directly.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Dir is the working directory ("" for the process's).
	Dir string
	// Version is the program's version.
	Version string
	// Withheld are the credentials and runner variables taken out of the
	// process's environment before any of HEAD's code runs (Getenv still
	// answers them): only the agent `run` drives gets them back.
	Withheld map[string]string
	// Environ is the process's environment as the code it runs gets it
	// (nil: os.Environ, after main took the withheld variables out).
	Environ func() []string
	// flagSets, when set, collects the flag sets the command defines, and
	// -h shows nothing (commandFlagSets).
	flagSets *[]*flag.FlagSet
}

// environ is the environment the commands hand to the code they run.
func (e Env) environ() []string {
	if e.Environ != nil {
		return e.Environ()
	}
	return os.Environ()
}

// Run executes one command line (without the program name).
func Run(ctx context.Context, args []string, env Env) error {
	err := run(ctx, args, env)
	if err == errHelpShown {
		return nil
	}
	return err
}

func run(ctx context.Context, args []string, env Env) error {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, mainHelp)
		return usagef("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "-h", "--help", "-help":
		fmt.Fprint(env.Stdout, mainHelp)
		return nil
	case "--version", "-version":
		cmd = "version"
	}
	if c, ok := commands[cmd]; ok {
		return c(ctx, rest, env)
	}
	return usagef("unknown command %q (run 'ralph-gate --help' for the list)", cmd)
}

// commands holds every command; each registers itself (and its help in
// commandHelp) from an init function of its file.
var commands = map[string]func(ctx context.Context, args []string, env Env) error{}

// register adds a subcommand and its help text.
func register(name, help string, run func(ctx context.Context, args []string, env Env) error) {
	commands[name] = run
	commandHelp[name] = help
}

func init() {
	register("help", helpHelp, func(_ context.Context, args []string, env Env) error { return runHelp(args, env) })
	register("version", versionHelp, func(_ context.Context, _ []string, env Env) error {
		fmt.Fprint(env.Stdout, versionText(env.Version))
		return nil
	})
}

func runHelp(args []string, env Env) error {
	if len(args) == 0 {
		fmt.Fprint(env.Stdout, mainHelp)
		return nil
	}
	if h := helpText(args[0]); h != "" {
		fmt.Fprint(env.Stdout, h)
		return nil
	}
	return usagef("no help for unknown command %q", args[0])
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments, as users type them ("analyze main HEAD --format json").
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func newFlagSet(name string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if env.flagSets != nil {
		*env.flagSets = append(*env.flagSets, fs)
	}
	return fs
}

// flagError turns a flag package error into a usage error (or nil for -h, after
// printing the help).
func flagError(name string, err error, env Env) error {
	if err == flag.ErrHelp {
		showHelp(env.Stdout, name, env)
		return errHelpShown
	}
	if m := flagValueError.FindStringSubmatch(err.Error()); m != nil {
		// A flag.Value's own message says what is wrong with the value;
		// the flag package's wrapping only repeats it.
		return usagef("%s: --%s: %s", name, m[1], strings.TrimSpace(m[2]))
	}
	return usagef("%s: %s (run 'ralph-gate help %s')", name, strings.TrimSpace(err.Error()), name)
}

// flagValueError is the flag package's message for a value a flag.Value
// refused: "invalid value "x" for flag -fail-on: <the Value's error>" (and
// "invalid boolean value ... for -name: ..." for boolean flags).
var flagValueError = lazyre.New(`^invalid (?:boolean )?value ".*" for (?:flag )?-+([\w-]+): ([\s\S]+)$`)

// errHelpShown ends a command after -h without error.
var errHelpShown = &helpShown{}

type helpShown struct{}

func (*helpShown) Error() string { return "help shown" }

// versionText is what version prints: the version, then what the build
// info says of the source it was built from (the VCS revision, whether the
// tree had changes, the commit's time) and the Go toolchain.
func versionText(v string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ralph-gate %s\n", v)
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b.String()
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if settings["vcs.modified"] == "true" {
			rev += " (with uncommitted changes)"
		}
		fmt.Fprintf(&b, "  revision   %s\n", rev)
	}
	if t := settings["vcs.time"]; t != "" {
		fmt.Fprintf(&b, "  committed  %s\n", t)
	}
	fmt.Fprintf(&b, "  go         %s %s/%s\n", bi.GoVersion, settings["GOOS"], settings["GOARCH"])
	return b.String()
}
