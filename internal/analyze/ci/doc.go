// Package ci reads a repository's CI and the configuration of its checks,
// and reports a change that loosens them: what its workflows, Makefiles,
// package scripts and shell scripts run, when they run it, and whether a
// check's failure still fails the build.
//
// Package analyze hands each changed file over as a File (its paths,
// contents and blob keys on both sides, and whether a side is a test file)
// and calls a Checker, which keeps what it read of each file version for a
// whole range (see analyze's ci.go). Findings are built from the rule
// catalogue with gate.NewFinding.
//
// Which file holds what:
//
//   - ciconfig.go: the line rules of a file that holds the checking
//     machinery (Classify names its kind): `|| true`, `set +e`,
//     continue-on-error and `if: false`, skipped or filtered tests, allowed
//     failures, lowered thresholds and retries (Checker.Config); the rules
//     that read the whole change (Checker.ChangeWide: test commands removed,
//     strictness lowered, filters, disabled jobs); the gate's own
//     configuration (Checker.GateConfig).
//   - ciprogram.go: CI read as a program: the scripts of a workflow's steps,
//     a Makefile's recipes, package.json's scripts and shell scripts are
//     parsed, and a check whose status no longer decides the build, or a
//     workflow that no longer runs on pull requests, is reported
//     (Checker.Programs, DedupePrograms).
//   - shellexit.go: a shell script's exit status followed through -e,
//     pipefail, `||`, `if`, `&`, exit and subshells: which of its checks
//     still decide its result.
//   - citests.go: the checks CI runs, read as one program across its files
//     (a workflow's `make test` runs what the Makefile's test target runs),
//     so a check that moved to another file is not lost.
//   - cifilters.go: a test run's selection read from its command line (the
//     runner's filters and the paths it names): a run that became filtered,
//     or a test directory no run names any more.
//   - cijobs.go: GitHub Actions jobs and steps switched off with `if: false`.
//   - ghif.go: a GitHub Actions `if:` evaluated for a pull_request run: a
//     job or step whose condition is false there gates nothing.
//   - offpath.go: workflows, jobs and GitLab rules that only a schedule or a
//     person starts, so that a check loosened there gates no change.
//   - cisteps.go: the test steps a workflow runs on a pull request (Step,
//     TestSteps), for the pipeline to run CI's own test commands.
//   - baseci.go: the CI of a change's base, read on first use (Base).
//   - typecheck.go: a type checker's strictness (mypy, tsc) read as the
//     checker reads its configuration.
//   - pyconfig.go: Python's configuration files (INI and TOML) read as the
//     tools read them.
//   - textmemo.go: what was read of a file's text, kept by the text across
//     a range.
//   - text.go: helpers of the findings' texts, shared with package analyze.
package ci
