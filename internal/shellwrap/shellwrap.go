// Package shellwrap knows the commands that run another command and pass
// its exit status on: env, sudo and doas, time, timeout, nice, ionice,
// nohup, setsid, stdbuf, chronic, exec, command, builtin, xvfb-run, dotenv,
// npx and its kin, and `uv run` with the other project runners. It is the
// one list the CI analysis, the guard and the agent clients look through,
// so that a command wrapped in one of them reads as the command itself
// everywhere.
package shellwrap

import (
	"path"
	"strings"
)

// valued are each wrapper's options that take the next word as their value
// (sudo -u root, nice -n 10, timeout -s KILL); other options stand alone.
var valued = map[string]map[string]bool{
	"sudo":     {"-u": true, "-g": true, "-C": true, "-h": true, "-p": true, "-U": true, "-r": true, "-t": true, "-D": true},
	"doas":     {"-u": true, "-C": true},
	"nice":     {"-n": true},
	"ionice":   {"-c": true, "-n": true, "-p": true, "-P": true, "-u": true},
	"stdbuf":   {"-i": true, "-o": true, "-e": true},
	"timeout":  {"-s": true, "-k": true, "--signal": true, "--kill-after": true},
	"xvfb-run": {"-n": true, "-s": true, "-f": true, "-e": true, "-p": true, "-w": true, "--server-num": true, "--server-args": true, "--auth-file": true, "--error-file": true, "--xauth-protocol": true, "--wait": true},
	"dotenv":   {"-e": true, "-v": true, "-c": true},
	"npx":      {"-p": true, "--package": true},
	"env":      {"-u": true, "--unset": true, "-C": true, "--chdir": true, "-S": true, "--split-string": true},
}

// wrappers run the command after their options.
var wrappers = map[string]bool{
	"env": true, "sudo": true, "doas": true, "time": true, "timeout": true, "nice": true, "ionice": true,
	"nohup": true, "setsid": true, "stdbuf": true, "chronic": true, "exec": true, "command": true, "builtin": true,
	"xvfb-run": true, "dotenv": true, "npx": true, "bunx": true, "pnpx": true,
}

// runners run the command after their subcommand: uv run, poetry run,
// pipenv run, pdm run, hatch run, bundle exec.
var runners = map[string]bool{"uv": true, "poetry": true, "pipenv": true, "pdm": true, "hatch": true, "bundle": true}

// Name is the command a word names: its base name, without a Windows .exe.
func Name(word string) string {
	return strings.TrimSuffix(path.Base(word), ".exe")
}

// Skip returns how many leading words belong to the wrapper the first word
// names, with its options and their values, env's assignments, timeout's
// duration, or a runner's subcommand: words[n:] is the command it runs. ok
// is false when the first word runs no other command (no wrapper, `command
// -v` looking a name up, `uv pip`), and n is then 0. val reads a word.
func Skip[T any](words []T, val func(T) string) (n int, ok bool) {
	if len(words) == 0 {
		return 0, false
	}
	name := Name(val(words[0]))
	if runners[name] {
		if len(words) > 1 && (val(words[1]) == "run" || val(words[1]) == "exec") {
			return 2, true
		}
		return 0, false
	}
	if !wrappers[name] {
		return 0, false
	}
	n = 1
	for n < len(words) {
		w := val(words[n])
		if name == "env" && !strings.HasPrefix(w, "-") && strings.Contains(w, "=") {
			n++ // an assignment
			continue
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			break
		}
		n++
		if w == "--" {
			break
		}
		if (name == "command" || name == "builtin") && (w == "-v" || w == "-V") {
			return 0, false // a lookup, not a run
		}
		if valued[name][w] && n < len(words) {
			n++
		}
	}
	if name == "timeout" && n < len(words) {
		n++ // the duration
	}
	return n, true
}

// Unwrap drops every wrapper from the front of a command's words.
func Unwrap(words []string) []string {
	for {
		n, ok := Skip(words, func(s string) string { return s })
		if !ok || n == 0 {
			return words
		}
		words = words[n:]
	}
}
