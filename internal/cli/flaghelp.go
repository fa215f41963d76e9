package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// A command's help is its prose (commandHelp) with the flag list written
// from the command's own flag sets: each flag's usage string is the one
// place it is described, and a backquoted word in it names the flag's value
// (flag.UnquoteUsage), as in "the repository `DIR`".

// helpText returns a command's whole help: the prose, with the flags of
// every flag set the command (and each of its subcommands) defines after
// its "Flags:" line, or at the end when it has none.
func helpText(name string) string {
	prose, ok := commandHelp[name]
	if !ok {
		return ""
	}
	list := flagList(commandFlagSets(name)...)
	if list == "" {
		return prose
	}
	if i := strings.Index(prose, "\nFlags:\n"); i >= 0 {
		at := i + len("\nFlags:\n")
		return prose[:at] + list + prose[at:]
	}
	return strings.TrimRight(prose, "\n") + "\n\nFlags:\n" + list
}

// showHelp writes a command's help to w, unless the command only runs to
// show its flag sets (commandFlagSets).
func showHelp(w io.Writer, name string, env Env) {
	if env.flagSets == nil {
		fmt.Fprint(w, helpText(name))
	}
}

// flagList writes one entry a flag, by name: "  --name VALUE" and the usage,
// wrapped at 80 columns, with the default when the usage does not say it.
// A flag defined by several flag sets (a subcommand's) is listed once.
func flagList(sets ...*flag.FlagSet) string {
	seen := map[string]bool{}
	var flags []*flag.Flag
	for _, fs := range sets {
		fs.VisitAll(func(f *flag.Flag) {
			if !seen[f.Name] {
				seen[f.Name] = true
				flags = append(flags, f)
			}
		})
	}
	sort.Slice(flags, func(i, j int) bool { return flags[i].Name < flags[j].Name })
	const col, width = 24, 80
	var b strings.Builder
	for _, f := range flags {
		arg, usage := flag.UnquoteUsage(f)
		if isBoolFlag(f) {
			arg = ""
		}
		if !strings.Contains(usage, "default") && !zeroDefault(f.DefValue) {
			usage += " (default " + f.DefValue + ")"
		}
		left := "  --" + f.Name
		if arg != "" {
			left += " " + arg
		}
		b.WriteString(left)
		pad := col - len(left)
		if pad < 2 {
			b.WriteString("\n")
			pad = col
		}
		line := col
		b.WriteString(strings.Repeat(" ", pad))
		for i, w := range strings.Fields(usage) {
			if i > 0 && line+1+len(w) > width {
				b.WriteString("\n" + strings.Repeat(" ", col))
				line = col
			} else if i > 0 {
				b.WriteString(" ")
				line++
			}
			b.WriteString(w)
			line += len(w)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func zeroDefault(v string) bool {
	switch v {
	case "", "0", "false", "0s", "-1", "[]":
		return true
	}
	return false
}

// commandFlagSets returns the flag sets a command defines, and each of its
// subcommands.
func commandFlagSets(name string) []*flag.FlagSet {
	sets := flagSetsOf(name)
	for _, sub := range subcommands[name] {
		sets = append(sets, flagSetsOf(name, sub)...)
	}
	return sets
}

// flagSetsOf runs a command line with --help, which parses no other flag and
// runs nothing, and returns the flag sets it made.
func flagSetsOf(args ...string) []*flag.FlagSet {
	var sets []*flag.FlagSet
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, flagSets: &sets}
	_ = run(context.Background(), append(append([]string(nil), args...), "--help"), env)
	return sets
}
