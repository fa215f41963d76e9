package cli

const mainHelp = `ralph-gate: the regression gate for AI coding agents.

It reads what an agent's commits changed and reports when tests were deleted or
skipped, assertions weakened, errors suppressed, checks bypassed or features
removed, and blocks on what reaches the fail-on severity.

Usage:
  ralph-gate <command> [flags] [arguments]

Commands:
  init       set ralph-gate up in a repository: config, workflows, hook
  analyze    analyze a git range or a patch statically (reads git objects only)
  compare    analyze, and measure tests, coverage, type and lint errors at both ends
  action     run as a GitHub Action step (inputs from INPUT_* variables)
  hook       install, uninstall or run the git pre-push hook; the pre-commit check
  guard      Claude Code hooks that judge an agent's every tool call
  waive      print the config entry that lets a reviewed finding through
  rules      list the rules findings are raised by (docs/rules.md)

Loop commands (one git commit per agent iteration):
  run        run the agent in a loop (claude, codex, or any command), gated
             every iteration, budgeted, ending on the best iteration
  start      start a loop at HEAD: measure the baseline, tag iter-000
  record     record HEAD as the next iteration: measure, score, decide
  prompt     print the reinforcement text for the next iteration
  status     show a loop (or --all): metrics, regressions, quality trajectory
  analytics  the iteration analytics report (text, json, csv)
  best       select the best iteration; --checkout checks out its tag
  pause, resume, abort     change a loop's status
  approve, reject          decide on a blocked iteration
  repair     rebuild a loop's state.json from its journal

  version    print the version and the revision it was built from
  completion print a shell completion script: bash, zsh or fish
  help       show help for a command

Exit codes: 0 pass (or warn), 1 the gate blocked, 2 usage, configuration or
input error, 3 internal error, 130 interrupted by Ctrl-C or SIGTERM once cleaned
up (run pauses its loop); record and run also exit 4 when the loop stopped
without completion.

Run 'ralph-gate help <command>' for a command's flags.
`

// commandHelp holds each command's help text, filled by register.
var commandHelp = map[string]string{}

// analyzeHelp is the help of analyze.
const analyzeHelp = `Usage:
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

Configuration: .ralph-gate.yml is read from BASE's tree (for --patch, from the
default branch's tip inside a repository, or --config FILE), never from HEAD's
branch or the working tree.

Examples:
  ralph-gate analyze origin/main HEAD
  ralph-gate analyze --format json main
  git diff | ralph-gate analyze --patch -
`

// compareHelp is the help of compare.
const compareHelp = `Usage:
  ralph-gate compare [--repo DIR] [--format F] [--fail-on SEV] [--config FILE]
                     [--report KIND=GLOB]... [--base-report KIND=GLOB]...
                     [--collect auto|none] [--no-cache] [--all-packages]
                     [--allow-missing] [--no-tamper-check] [--no-witness]
                     [--mutation] [BASE [HEAD]]

compare = analyze + measured metrics. For BASE and HEAD it obtains the test ids
and outcomes, coverage (overall and per file), type-check and lint errors, file
count, lines of code and complexity, and reports what got worse: tests that ran
at BASE and not at HEAD, tests that passed and are now skipped, coverage that
dropped beyond the tolerance (0.5 points overall, 5 on a changed file).

Each end is measured from report files (--report for HEAD, --base-report for
BASE; a glob's files are merged, as shards of a CI matrix are) or, without
them, by running the project's collectors in a temporary worktree: the
working tree, index, HEAD, stash and branches are never touched. Collectors are
detected from BASE's tree (go.mod, package.json with vitest or jest, tsconfig,
pytest, golangci-lint, eslint, ruff) or given in .ralph-gate.yml. Results are
cached under .git/ralph-gate/ by tree, collector configuration and tool
versions.

Only what the range can affect runs, at both ends: for go test, the packages
that own a changed file and every package that imports one of them (BASE's
import graph, from go list -deps), plus packages whose code names a parent
directory; for vitest and jest, the changed JavaScript workspaces and the ones
depending on them; for pytest, the changed test files. A change to go.mod, a
lockfile or a file outside every workspace measures everything. Unaffected Go
packages are carried from the cache (per package, by the contents they are
built from) or left out, as the notes say; --all-packages measures everything.

The tamper check runs BASE's versions of the test files the range modified or
deleted against HEAD's code: a test that passed at BASE and fails there while
HEAD's edited version passes shows that the edit covers a behaviour change.

The witness runs HEAD's versions of the tests the range added or edited (with
HEAD's test support: testdata, fixtures, snapshots, test helpers) against
BASE's production code, when the range changes production code. Each such test
is witnessed (fails on BASE's code, or does not build there, and passes at
HEAD), not_witnessing (passes on BASE's code too: it does not exercise the
change), broken (fails at HEAD) or unmeasured. When none is witnessed, the
change is pinned by no test: an unverified finding, unwitnessed-change, medium
unless compare.witness_severity says otherwise. --no-witness or
compare.witness: off switches it off.

--mutation (or mutation.enabled: true) breaks the change on purpose: each
production line the range added or changed and HEAD's tests cover gets at most
one mutant (a comparison with an integer literal moved across its boundary,
one between computed values inverted, a condition negated, && and || swapped, an arithmetic operator swapped, a result replaced
by its zero value, a call removed), chosen the same way every time; logging,
error plumbing, defers and plain accessors get none (mutation.arid adds
patterns). The affected tests run against each mutant in a worktree of its own
(for Go the mutated package and the range's test packages; for Python and
JavaScript the language's test collectors), mutation.jobs at a time. A mutant
no test notices is an unverified finding, mutant-survived, naming the line and
the change (medium, or mutation.severity; low in a change of more than
mutation.large_change lines). The score (killed over judged) and every mutant
are in the report. No mutant starts once mutation.budget is spent (default
10x the affected tests' run time, at least a minute; or a duration): the
report says how many the budget cut. The pre-push hook does not mutate unless
mutation.enabled is true; run does unless it is false.

Missing data fails closed: an end with no test results exits 2 naming what is
missing ("no tests ran" is never a pass) unless --allow-missing.

Report kinds: gotest, junit, coverprofile, lcov, cobertura, sarif, checkstyle,
eslint, golangci, tsc, cargotest, maven, gradle.

Flags:

Examples:
  ralph-gate compare origin/main HEAD
  ralph-gate compare --report junit='out/*.xml' --report lcov=coverage/lcov.info origin/main HEAD
  ralph-gate compare --format markdown BASE HEAD >comment.md
`

// versionHelp is the help of version.
const versionHelp = `Usage:
  ralph-gate version

Prints the version.
`

// helpHelp is the help of help.
const helpHelp = `Usage:
  ralph-gate help [command]
`
