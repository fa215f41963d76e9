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
// Drive is `ralph-gate run`: it runs the agent (agentrun.Run, with the prompt
// of Prompt), commits what it left (agentrun.CommitWork), records, rejects a block
// or hands it to a human, keeps budgets on the usage the agent reports
// (UsageScanner), and pauses the loop on an interrupt.
//
// The loop's state (state.json, the journal, the registry, seals and locks)
// lives in internal/loop/state, and the processes it runs (the agent, the
// completion command) in internal/loop/agentrun; neither decides anything.
// This package reads and changes a loop through the state's Store.
//
// The gates (Approve, Reject, Transition) are a person's decisions; the
// command line asks for a name when no terminal is there to vouch for one.
//
// Files:
//
//	runtime.go        Env, what the operations work with; measuring a commit; errors
//	start.go          Start and its steps: room for a loop, the settings, the state, the baseline
//	record.go         Record and RecordNoop, the recording in progress, admit
//	record_measure.go the steps measure, completion, historyEvidence, analyze (reuse for a no-op)
//	record_verdict.go the steps score, recover, decide, persist
//	score.go          the quality score and its breakdown
//	findings.go       approvals, merging and blocking findings
//	history.go        evidence from the loop's own history (a test that passed before)
//	recovery.go       the PDARE protocol: diagnosis, strategy, the stuck-loop rule
//	bookkeeping.go    best iteration, metrics, usage totals, persistence metrics
//	events.go         regression_events and the hook-log entries of a record
//	catalog.go        detected_patterns: a finding's pattern id and name
//	gates.go          Approve, Reject, Transition, Checkout: a person's decisions
//	decider.go        Decider: who makes a human decision (the user at a terminal, else --by)
//	falsepositive.go  a finding marked as a false alarm
//	migrate.go        MigrateLegacy: a legacy current-loop.json becomes a loop
//	named.go          what the task and the completion command name
//	prompt.go         the next iteration's prompt
//	status.go         the status and list views
//	analytics.go      iteration analytics: JSON, text and CSV
//	toolcalls.go      the summary of the guard's tool-call log
//	drive.go          Drive, `ralph-gate run`: the agent, commits, budgets, blocks, interrupts
package loop
