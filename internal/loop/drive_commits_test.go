//go:build unix

package loop

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestDriveRecordsCommitsLeftBehind: commits made between runs are
// recorded as an iteration before the agent runs again.
func TestDriveRecordsCommitsLeftBehind(t *testing.T) {
	t.Parallel()
	r := newLoopRepo(t)
	e := r.env()
	snap := r.start(e, StartOptions{Task: "t", Completion: "test -f DONE"})
	r.write("calc.go", fixedAdd)
	r.commit("a person's commit")
	a := newScriptedAgent(t, map[int]string{2: "echo done > DONE"}, nil)
	var say saying
	res, err := Drive(context.Background(), e, snap, DriveOptions{Agent: a.command(), PID: os.Getpid(), Say: say.say})
	if err != nil {
		t.Fatal(err)
	}
	if res.End != EndCompleted || res.Iterations != 2 || snap.State.Find(1).Agent != nil || snap.State.Find(1).Commit == "" {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(say.String(), "recording the work left in the repository (commits after ") {
		t.Errorf("said:\n%s", say.String())
	}
}
