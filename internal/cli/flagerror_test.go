package cli

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestFlagValueErrors: a value a flag refuses is reported as the flag and
// the reason, once, however the flag is typed (string, FailOnFlag, optBool).
func TestFlagValueErrors(t *testing.T) {
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, Dir: t.TempDir()}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--fail-on", "extreme"}, `analyze: --fail-on: unknown severity "extreme"`},
		{[]string{"compare", "--fail-on=LOWEST"}, `compare: --fail-on: unknown severity "LOWEST"`},
		{[]string{"hook", "pre-commit", "--fail-on", "x"}, `hook: --fail-on: unknown severity "x"`},
		{[]string{"compare", "--mutation=maybe"}, `compare: --mutation: want true or false, not "maybe"`},
		{[]string{"analyze", "--bogus"}, "analyze: flag provided but not defined: -bogus (run 'ralph-gate help analyze')"},
	} {
		err := Run(context.Background(), tc.args, env)
		var u *UsageError
		if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a usage error starting %q", tc.args, err, tc.want)
		}
		if strings.Contains(err.Error(), "invalid value") {
			t.Errorf("%q: %v repeats the flag package's wrapping", tc.args, err)
		}
	}
}
