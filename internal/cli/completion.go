package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"
)

func init() {
	register("completion", completionHelp, runCompletion)
}

const completionHelp = `Usage:
  ralph-gate completion bash|zsh|fish

Prints a shell completion script for ralph-gate's commands, their
subcommands and their flags. Load it with:

  bash   source <(ralph-gate completion bash)      (in ~/.bashrc)
  zsh    source <(ralph-gate completion zsh)       (in ~/.zshrc, after compinit)
  fish   ralph-gate completion fish > ~/.config/fish/completions/ralph-gate.fish
`

// subcommands lists the words the commands that take one accept; a test
// checks each against the command's own dispatch.
var subcommands = map[string][]string{
	"hook":  {"install", "uninstall", "pre-push", "pre-commit"},
	"guard": {"install", "pre-tool-use", "post-tool-use", "stop"},
}

// commandNames lists every command, sorted.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// commandFlags is the flags ("--name") a command line defines, read from
// the flag sets the command makes when asked for its help: the flags a
// command parses are the ones completed.
func commandFlags(args ...string) []string {
	var out []string
	for _, fs := range flagSetsOf(args...) {
		fs.VisitAll(func(f *flag.Flag) { out = append(out, "--"+f.Name) })
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func runCompletion(_ context.Context, args []string, env Env) error {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		if len(args) == 1 {
			fmt.Fprint(env.Stdout, completionHelp)
			return nil
		}
		return usagef("completion: want one shell: bash, zsh or fish")
	}
	cmds := commandNames()
	type entry struct {
		words []string // subcommands, then flags
	}
	table := map[string]entry{}
	for _, c := range cmds {
		if c == "help" || c == "version" || c == "completion" {
			continue
		}
		words := append([]string{}, subcommands[c]...)
		words = append(words, commandFlags(c)...)
		for _, sub := range subcommands[c] {
			for _, f := range commandFlags(c, sub) {
				if !slices.Contains(words, f) {
					words = append(words, f)
				}
			}
		}
		table[c] = entry{words}
	}
	switch args[0] {
	case "bash":
		fmt.Fprint(env.Stdout, "# bash completion for ralph-gate (ralph-gate completion bash)\n_ralph_gate() {\n")
		fmt.Fprint(env.Stdout, "  local cur=${COMP_WORDS[COMP_CWORD]} words\n  if [ \"$COMP_CWORD\" -eq 1 ]; then\n")
		fmt.Fprintf(env.Stdout, "    words=%q\n  else\n    case ${COMP_WORDS[1]} in\n", strings.Join(cmds, " "))
		for _, c := range cmds {
			if e, ok := table[c]; ok && len(e.words) > 0 {
				fmt.Fprintf(env.Stdout, "    %s) words=%q ;;\n", c, strings.Join(e.words, " "))
			}
		}
		fmt.Fprint(env.Stdout, "    help) words=\""+strings.Join(cmds, " ")+"\" ;;\n    completion) words=\"bash zsh fish\" ;;\n    *) words= ;;\n    esac\n  fi\n")
		fmt.Fprint(env.Stdout, "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -o default -F _ralph_gate ralph-gate\n")
	case "zsh":
		fmt.Fprint(env.Stdout, "#compdef ralph-gate\n# zsh completion for ralph-gate (ralph-gate completion zsh)\n_ralph_gate() {\n")
		fmt.Fprintf(env.Stdout, "  if (( CURRENT == 2 )); then\n    compadd -- %s\n    return\n  fi\n  case $words[2] in\n", strings.Join(cmds, " "))
		for _, c := range cmds {
			if e, ok := table[c]; ok && len(e.words) > 0 {
				fmt.Fprintf(env.Stdout, "    %s) compadd -- %s ;;\n", c, strings.Join(e.words, " "))
			}
		}
		fmt.Fprintf(env.Stdout, "    help) compadd -- %s ;;\n    completion) compadd -- bash zsh fish ;;\n    *) _files ;;\n  esac\n}\ncompdef _ralph_gate ralph-gate\n", strings.Join(cmds, " "))
	case "fish":
		fmt.Fprint(env.Stdout, "# fish completion for ralph-gate (ralph-gate completion fish)\n")
		fmt.Fprintf(env.Stdout, "complete -c ralph-gate -f -n '__fish_use_subcommand' -a %q\n", strings.Join(cmds, " "))
		for _, c := range cmds {
			e, ok := table[c]
			if !ok {
				continue
			}
			for _, w := range e.words {
				if strings.HasPrefix(w, "--") {
					fmt.Fprintf(env.Stdout, "complete -c ralph-gate -n '__fish_seen_subcommand_from %s' -l %s\n", c, strings.TrimPrefix(w, "--"))
				} else {
					fmt.Fprintf(env.Stdout, "complete -c ralph-gate -f -n '__fish_seen_subcommand_from %s' -a %s\n", c, w)
				}
			}
		}
		fmt.Fprint(env.Stdout, "complete -c ralph-gate -f -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	default:
		return usagef("completion: unknown shell %q: want bash, zsh or fish", args[0])
	}
	return nil
}
