//go:build unix

// Command benchrun runs a command and prints its wall time in milliseconds and
// its peak resident set size in kilobytes, "MS KB" on one line, measured from
// the process itself: no shell, no time(1) or date(1) processes around it,
// whose own start-up would be counted. It exits 1 when the command exits with
// 2 or more (ralph-gate's usage and input errors), printing its stderr.
//
//	go run ./scripts/benchrun -- ralph-gate analyze C^ C
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchrun -- COMMAND [ARG]...")
		os.Exit(2)
	}
	cmd := exec.Command(args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() >= 2) {
		fmt.Fprintf(os.Stderr, "benchrun: %v: %v\n%s", args, err, stderr.Bytes())
		os.Exit(1)
	}
	rss := int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) // kilobytes on Linux
	}
	fmt.Printf("%d %d\n", elapsed.Milliseconds(), rss)
}
