package guard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/gitcmd"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrange"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/loop"
)

// stopStateName keeps the Stop hook's count of blocks in a row, beside the
// loop's state.
const stopStateName = "guard-stop.json"

// StopState is guard-stop.json.
type StopState struct {
	// Blocks counts the blocks in a row since the last stop that came with
	// stop_hook_active false.
	Blocks int `json:"blocks"`
	// Released is set once the limit was reached and a stop let through; it
	// stays until a stop arrives with stop_hook_active false.
	Released bool      `json:"released"`
	Updated  time.Time `json:"updated"`
}

// StopCheck is one Stop hook call in a loop.
type StopCheck struct {
	Root   string
	Store  *loop.Store
	Snap   *loop.Snapshot
	Config *config.Config
	FailOn gate.FailOn
	// Active is the payload's stop_hook_active.
	Active bool
	Now    time.Time
}

// Decide returns the reason to block the stop, or "" to let it through.
func (c *StopCheck) Decide(ctx context.Context) (string, error) {
	st := c.Snap.State
	path := filepath.Join(c.Store.LoopDir(st.LoopID), stopStateName)
	state := readStopState(path)
	if !c.Active {
		state = StopState{}
	}
	max := c.Config.Guard.StopBlocks()
	if c.Active && state.Blocks >= max {
		if !state.Released {
			state.Released = true
			detail := fmt.Sprintf("the Stop hook blocked %d times in a row (guard.max_stop_blocks) and let the agent stop with the work still failing the gate: a human should look at it", state.Blocks)
			_ = c.Store.AppendToolCall(st.LoopID, loop.ToolCall{Timestamp: c.Now.UTC(), Tool: "Stop", Event: loop.EventStopReleased, Iteration: st.Iteration, Detail: detail})
			_ = c.Store.AppendLog(st.LoopID, map[string]any{
				"timestamp": c.Now.UTC(), "hook_name": "stop_hook_limit", "loop_id": st.LoopID, "iteration": st.Iteration,
				"agents_invoked": []string{"ralph-gate guard"}, "outcomes": []string{detail},
			})
		}
		state.Updated = c.Now.UTC()
		return "", writeStopState(path, state)
	}
	problems := c.problems(ctx)
	if len(problems) == 0 {
		return "", writeStopState(path, StopState{Updated: c.Now.UTC()})
	}
	if c.Active {
		state.Blocks++
	}
	state.Released = false
	state.Updated = c.Now.UTC()
	if err := writeStopState(path, state); err != nil {
		return "", err
	}
	_ = c.Store.AppendToolCall(st.LoopID, loop.ToolCall{Timestamp: c.Now.UTC(), Tool: "Stop", Event: loop.EventStopBlocked, Iteration: st.Iteration, Detail: strings.Join(problems, " ")})
	var b strings.Builder
	fmt.Fprintf(&b, "ralph-gate: the loop %s is not done: the work since iteration %d (committed and uncommitted) does not pass the gate. ", st.LoopID, st.Iteration)
	b.WriteString(strings.Join(problems, " "))
	b.WriteString(" Fix this before stopping.")
	if c.Active {
		fmt.Fprintf(&b, " (Stop blocked %d of at most %d times in a row.)", state.Blocks, max)
	}
	return b.String(), nil
}

// problems checks the committed and uncommitted work since the last
// recorded iteration: its findings, then the completion command.
func (c *StopCheck) problems(ctx context.Context) []string {
	st := c.Snap.State
	var out []string
	last := st.RalphGate.LastCommit
	if last == "" {
		last = st.RalphGate.BaselineCommit
	}
	target, err := workCommit(ctx, c.Root)
	if err != nil {
		return []string{fmt.Sprintf("The work could not be checked (%v).", err)}
	}
	repo, err := gitrepo.Open(c.Root)
	if err != nil {
		return []string{fmt.Sprintf("The work could not be checked (%v).", err)}
	}
	defer repo.Close()
	base, err := repo.Resolve(last)
	if err != nil {
		return []string{fmt.Sprintf("The last iteration's commit %s could not be read (%v).", short(last), err)}
	}
	if base != plumbing.NewHash(target) {
		findings, _, err := gitrange.Net(ctx, repo, base, plumbing.NewHash(target), c.Config)
		if err != nil {
			return []string{fmt.Sprintf("The work could not be analyzed (%v).", err)}
		}
		approved := map[string]bool{}
		for _, id := range st.RalphGate.Approved {
			approved[id] = true
		}
		if fs := Blocking(findings, c.FailOn, approved); len(fs) > 0 {
			out = append(out, explain("It has", fs))
		}
	}
	if cmd := strings.TrimSpace(st.CompletionCriteria); cmd != "" {
		wt, err := collect.AddWorktree(ctx, c.Root, target)
		if err != nil {
			return append(out, fmt.Sprintf("The completion command could not run (%v).", err))
		}
		defer wt.Remove()
		check := loop.RunCompletion(ctx, wt.Dir, cmd, st.RalphGate.Settings.CompletionTimeoutDuration(), st.Iteration, c.Now)
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
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), ge.Err, oneLine(strings.TrimSpace(ge.Stderr)))
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
	return writeFileAtomic(path, append(data, '\n'), 0o644)
}

// writeFileAtomic writes through a temporary file in the same directory and
// a rename, so a reader sees the old file or the new one, never a torn one.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
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
