package collect

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Script is a CI step's shell script, run the way the CI runs it: the
// shell with -e (and -o pipefail where the step asks), in a directory of
// the checkout, with the step's environment over the collectors'.
type Script struct {
	// Name names the run in progress lines and errors.
	Name string
	// Shell is "bash" or "sh"; Pipefail adds -o pipefail.
	Shell    string
	Pipefail bool
	Src      string
	// Dir is relative to the checkout ("" or "." is its root); it must
	// stay inside it.
	Dir string
	Env map[string]string
	// Timeout bounds the run (default DefaultTimeout).
	Timeout time.Duration
}

// ScriptRun is what a script did: its exit status and its output (standard
// output and error together, the first MaxScriptOutput bytes).
type ScriptRun struct {
	ExitCode  int
	Output    []byte
	Truncated bool
	Duration  time.Duration
}

// MaxScriptOutput bounds the output kept of a script run.
const MaxScriptOutput = 32 << 20

// VerboseTestEnv are the variables that make the test runners a script
// calls name each test they ran, without changing what they run or how
// they exit: `go test` reads -v from GOFLAGS (which go build and go vet
// accept too), pytest adds -rA (a summary line per test) from
// PYTEST_ADDOPTS. Nothing else is added: -trimpath, which would let the
// build cache serve a fresh checkout, changes what tests see (gin's
// recovery tests compare stack traces with file paths and fail under it).
// Values the environment already has are kept in front.
var VerboseTestEnv = map[string]string{"GOFLAGS": "-v", "PYTEST_ADDOPTS": "-rA"}

// RunScript runs s in the checkout at root with the collectors' isolation
// (a scrubbed environment, a HOME and TMPDIR of its own when
// opts.Isolate, the process group killed at the end). A non-zero exit is
// a result, not an error; an error is a script that could not run (its
// shell missing, a timeout, an interruption).
func RunScript(ctx context.Context, root string, s Script, opts RunOptions) (*ScriptRun, error) {
	fail := func(err error) (*ScriptRun, error) { return nil, fmt.Errorf("%s: %w", s.Name, err) }
	dir := filepath.Join(root, filepath.FromSlash(s.Dir))
	if rel, err := filepath.Rel(root, dir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fail(fmt.Errorf("working directory %q is outside the checkout", s.Dir))
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fail(fmt.Errorf("working directory %q does not exist in the checkout", s.Dir))
	}
	out, err := os.MkdirTemp("", "ralph-gate-ci-")
	if err != nil {
		return fail(err)
	}
	defer removeAll(out)
	file := filepath.Join(out, "step.sh")
	if err := os.WriteFile(file, []byte(s.Src), 0o600); err != nil {
		return fail(err)
	}
	// The step's env is HEAD's workflow's: a credential it names is
	// withheld like any other.
	env := runEnv(opts, root, out, s.Env, nil, func(k string) bool { return !isSecretName(k) })
	for k, v := range VerboseTestEnv {
		if cur := getEnv(env, k); cur != "" {
			v = cur + " " + v
		}
		env = append(env, k+"="+v)
	}
	shell := s.Shell
	if shell != "bash" && shell != "sh" {
		return fail(fmt.Errorf("shell %q is not run here", s.Shell))
	}
	args := []string{"-e"}
	if s.Pipefail {
		args = append(args, "-o", "pipefail")
	}
	if shell == "bash" {
		args = append([]string{"--noprofile", "--norc"}, args...)
	}
	bin, err := lookPath(shell, env)
	if err != nil {
		return fail(fmt.Errorf("%s is not installed", shell))
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, bin, append(args, file)...)
	cmd.Args[0] = shell
	cmd.Dir = dir
	cmd.Env = env
	buf := &capped{max: MaxScriptOutput}
	var w io.Writer = buf
	if opts.Output != nil {
		w = io.MultiWriter(buf, opts.Output)
	}
	// One writer for both: exec then gives them one pipe, written in order.
	cmd.Stdout, cmd.Stderr = w, w
	killGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	stop := ticker(s.Name, start, opts)
	err = cmd.Run()
	stop()
	r := &ScriptRun{Output: buf.b, Truncated: buf.dropped, Duration: time.Since(start)}
	if r.ExitCode, err = exitStatus(ctx, runCtx, err, timeout); err != nil {
		return fail(err)
	}
	return r, nil
}

func getEnv(env []string, k string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if name, v, ok := strings.Cut(env[i], "="); ok && name == k {
			return v
		}
	}
	return ""
}

// capped keeps the first max bytes written to it.
type capped struct {
	b       []byte
	max     int
	dropped bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - len(c.b); room < len(p) {
		c.b = append(c.b, p[:max(room, 0)]...)
		c.dropped = true
	} else {
		c.b = append(c.b, p...)
	}
	return len(p), nil
}
