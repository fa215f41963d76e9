package guard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ralph-gate/ralph-gate/internal/agent"
	"github.com/ralph-gate/ralph-gate/internal/atomicfile"
	"github.com/ralph-gate/ralph-gate/internal/gitcmd"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrange"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop/agentrun"
	"github.com/ralph-gate/ralph-gate/internal/loop/state"
)

// stopStateName keeps the Stop hook's count of blocks in a row, beside the
// loop's state.
const stopStateName = "guard-stop.json"

// StopState is guard-stop.json.
type StopState struct {
	// Session and Iteration are the agent session and the loop iteration
	// the count belongs to: a new session or a recorded iteration starts
	// it again.
	Session   string `json:"session,omitempty"`
	Iteration int    `json:"iteration"`
	// Blocks counts the blocks in a row: every block, whatever its reason.
	Blocks int `json:"blocks"`
	// LastBlocked says the session's last stop was blocked: a stop that
	// comes without stop_hook_active after it is the same run of blocks
	// (a client that does not report stop_hook_active cannot reset it).
	LastBlocked bool `json:"last_blocked,omitempty"`
	// Released is set once the limit was reached and a stop let through.
	Released bool      `json:"released"`
	Updated  time.Time `json:"updated"`
}

// StopCheck is one Stop hook call in a loop.
type StopCheck struct {
	Root   string
	Store  *state.Store
	Snap   *state.Snapshot
	Config *config.Config
	FailOn gate.FailOn
	// Active is the payload's stop_hook_active; Session its session id.
	Active  bool
	Session string
	Now     time.Time
	// Problem, when set, blocks the stop by itself (the configuration could
	// not be read, say); it counts toward the limit like any block.
	Problem string
}

// Decide returns the reason to block the stop, or "" to let it through.
// Every block counts toward guard.max_stop_blocks: once the agent was sent
// back that many times in a row, the stop is let through and a human is
// told. A run of blocks starts again with a new session, a newly recorded
// iteration, or a stop the client says is not a continuation
// (stop_hook_active false) after one that was let through.
func (c *StopCheck) Decide(ctx context.Context) (string, error) {
	st := c.Snap.State
	path := filepath.Join(c.Store.LoopDir(st.LoopID), stopStateName)
	ss := readStopState(path)
	if ss.Session != c.Session || ss.Iteration != st.Iteration || !c.Active && !ss.LastBlocked {
		ss = StopState{Session: c.Session, Iteration: st.Iteration}
	}
	max := c.Config.Guard.StopBlocks()
	if ss.Blocks >= max {
		if !ss.Released && ss.Blocks > 0 {
			detail := fmt.Sprintf("the Stop hook blocked %d times in a row (guard.max_stop_blocks) and let the agent stop with the work still failing the gate: a human should look at it", ss.Blocks)
			_ = c.Store.AppendToolCall(st.LoopID, state.ToolCall{Timestamp: c.Now.UTC(), Tool: "Stop", Event: state.EventStopReleased, Iteration: st.Iteration + 1, SessionID: c.Session, Detail: detail})
			_ = c.Store.AppendLog(st.LoopID, map[string]any{
				"timestamp": c.Now.UTC(), "hook_name": "stop_hook_limit", "loop_id": st.LoopID, "iteration": st.Iteration,
				"agents_invoked": []string{"ralph-gate guard"}, "outcomes": []string{detail},
			})
		}
		ss.Released, ss.LastBlocked, ss.Updated = true, false, c.Now.UTC()
		return "", writeStopState(path, ss)
	}
	problems := c.problems(ctx)
	if len(problems) == 0 {
		return "", writeStopState(path, StopState{Session: c.Session, Iteration: st.Iteration, Updated: c.Now.UTC()})
	}
	ss.Blocks++
	ss.LastBlocked, ss.Released, ss.Updated = true, false, c.Now.UTC()
	if err := writeStopState(path, ss); err != nil {
		return "", err
	}
	_ = c.Store.AppendToolCall(st.LoopID, state.ToolCall{Timestamp: c.Now.UTC(), Tool: "Stop", Event: state.EventStopBlocked, Iteration: st.Iteration + 1, SessionID: c.Session, Detail: strings.Join(problems, " ")})
	var b strings.Builder
	fmt.Fprintf(&b, "ralph-gate: the loop %s is not done: the work since iteration %d (committed and uncommitted) does not pass the gate. ", st.LoopID, st.Iteration)
	b.WriteString(strings.Join(problems, " "))
	b.WriteString(" Fix this before stopping.")
	fmt.Fprintf(&b, " (Stop blocked %d of at most %d times in a row.)", ss.Blocks, max)
	return b.String(), nil
}

// problems checks the committed and uncommitted work since the last
// recorded iteration: its findings, then the completion command.
func (c *StopCheck) problems(ctx context.Context) []string {
	st := c.Snap.State
	var out []string
	if c.Problem != "" {
		out = append(out, c.Problem)
	}
	target, err := workCommit(ctx, c.Root)
	if err != nil {
		return append(out, fmt.Sprintf("The work could not be checked (%v).", err))
	}
	fs, err := WorkFindings(ctx, c.Root, target, st, c.Config, c.FailOn)
	if err != nil {
		return append(out, fmt.Sprintf("The work could not be analyzed (%v).", err))
	}
	if len(fs) > 0 {
		out = append(out, explain("It has", fs))
	}
	if cmd := strings.TrimSpace(st.CompletionCriteria); cmd != "" {
		wt, err := collect.AddWorktree(ctx, c.Root, target)
		if err != nil {
			return append(out, fmt.Sprintf("The completion command could not run (%v).", err))
		}
		defer wt.Remove()
		check := agentrun.RunCompletion(ctx, wt.Dir, cmd, st.RalphGate.Settings.CompletionTimeoutDuration(), st.Iteration, c.Now)
		if !check.Passed {
			msg := fmt.Sprintf("The completion command `%s` fails (exit %d) on the current work", cmd, check.ExitCode)
			if o := strings.TrimSpace(check.Output); o != "" {
				msg += ": " + lastLines(o, 12)
			}
			out = append(out, msg+".")
		}
	}
	return out
}

// WorkFindings analyzes the work at target (a commit of the work tree,
// workCommit) against the loop's last recorded iteration, as record would,
// and returns the findings at the fail-on severity that no human approved.
func WorkFindings(ctx context.Context, root, target string, st *state.State, cfg *config.Config, failOn gate.FailOn) ([]gate.Finding, error) {
	last := st.RalphGate.LastCommit
	if last == "" {
		last = st.RalphGate.BaselineCommit
	}
	repo, err := gitrepo.Open(root)
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	base, err := repo.Resolve(last)
	if err != nil {
		return nil, fmt.Errorf("the last iteration's commit %s: %w", short(last), err)
	}
	if base == plumbing.NewHash(target) {
		return nil, nil
	}
	findings, _, err := gitrange.Net(ctx, repo, base, plumbing.NewHash(target), cfg)
	if err != nil {
		return nil, err
	}
	approved := map[string]bool{}
	for _, id := range st.RalphGate.Approved {
		approved[id] = true
	}
	return Blocking(findings, failOn, approved), nil
}

// workCommit returns a commit of the current work: `git stash create`
// makes one of the tracked working-tree changes without touching the
// working tree, index or refs; with no changes it is HEAD.
func workCommit(ctx context.Context, root string) (string, error) {
	out, err := gitOutput(ctx, root, "stash", "create", "ralph-gate guard: uncommitted work")
	if err != nil {
		return "", err
	}
	if sha := strings.TrimSpace(out); sha != "" {
		return sha, nil
	}
	out, err = gitOutput(ctx, root, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitcmd.Run(ctx, dir, gitcmd.Options{}, args...)
	var ge *gitcmd.Error
	if errors.As(err, &ge) {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), ge.Err, agent.OneLine(strings.TrimSpace(ge.Stderr)))
	}
	return string(out), err
}

func readStopState(path string) StopState {
	var s StopState
	data, err := os.ReadFile(path)
	if err == nil {
		_ = json.Unmarshal(data, &s)
	}
	return s
}

func writeStopState(path string, s StopState) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}

func short(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
