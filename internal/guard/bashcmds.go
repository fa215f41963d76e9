package guard

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/agent/clients"
	"github.com/ralph-gate/ralph-gate/internal/shellwrap"

	"mvdan.cc/sh/v3/syntax"
)

// call judges one simple command.
func (s *shellCheck) call(ce *syntax.CallExpr, producer *syntax.Stmt, depth int) {
	args := s.words(ce.Args)
	if len(args) == 0 {
		for _, a := range ce.Assigns {
			if a.Name != nil {
				s.setVar(a.Name.Value, a.Value)
			}
		}
	}
	isGit := len(args) > 0 && !args[0].dyn && cmdName(args[0].val) == "git"
	for _, a := range ce.Assigns {
		if a.Name != nil {
			s.assign(a.Name.Value, a.Value, isGit || len(args) == 0)
		}
	}
	s.argv(args, producer, depth)
}

// cmdName is the command a word runs: /bin/rm and \rm are rm.
func cmdName(v string) string {
	return path.Base(strings.ReplaceAll(v, "\\", "/"))
}

// assign judges a variable assignment: the variables that switch git's hooks
// or ralph-gate's own check off. forGit is set when the assignment is made
// for a git command (or exported), where pre-commit's and husky's skip
// variables act.
func (s *shellCheck) assign(name string, value *syntax.Word, forGit bool) {
	v := ""
	if value != nil {
		v = word(value).val
	}
	upper := strings.ToUpper(name)
	switch {
	case upper == "RALPH_GATE_SKIP":
		s.deny("RALPH_GATE_SKIP switches ralph-gate's pre-push check off; only a human may skip it. Push without it and fix what the check reports.")
	case strings.HasPrefix(upper, "GIT_CONFIG_KEY_") && strings.EqualFold(strings.TrimSpace(v), "core.hooksPath"),
		upper == "GIT_CONFIG_PARAMETERS" && strings.Contains(strings.ToLower(v), "core.hookspath"):
		s.deny("setting core.hooksPath through %s skips the repository's git hooks; run git without it.", name)
	case forGit && (upper == "HUSKY" && v == "0" || upper == "HUSKY_SKIP_HOOKS" || upper == "SKIP" && v != "" || upper == "PRE_COMMIT_ALLOW_NO_CONFIG"):
		s.deny("%s skips the repository's git hooks; run git without it and fix what the hooks report.", name)
	}
}

// argv judges a command by its words, looking through the commands that run
// another command.
func (s *shellCheck) argv(args []arg, producer *syntax.Stmt, depth int) {
	for len(args) > 0 {
		if args[0].dyn {
			return
		}
		name := cmdName(args[0].val)
		rest := args[1:]
		switch name {
		case "env":
			rest = s.envArgs(rest, depth)
		case "npx", "bunx", "pnpx":
			s.command(name, rest, depth) // the package it runs, with its version
			return
		case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh":
			s.shell(rest, depth)
			return
		case "eval":
			var parts []string
			for _, a := range rest {
				if a.dyn {
					return
				}
				parts = append(parts, a.val)
			}
			s.script(strings.Join(parts, " "), depth+1)
			return
		case "xargs":
			s.xargs(rest, producer, depth)
			return
		case "cd", "pushd":
			if len(rest) == 1 && !rest[0].dyn {
				s.cwd = s.resolve(rest[0].val).Abs
			}
			return
		default:
			// A wrapper (shellwrap: sudo, nice -n 10, timeout 5, command,
			// uv run, ...) runs the words after its own.
			n, ok := shellwrap.Skip(args, wrapWord)
			if !ok {
				s.command(name, rest, depth)
				return
			}
			rest = args[n:]
		}
		args = rest
	}
}

// wrapWord is a word as shellwrap reads it: a word whose value is not
// known is no option, assignment or duration.
func wrapWord(a arg) string {
	if a.dyn {
		return "\x00"
	}
	return a.val
}

// skipOptions drops leading options; those in withValue take the next word.
func skipOptions(args []arg, withValue map[string]bool) []arg {
	for len(args) > 0 && strings.HasPrefix(args[0].val, "-") && !args[0].dyn {
		o := args[0].val
		args = args[1:]
		if o == "--" {
			break
		}
		if withValue[o] && len(args) > 0 {
			args = args[1:]
		}
	}
	return args
}

// envArgs skips env's options and assignments (judging them) and returns the
// command it runs.
func (s *shellCheck) envArgs(args []arg, depth int) []arg {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a.val == "-u" || a.val == "--unset" || a.val == "-C" || a.val == "--chdir":
			if len(args) > 1 {
				args = args[1:]
			}
		case a.val == "-S" || a.val == "--split-string":
			if len(args) > 1 && !args[1].dyn {
				s.script(args[1].val, depth+1)
			}
			return nil
		case a.val == "--":
			return args[1:]
		case strings.HasPrefix(a.val, "-"):
		case strings.Contains(a.val, "=") && !strings.HasPrefix(a.val, "="):
			name, v, _ := strings.Cut(a.val, "=")
			s.assign(name, &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: v}}}, true)
		default:
			return args
		}
		args = args[1:]
	}
	return nil
}

// shell follows sh -c SCRIPT.
func (s *shellCheck) shell(args []arg, depth int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dyn {
			return
		}
		if a.val == "--" || !strings.HasPrefix(a.val, "-") && !strings.HasPrefix(a.val, "+") {
			return // a script file: not followed
		}
		if a.val == "-o" || a.val == "+o" {
			i++
			continue
		}
		if !strings.HasPrefix(a.val, "--") && strings.Contains(a.val, "c") {
			if i+1 < len(args) && !args[i+1].dyn {
				s.script(args[i+1].val, depth+1)
			}
			return
		}
	}
}

// xargs judges the command xargs runs, with the items it reads taken from
// the command at the left of the pipe when that names test files.
func (s *shellCheck) xargs(args []arg, producer *syntax.Stmt, depth int) {
	replace := ""
	for len(args) > 0 && strings.HasPrefix(args[0].val, "-") && !args[0].dyn {
		o := args[0].val
		args = args[1:]
		switch {
		case o == "--":
			goto run
		case o == "-I" || o == "-n" || o == "-L" || o == "-P" || o == "-d" || o == "-a" || o == "-E" || o == "-s" || o == "--arg-file" || o == "--delimiter" || o == "--max-args" || o == "--max-procs":
			if o == "-I" && len(args) > 0 {
				replace = args[0].val
			}
			if len(args) > 0 {
				args = args[1:]
			}
		case strings.HasPrefix(o, "-I") && len(o) > 2:
			replace = o[2:]
		case strings.HasPrefix(o, "--replace"):
			replace = "{}"
			if _, v, ok := strings.Cut(o, "="); ok {
				replace = v
			}
		}
	}
run:
	if len(args) == 0 {
		args = []arg{{val: "echo"}}
	}
	items := s.producedTests(producer)
	if len(items) == 0 {
		// Unknown items: judge the command by its own words only.
		s.argv(args, nil, depth)
		return
	}
	if replace != "" {
		var out []arg
		for _, a := range args {
			out = append(out, arg{val: strings.ReplaceAll(a.val, replace, items[0]), dyn: a.dyn})
		}
		s.argv(out, nil, depth)
		return
	}
	full := append([]arg(nil), args...)
	for _, it := range items {
		full = append(full, arg{val: it})
	}
	s.argv(full, nil, depth)
}

// producedTests names the test files a command at the left of a pipe lists:
// find's matches, or test files and patterns named in its words (ls, git
// ls-files, grep -l, printf).
func (s *shellCheck) producedTests(st syntax.Node) []string {
	if st == nil || st == (*syntax.Stmt)(nil) {
		return nil
	}
	var out []string
	syntax.Walk(st, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		args := s.words(ce.Args)
		if len(args) == 0 || args[0].dyn {
			return true
		}
		if cmdName(args[0].val) == "find" {
			out = append(out, s.findMatches(args[1:])...)
			return true
		}
		for _, a := range args[1:] {
			if a.dyn && len(a.alts) == 0 || strings.HasPrefix(a.val, "-") {
				continue
			}
			for _, p := range s.paths(a) {
				t := s.resolve(p)
				out = append(out, s.testsUnder(t, true)...)
				if !t.Inside() && isTestPath(strings.TrimPrefix(p, "./")) {
					out = append(out, p)
				}
			}
		}
		return true
	})
	return out
}

// command judges a command that is not a wrapper.
func (s *shellCheck) command(name string, args []arg, depth int) {
	if c := clientOf(name); c != nil {
		s.nestedAgent(c)
		return
	}
	switch name {
	case "rm", "unlink", "shred", "srm", "trash", "trash-put", "gio":
		s.remove(name, args)
	case "mv":
		s.move("mv", args)
	case "cp", "install", "ln", "rsync", "dd", "tee", "truncate", "sed", "perl", "patch", "chmod":
		s.write(name, args)
	case "find":
		s.find(args, depth)
	case "git":
		s.git(args, depth)
	case "ralph-gate":
		s.ralphGate(args)
	case "go":
		// go run ./cmd/ralph-gate approve
		if len(args) > 1 && args[0].val == "run" {
			for i, a := range args[1:] {
				if !strings.HasPrefix(a.val, "-") {
					if strings.HasSuffix(strings.TrimSuffix(strings.SplitN(a.val, "@", 2)[0], "/"), "ralph-gate") {
						s.ralphGate(args[i+2:])
					}
					break
				}
			}
		}
	case "npx", "bunx", "pnpx":
		rest := skipOptions(args, nil)
		if len(rest) == 0 {
			break
		}
		pkg := cmdName(strings.SplitN(strings.TrimPrefix(rest[0].val, "@"), "@", 2)[0])
		if strings.HasPrefix(pkg, "ralph-gate") {
			s.ralphGate(rest[1:])
		} else if c := clientOf(pkg); c != nil {
			s.nestedAgent(c)
		}
	}
}

// ralphGate denies the commands only a human may run.
func (s *shellCheck) ralphGate(args []arg) {
	var pos []string
	for _, a := range args {
		if !strings.HasPrefix(a.val, "-") {
			pos = append(pos, a.val)
		}
	}
	if len(pos) == 0 {
		return
	}
	sub := pos[0]
	switch {
	case sub == "approve" || sub == "reject" || sub == "abort" || sub == "repair" || sub == "pause" || sub == "resume":
		s.deny("'ralph-gate %s' is a human's decision, not an agent's; stop and say what needs deciding.", sub)
	case sub == "guard" && len(pos) > 1 && pos[1] == "install" && hasWord(args, "--uninstall", "-uninstall"):
		s.deny("'ralph-gate guard install --uninstall' removes the guard; only a human may do that.")
	case sub == "hook" && len(pos) > 1 && pos[1] == "uninstall":
		s.deny("'ralph-gate hook uninstall' removes the pre-push check; only a human may do that.")
	}
}

func hasWord(args []arg, ws ...string) bool {
	for _, a := range args {
		for _, w := range ws {
			if a.val == w || strings.HasPrefix(a.val, w+"=") {
				return true
			}
		}
	}
	return false
}

// clientOf returns the agent client a program name starts (nil: none).
func clientOf(name string) agent.Client {
	name = strings.TrimSuffix(name, ".exe")
	for _, c := range clients.All {
		if c.Runs(name) {
			return c
		}
	}
	return nil
}

// nestedAgent refuses a command that starts an agent client: its tool calls
// would run outside the guard (a client started by hand reads no hooks
// that trust ralph-gate, or is told to skip them), so whatever it did to
// the tests would be judged only after the fact.
func (s *shellCheck) nestedAgent(c agent.Client) {
	s.deny("the command starts %s, another agent whose tool calls this guard would not see; do the work with your own tools.", c.Title())
}
