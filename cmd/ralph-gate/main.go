// Command ralph-gate is the regression gate for AI coding agents.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/ralph-gate/ralph-gate/internal/cli"
)

// version is set at release time with -ldflags "-X main.version=...".
var version = ""

func main() {
	secrets, serr := scrubSelf()
	if serr != nil {
		fmt.Fprintf(os.Stderr, "ralph-gate: warning: %v; the collectors' environment is still cleaned\n", serr)
	}
	tuneMemory()
	getenv := os.Getenv
	if len(secrets) > 0 {
		getenv = func(k string) string {
			if v, ok := secrets[k]; ok {
				return v
			}
			return os.Getenv(k)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: getenv, Version: resolveVersion(), Withheld: secrets,
	})
	stop()
	code := cli.ExitCode(err)
	switch {
	case err == nil, code == cli.ExitBlocked, code == cli.ExitStop:
	case code == cli.ExitInterrupted && errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "ralph-gate: interrupted")
	default:
		fmt.Fprintln(os.Stderr, "ralph-gate: "+err.Error())
	}
	os.Exit(code)
}

func resolveVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
