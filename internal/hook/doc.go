// Package hook is ralph-gate's git pre-push hook: the script it installs, its
// installation beside a hook that was already there, and the reading of what
// git is about to push.
//
// A pre-push hook is the last point where a person's machine can stop an
// agent's regression before anyone else sees it, so the hook must be cheap
// (static analysis only, unless the configuration asks for more), must never
// lose a hook the user had, and must say how to push anyway.
//
//   - HooksDir asks git where it runs hooks (.git/hooks, the common directory's
//     for a linked worktree, or core.hooksPath).
//   - Install writes Script, a POSIX sh script that runs
//     `ralph-gate hook pre-push "$1" "$2"` with git's input; a hook already in
//     place is moved to ChainedName and run first with the same arguments and
//     input (its failure refuses the push), or, with force, moved to
//     BackupName and not run. Installing twice changes nothing. Uninstall puts
//     the earlier hook back, byte for byte.
//   - ParseRefLines reads git's input, one RefUpdate per line;
//     FromPreCommitEnv rebuilds one from the pre-commit framework's
//     PRE_COMMIT_* variables, which it sets instead of passing git's input.
//   - Planner.Plan turns each update into the range to check (a Target), and
//     WriteSummary tells the person what was checked and what blocks.
//
// The analysis itself is the analyze command's (or compare's, when
// .ralph-gate.yml asks for hook: {collect: true}); internal/cli wires them.
package hook
