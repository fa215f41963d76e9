package cli

const startHelp = `Usage:
  ralph-gate start --task T --completion CMD [--max-iterations N]
                   [--timeout-minutes M] [--slug S] [--no-feedback]
                   [--interactive] [--collect auto|none] [--repo DIR] [--format F]

Starts a loop at HEAD: measures the baseline with the collectors (tests,
coverage, lint and type errors, size, complexity), runs the completion command
once, tags HEAD ralph/{loop_id}/iter-000 and writes the loop's state under
.aiwg/ralph/ (added to .git/info/exclude, so an agent's git add -A never commits
it). Prints the loop id (ralph-{slug}-{8 hex}).

Thresholds and weights come from aiwg.yml (agent_persistence, ralph) and the
loop section of .ralph-gate.yml at HEAD, then the flags; they are frozen in the
loop's state, so nothing an agent commits later loosens them.

Flags:
`

const recordHelp = `Usage:
  ralph-gate record [--loop ID] [--format text|json] [--interactive] [--wait D]
                    [--no-cache] [--all-packages] [--mutation]

Records HEAD as the loop's next iteration, after the agent committed it:
measures it, analyzes its change against the previous iteration and against
the baseline, uses the loop's history (a test that failed earlier and passes
now because only its own checks changed), runs the completion command,
computes the quality score, tags HEAD ralph/{loop_id}/iter-NNN and decides.

With --mutation (or mutation.enabled: true; run mutates by default) the lines
the loop changed since its baseline are mutated as compare --mutation does
(see ralph-gate help compare): each surviving mutant is a finding that lowers
the iteration's validation score, the iteration records the mutants and the
score, and the next prompt names the lines no test pins.

Exit codes:
  0  continue with the next iteration
  1  blocked: a regression needs a human (a critical finding, a test deletion,
     the third recovery attempt or a stuck loop); the iteration is void.
     Decide with ralph-gate approve | reject | abort (--by NAME away from a
     terminal). record --interactive asks at once, at a terminal only
     (elsewhere it exits 2), and so does record at a terminal in a loop
     started with --interactive; the answer is the user's ($USER).
  4  stop: the completion command passed, or a stopping criterion fired
     (quality threshold, improvement below threshold, plateau, too many
     regressions, max iterations, timeout). Then: ralph-gate best --checkout
  2  usage or state error (paused loop, nothing new committed, locked loop)
  3  internal error

Flags:
`

const promptHelp = `Usage:
  ralph-gate prompt [--loop ID] [--format text|json]

Prints the reinforcement text for the next iteration at the loop's level (OFF,
MINIMAL, STANDARD, AGGRESSIVE, ADAPTIVE), naming the evidence: which tests were
deleted or weakened in which iteration, which failure repeats, what to restore,
what the completion command said. A loop started with --no-feedback gets the
level's text only. Append it to the agent's prompt:

  claude -p "$(cat PROMPT.md; ralph-gate prompt)"
`

const statusHelp = `Usage:
  ralph-gate status [--loop ID] [--all] [--persistence|--regressions|--quality]
                    [--format text|json]

Shows a loop: status (a running loop whose controlling process died shows as
crashed), baseline vs current metrics, regression events and their recovery,
reinforcement level, recovery attempts, best vs current iteration and the
quality trajectory. --all lists every loop of the repository.

--mark-fp ID --by NAME marks a finding or regression event of the loop as a
false positive (recorded with who said so); it no longer counts against the
loop's quality.
`

const analyticsHelp = `Usage:
  ralph-gate analytics [--loop ID] [--format text|json|csv] [--export FILE]

The iteration analytics report: quality per iteration with deltas, the
stopping reason, final quality, total improvement, the selected iteration,
the breakdown (tests passing, lint and type errors, coverage, complexity) and
the iterations saved. json follows AIWG's loop_analytics; --export writes to
FILE (format from its extension unless --format is given).
`

const bestHelp = `Usage:
  ralph-gate best [--loop ID] [--checkout] [--threshold Q] [--format text|json]

Selects the best iteration as the seeds do: non-void iterations at or above
the quality threshold (default 70), verified ones (completion command passed)
first, the highest score, ties to the earliest. Exits 1 when none qualifies.
--checkout checks out its tag (detached HEAD), refusing with exit 2 and
changing nothing when the work tree has uncommitted changes.
`

const repairHelp = `Usage:
  ralph-gate repair --loop ID

Rebuilds a loop's state.json from its journal (journal.jsonl) when state.json
was damaged; the damaged file is kept beside it.
`

func transitionHelp(op string) string {
	what := map[string]string{
		"pause":  "Pauses a running loop (record refuses to run until resume); nothing is destroyed.",
		"resume": "Resumes a paused loop, also one that a stopping criterion or a budget\nstopped without completion (the improvement and plateau criteria start a fresh\nwindow). --extend N adds N iterations to a loop that reached its maximum.",
		"abort":  "Aborts a running, paused or crashed loop for good; a pending human decision\nis recorded as abort.",
	}[op]
	usage := "ralph-gate " + op + " [--loop ID]"
	switch op {
	case "resume":
		usage += " [--extend N]"
	case "abort":
		usage += " [--by NAME]"
	}
	help := "Usage:\n  " + usage + "\n\n" + what + `
Transitions follow AIWG's loop-state: running -> paused, completing, aborted,
crashed, failed; paused -> running, aborted. Another one exits 2 and lists the
allowed ones.
`
	if op == "abort" {
		help += `
Aborting is a human decision, with or without a pending gate: it is recorded
with who made it (in the gate's decision and the loop's stop_reason). That is
--by NAME, required when standard input is not a terminal (a pipe, a file or
/dev/null: a script, or an agent running the command, cannot abort
anonymously; without --by it exits 2); at a terminal it defaults to the user
($USER).
`
	}
	return help
}

func gateHelp(op string) string {
	what := map[string]string{
		"approve": `Approves the blocked iteration's changes: the loop continues from it and its
findings never block again. The iteration stays void (never selected as best).`,
		"reject": `Rejects the blocked iteration: the tree of the last good iteration is committed
on top of HEAD as a new commit (history is never rewritten or lost), and the
loop continues from there. Refuses a work tree with uncommitted changes.`,
	}[op]
	return "Usage:\n  ralph-gate " + op + " [--loop ID] [--by NAME] [EVENT_ID]\n\n" + what + `

EVENT_ID is the gate's recovery id or a regression event id of the blocked
iteration; it may be omitted when one decision is pending. The decision is
recorded with who made it: --by NAME, required when standard input is not a
terminal (a pipe, a file or /dev/null: a script, or an agent running the
command, cannot decide anonymously; without --by it exits 2); at a terminal it
defaults to the user ($USER).
`
}

const runCmdHelp = `Usage:
  ralph-gate run --agent claude|codex|CMD [--task T --completion CMD]
                 [--loop ID] [--max-iterations N] [--extend N]
                 [--iteration-timeout D] [--budget-usd X] [--budget-tokens N]
                 [--on-block reject|stop] [--no-checkout-best]
                 [--format text|json] [--repo DIR] [--wait D]

Runs the loop: starts one when none is active (as start does, from --task and
--completion), else goes on with the active one (a paused, stopped or
interrupted loop is resumed; --extend N adds iterations to one that ran out).

Each iteration writes the prompt (the task, then the reinforcement text of
'ralph-gate prompt' with its evidence) to .aiwg/ralph/loops/ID/prompts/, runs
the agent in the repository through sh -c with the prompt on standard input
and RALPH_GATE_LOOP_ID, RALPH_GATE_ITERATION and RALPH_GATE_PROMPT_FILE set,
commits what it left uncommitted ("ralph-gate: iteration N", without hooks),
and records the iteration exactly as record does. An iteration that changed
nothing is a no-op iteration (no empty commit); it counts toward the limit and
the stuck-loop rule. The agent's output goes to .aiwg/ralph/loops/ID/agent/.

Agents (--agent NAME runs the preset; any other value is the command):
@PRESETS@
A preset may edit files and run commands without asking, and every one of
its tool calls passes the guard, whose hooks run installs for the client
before the first iteration (in a file git is told to ignore) unless the
project's own settings already run them. A command that runs a known client
gets the hooks too. Usage is read from any agent's standard output: each
client's usage lines (Claude Code's stream-json "result", Codex's
"turn.completed"). Unreported usage is unknown, never 0; a budget on what the
agent does not report stops the run with exit 2.

On a block, --on-block reject (default) restores the last good iteration as a
new commit (decided by "ralph-gate run") and goes on with the evidence in the
next prompt; when recovery escalates (retries exhausted, stuck loop) a human
decides. --on-block stop hands the first block to a human.

Flags:

Ctrl-C (SIGINT) or SIGTERM stops the agent's process group and pauses the
loop; nothing is lost, and run again resumes it (work the agent left is
recorded first). At the end the best iteration is checked out (detached HEAD)
unless it already is HEAD.

Exit codes: 0 completion passed and the best iteration is checked out; 4
stopped by a criterion or a budget without completion; 1 a human must decide;
2 usage or state error; 3 internal error; 130 interrupted (the loop is paused).
`
