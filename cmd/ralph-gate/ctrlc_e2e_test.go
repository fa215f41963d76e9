//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// ctrlCOnce starts cmd, waits (up to wait) for the file marker that says
// the agent is at work, sends SIGINT as Ctrl-C does, and wants exit 130
// within 20 seconds. out is the command's output, for the messages.
func ctrlCOnce(t *testing.T, cmd *exec.Cmd, marker string, wait time.Duration, out interface{ String() string }) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(wait)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the agent never started:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("after Ctrl-C: %v, want exit 130\n%s", err, out.String())
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("it took %s to stop after Ctrl-C", d)
	}
}
