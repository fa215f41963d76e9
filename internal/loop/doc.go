// Package loop gates a Ralph loop: the same task run by an agent again and
// again, one commit per iteration, until a completion command passes.
//
// A loop starts at a baseline (Start: measured with the collectors, the
// completion command run once, HEAD tagged ralph/{loop_id}/iter-000) and
// records each iteration (Record). Record reads top to bottom as its steps:
//
//   - admit: the loop can record now (no pending human decision, not paused)
//     and HEAD is a new commit on top of the last one;
//   - measure: the measuring pipeline compare uses (internal/pipeline), on
//     the iteration and on the net change since the baseline;
//   - completion: the completion command in a clean worktree of HEAD;
//   - historyEvidence: what HEAD's results say against earlier iterations
//     (a test that passed before and fails now);
//   - analyze: configuration, approvals, and the new net findings;
//   - score: the quality score, the tag, the iteration_history entry;
//   - recover: the PDARE protocol (pause, diagnose, adapt, retry, escalate)
//     and the stuck-loop rule;
//   - decide: continue, blocked (a human gate) or stop;
//   - persist: best iteration, reinforcement level, metrics, state.json,
//     journal, snapshot, registry, hook log and analytics.
//
// RecordNoop records an iteration that changed nothing with the same steps,
// its measurement reused from the commit it stands on.
//
// Drive is `ralph-gate run`: it runs the agent (RunAgent, with the prompt
// of Prompt), commits what it left (CommitWork), records, rejects a block
// or hands it to a human, keeps budgets on the usage the agent reports
// (UsageScanner), and pauses the loop on an interrupt.
//
// State lives in the work tree under .aiwg/ralph (Store): state.json in
// AIWG's schemas, an append-only journal that every change goes through
// first, and registry.json. All three are sealed with an HMAC under a key
// kept outside the repository (seal.go), and a loop is changed only under
// its lock (lock.go: a POSIX record lock, never inherited by a child).
// The gates (Approve, Reject, Transition) are a person's decisions; the
// command line asks for a name when no terminal is there to vouch for one.
package loop
