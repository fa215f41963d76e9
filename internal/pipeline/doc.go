// Package pipeline is the one measuring pipeline behind every verdict that
// runs things: compare, the GitHub Action, the pre-push hook (with collect on)
// and the loop's record all call it, so a fix lands everywhere at once.
//
// A comparison of BASE..HEAD reads the range's commits (static analysis,
// gitrange), measures both ends (report files, or the collectors in
// temporary worktrees, through the cache), compares the measurements
// (analyze.MetricFindings: deletions, skips, test regressions, coverage),
// runs the tamper check (BASE's versions of the edited tests against HEAD's
// code), and merges everything into one list of findings attributed to
// commits. Deciding the verdict and rendering stay with the caller, which
// knows its --fail-on and its format.
//
// Missing or unreadable evidence is never read as "no regression": an end
// with no test results is an InputError unless AllowMissing, a tamper check
// that cannot run is an unverified finding, and Result.Tamper says why it
// did not run.
package pipeline
