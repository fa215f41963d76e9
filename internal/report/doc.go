// Package report renders a gate.Report for people and machines, in seven formats:
//
//   - text: a terminal summary (commit timeline, net findings by severity, notes,
//     metrics, verdict), coloured only when asked;
//   - json: the contract's report (schema "ralph-gate/report/v1");
//   - markdown: a pull-request comment that stays under GitHub's size limit;
//   - sarif: SARIF 2.1.0 for GitHub code scanning;
//   - github: GitHub Actions workflow commands (annotations) and a summary line;
//   - codeclimate: GitLab Code Quality's report (the Code Climate issue subset);
//   - rdjson: reviewdog's Diagnostic Format, for reviewdog -f=rdjson.
//
// Renderers only present what the report holds: the verdict comes from the report
// (or, when it is empty, from gate.Decide), and net, transient and suppressed
// findings are told apart the same way in every format. Every format but json,
// which carries the data as found, shows files as slash-separated paths relative
// to the repository root.
package report
