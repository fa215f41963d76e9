package cli

const mainHelp = `ralph-gate: the regression gate for AI coding agents.

It reads what an agent's commits changed and reports when tests were deleted or
skipped, assertions weakened, errors suppressed, checks bypassed or features
removed, and blocks on what reaches the fail-on severity.

Usage:
  ralph-gate <command> [flags] [arguments]

Commands:
  analyze    analyze a git range or a patch statically (reads git objects only)
  version    print the version
  help       show help for a command

Exit codes: 0 pass (or warn), 1 the gate blocked, 2 usage, configuration or
input error, 3 internal error.

Run 'ralph-gate help <command>' for a command's flags.
`

var commandHelp = map[string]string{
	"analyze": `Usage:
  ralph-gate analyze [--repo DIR] [--format F] [--fail-on SEV] [BASE [HEAD]]
  ralph-gate analyze [--format F] [--fail-on SEV] --patch FILE|-

Analyzes every commit of BASE..HEAD against its first parent, and the net change
BASE..HEAD, for the regression patterns agents use to pass: deleted or skipped
tests, weakened assertions, suppressed errors, loosened CI and coverage settings,
removed public API. It runs nothing and reads git objects only: the working tree,
index and HEAD are never touched.

A finding some commit introduced that no longer holds at HEAD (a test deleted and
later restored) is reported with net=false and never blocks.

Arguments:
  BASE   default: the merge-base of HEAD with the default branch
         (origin/HEAD, else origin/main, origin/master, main, master)
  HEAD   default: HEAD

Flags:
  --repo DIR        the repository (default: the current directory)
  --format F        text (default), json, markdown, sarif, github
  --fail-on SEV     critical, high (default), medium, low, none; the config's
                    fail_on applies when the flag is not given
  --patch FILE|-    analyze a unified diff (a file, or - for stdin) instead of a
                    range; no repository needed

Configuration: .ralph-gate.yml is read from BASE's tree (for --patch, from HEAD's
when run inside a repository), never from the working tree.

Examples:
  ralph-gate analyze origin/main HEAD
  ralph-gate analyze --format json main
  git diff | ralph-gate analyze --patch -
`,
	"version": `Usage:
  ralph-gate version

Prints the version.
`,
	"help": `Usage:
  ralph-gate help [command]
`,
}
