// Package ghaction is ralph-gate's GitHub Actions edge: what `ralph-gate action`
// needs to know about the runner and to say to it, and nothing of the analysis.
//
//   - Step is the action step itself: it reads the inputs and the event,
//     has the range measured by its Compare function (the compare command's
//     work, handed in by the CLI), decides the verdict with BASE's
//     configuration, and writes the log, annotations, summary, report files,
//     comment and outputs; with report-from it posts a measure job's report
//     instead. It reads the runner's variables through Getenv and the
//     collectors' environment through Environ, never the process's.
//   - ReadInputs reads the action's inputs as the runner passes them, from
//     INPUT_<NAME> variables (upper case, hyphens kept: INPUT_FAIL-ON).
//   - ReadEvent reads GITHUB_EVENT_NAME and the payload at GITHUB_EVENT_PATH
//     (pull_request, pull_request_target, push, workflow_dispatch, merge_group);
//     Event.Spec turns it and the inputs into the range to check.
//   - Resolve finds that range in the checkout, fetching more history with the
//     real git when the clone is shallow (actions/checkout fetches one commit by
//     default), and fails with one line asking for fetch-depth: 0 when the
//     remote cannot supply it.
//   - SelectAnnotations keeps the findings GitHub will show as annotations (10
//     errors and 10 warnings per step); WriteSummary writes the job summary: the
//     verdict and the approval, the findings, the metrics, the commits with the
//     trajectory (CommitScore, ScoreFormula) as a mermaid chart, and the findings
//     left without an annotation.
//   - Comments creates or updates the one pull request comment that carries
//     CommentMarker, through the REST API at GITHUB_API_URL.
//   - Runner is the thin edge over github.com/sethvargo/go-githubactions that
//     writes workflow commands, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, only when
//     GITHUB_ACTIONS is "true"; Verbatim prints the agent's text (commit
//     subjects, test names) with workflow commands stopped.
//
// The runner's variables are read through a getenv function and output goes
// to writers given as arguments, so tests drive it with maps and buffers; only
// the git that Resolve runs inherits the process's environment.
package ghaction
