package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/config"
)

// OutDir is the placeholder that Run replaces, in a collector's argv, env
// values and report paths, with a fresh directory outside the checkout,
// shared by the collectors of one run and removed after it.
const OutDir = "{out}"

// TamperFiles is the placeholder a custom collector's argv (or shell
// command) may carry for the tamper check, which replaces it with the edited
// test files so that its rerun covers only them. A whole run drops it.
const TamperFiles = "{tamper_files}"

// DefaultTimeout bounds a collector that sets no timeout.
const DefaultTimeout = 30 * time.Minute

// Progress phases.
const (
	PhaseStart   = "start"   // the command is starting
	PhaseRunning = "running" // the command runs (every ProgressInterval)
	PhaseParse   = "parse"   // the command exited; its reports are read
	PhaseDone    = "done"    // the collector finished without error
	PhaseFailed  = "failed"  // the collector failed (the error says why)
)

// RunOptions tune Run and Measure. The zero value is ready to use.
type RunOptions struct {
	// Progress, when set, is told which collector is in which phase and how
	// long it has been running. It is called from Run's goroutine and from a
	// ticker goroutine, never concurrently.
	Progress func(collector, phase string, elapsed time.Duration)
	// ProgressInterval is how often PhaseRunning is reported (default 1s).
	ProgressInterval time.Duration
	// Environ is the environment collectors start from (default os.Environ()).
	// Variables that point git at a repository (GIT_DIR...) are removed.
	Environ []string
	// Output, when set, receives the collectors' standard error, and their
	// standard output when no report reads it.
	Output io.Writer
	// RepoDir is the user's repository: PATH entries inside it, like those
	// inside the checkout the collectors run in, are dropped (ScrubEnv).
	RepoDir string
	// Isolate gives the run a HOME, XDG directories and TMPDIR of its own
	// (under its {out}), so that the code under test at one end cannot leave
	// anything in a home or cache the other end, or a later run, reads. Go's
	// and npm's content-addressed caches stay the user's (their keys are the
	// contents), so a run stays warm.
	Isolate bool
	// ReportMissingMeasured makes a collector whose command ran but wrote
	// no report file a measurement instead of an error: a run that exits
	// in the middle (os._exit(0) in a test, a crash) writes no report (nor
	// the coverage data a later `coverage xml` reads), and at HEAD that is
	// the change's doing. The result carries an integrity problem naming
	// the collector (and, for a test collector, no tests), so the
	// comparison reports it and the tests BASE ran as having no result.
	// BASE's side keeps it an error: there is nothing to compare with.
	ReportMissingMeasured bool
}

// Run runs the collectors in dir, one after the other, and reads their
// reports. Each report's path is a glob relative to dir (or under {out});
// several matching files are merged with collectors.Merge. A test command
// that exits non-zero because tests failed is normal; a report that is
// missing or malformed is an error that names the collector and the file.
func Run(ctx context.Context, dir string, specs []config.Collector, opts RunOptions) (*Measurement, error) {
	return run(ctx, dir, specs, opts, nil)
}

func run(ctx context.Context, dir string, specs []config.Collector, opts RunOptions, tools map[string]string) (*Measurement, error) {
	start := time.Now()
	if tools == nil {
		tools = ToolVersions(ctx, specs)
	}
	m := &Measurement{Tools: tools}
	// One {out} for the whole run: a later collector may read what an
	// earlier one wrote (coverage run, then coverage xml).
	out, err := os.MkdirTemp("", "ralph-gate-out-")
	if err != nil {
		return nil, fmt.Errorf("collectors: %w", err)
	}
	defer removeAll(out)
	var results []*collectors.Result
	budget := NewReportBudget()
	for _, spec := range specs {
		res, cr, err := runOne(ctx, dir, out, spec, opts, budget)
		if opts.Progress != nil {
			phase := PhaseDone
			if err != nil {
				phase = PhaseFailed
			}
			opts.Progress(spec.Name, phase, cr.Duration)
		}
		if err != nil {
			return nil, err
		}
		m.Collectors = append(m.Collectors, cr)
		results = append(results, res...)
	}
	m.Result = collectors.Merge(results...)
	deriveMetrics(&m.Metrics, m.Result)
	m.Duration = time.Since(start)
	return m, nil
}

// runOne runs one collector and parses its reports.
func runOne(ctx context.Context, dir, out string, spec config.Collector, opts RunOptions, budget *ReportBudget) ([]*collectors.Result, CollectorRun, error) {
	cr := CollectorRun{Name: spec.Name}
	start := time.Now()
	fail := func(err error) ([]*collectors.Result, CollectorRun, error) {
		cr.Duration = time.Since(start)
		return nil, cr, fmt.Errorf("collector %s: %w", spec.Name, err)
	}
	if len(spec.Argv) == 0 || spec.Shell && len(spec.Argv) != 1 {
		return fail(errors.New("argv must be a command (with shell: true, one command string)"))
	}
	timeout := DefaultTimeout
	if spec.Timeout != "" {
		d, err := time.ParseDuration(spec.Timeout)
		if err != nil || d <= 0 {
			return fail(fmt.Errorf("bad timeout %q", spec.Timeout))
		}
		timeout = d
	}
	expand := func(s string) string { return strings.ReplaceAll(s, OutDir, out) }

	// {tamper_files} names the edited test files in the tamper check's run
	// (the pipeline replaces it); a whole run runs every test, so here it
	// stands for nothing.
	argv := make([]string, 0, len(spec.Argv))
	for _, a := range spec.Argv {
		if a == TamperFiles && !spec.Shell {
			continue
		}
		argv = append(argv, strings.ReplaceAll(expand(a), TamperFiles, ""))
	}
	if len(argv) == 0 {
		return fail(errors.New("argv holds no command besides " + TamperFiles))
	}
	if spec.Shell {
		argv = []string{"sh", "-c", argv[0]}
	}
	env := runEnv(opts, dir, out, spec.Env, expand, nil)

	stdoutReport := false
	for _, r := range spec.Reports {
		stdoutReport = stdoutReport || r.Stdout
	}
	var stdoutFile *os.File
	if stdoutReport {
		f, err := os.CreateTemp(out, "stdout-*")
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		defer os.Remove(f.Name())
		stdoutFile = f
	}

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	bin, err := lookPath(argv[0], env)
	if err != nil {
		return fail(fmt.Errorf("%s is not installed (not found in PATH; entries inside the repository are not searched)", argv[0]))
	}
	cmd := exec.CommandContext(runCtx, bin, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = nil
	tail := &Tail{Max: 4096}
	var stderr io.Writer = tail
	if opts.Output != nil {
		stderr = io.MultiWriter(tail, opts.Output)
	}
	cmd.Stderr = stderr
	switch {
	case stdoutFile != nil:
		cmd.Stdout = stdoutFile
	case opts.Output != nil:
		cmd.Stdout = opts.Output
	}
	killGroup(cmd)
	// A test binary that a killed command leaves holding the pipes must not
	// keep Run waiting.
	cmd.WaitDelay = 10 * time.Second

	// Report files the checkout holds before the command runs came with
	// the commit (a forged Surefire report committed under target/, say):
	// one the command does not rewrite is not its evidence.
	committed := map[string]os.FileInfo{}
	for _, r := range spec.Reports {
		if r.Stdout || strings.HasPrefix(expand(r.Path), out) {
			continue
		}
		files, err := globReports(dir, expand(r.Path))
		if err != nil {
			return fail(fmt.Errorf("report %s: %w", r.Path, err))
		}
		for _, f := range files {
			if fi, err := os.Lstat(f); err == nil {
				committed[f] = fi
			}
		}
	}

	if opts.Progress != nil {
		opts.Progress(spec.Name, PhaseStart, 0)
	}
	stopTicker := ticker(spec.Name, start, opts)
	err = cmd.Run()
	stopTicker()
	cr.Duration = time.Since(start)
	code, xerr := exitStatus(ctx, runCtx, err, timeout)
	switch {
	case xerr == nil:
		cr.ExitCode = code
	case ctx.Err() != nil || runCtx.Err() != nil:
		return fail(xerr)
	case errors.Is(err, exec.ErrNotFound):
		return fail(fmt.Errorf("%s is not installed (not found in PATH)", argv[0]))
	default:
		return fail(fmt.Errorf("run %s: %w", argv[0], err))
	}
	status := func() string {
		s := fmt.Sprintf("exit status %d", cr.ExitCode)
		if t := tail.String(); t != "" {
			s += "; stderr ends: " + t
		}
		return s
	}
	if len(spec.Reports) == 0 {
		if cr.ExitCode != 0 {
			return fail(errors.New(status()))
		}
		return nil, cr, nil
	}

	if opts.Progress != nil {
		opts.Progress(spec.Name, PhaseParse, time.Since(start))
	}
	var results []*collectors.Result
	for _, r := range spec.Reports {
		p, err := collectors.New(r.Format)
		if err != nil {
			return fail(err)
		}
		if r.Stdout {
			name := spec.Name + " stdout"
			fi, err := stdoutFile.Stat()
			if err != nil {
				return fail(err)
			}
			if fi.Size() == 0 && cr.ExitCode != 0 {
				return fail(fmt.Errorf("no %s report on standard output (%s)", r.Format, status()))
			}
			res, err := parseFile(ctx, budget, p, name, stdoutFile.Name(), out)
			if err != nil {
				return fail(err)
			}
			results = append(results, res)
			cr.Reports = append(cr.Reports, name)
			continue
		}
		pattern := expand(r.Path)
		files, err := globReports(dir, pattern)
		if err != nil {
			return fail(fmt.Errorf("report %s: %w", r.Path, err))
		}
		files, stale := withoutCommitted(files, committed)
		for _, f := range stale {
			results = append(results, &collectors.Result{Sources: []string{spec.Name}, Integrity: []collectors.IntegrityProblem{{
				Package: reportName(dir, out, f),
				Problem: "this report file was in the checkout before " + spec.Name + " ran (it came with the commit) and the run did not rewrite it, so it is not read: it is no evidence of this run",
			}}})
		}
		if len(files) == 0 {
			if opts.ReportMissingMeasured {
				res := &collectors.Result{
					Sources: []string{spec.Name},
					Integrity: []collectors.IntegrityProblem{{Package: spec.Name, Problem: fmt.Sprintf(
						"its command ended (%s) without writing its report %s: the run stopped before its end, so what it did not report was not measured", status(), r.Path)}},
				}
				if spec.Tests {
					res.Tests = &collectors.Tests{}
				}
				results = append(results, res)
				continue
			}
			return fail(fmt.Errorf("report file %s (%s) is missing after the command ran (%s)", r.Path, r.Format, status()))
		}
		var parsed []*collectors.Result
		for _, f := range files {
			name := reportName(dir, out, f)
			res, err := parseFile(ctx, budget, p, name, f, dir, out)
			if err != nil {
				return fail(err)
			}
			parsed = append(parsed, res)
			cr.Reports = append(cr.Reports, name)
		}
		if len(parsed) == 1 {
			results = append(results, parsed[0])
		} else {
			results = append(results, collectors.Merge(parsed...))
		}
	}
	cr.Duration = time.Since(start)
	return results, cr, nil
}

// withoutCommitted splits report files into those the run wrote and those
// that were in the checkout before it (committed) and are unchanged.
func withoutCommitted(files []string, committed map[string]os.FileInfo) (fresh, stale []string) {
	for _, f := range files {
		before, ok := committed[f]
		if ok {
			if now, err := os.Lstat(f); err == nil && now.Size() == before.Size() && now.ModTime().Equal(before.ModTime()) {
				stale = append(stale, f)
				continue
			}
		}
		fresh = append(fresh, f)
	}
	return fresh, stale
}

// runEnv is the environment a command of the checkout at dir starts
// with: the caller's (opts.Environ, else the process's) without
// credentials or repository-pointing variables (ScrubEnv), isolated under
// out when opts.Isolate, then extra in name order, each value through
// value (nil: as is), each name kept only when keep says so (nil: all).
func runEnv(opts RunOptions, dir, out string, extra map[string]string, value func(string) string, keep func(string) bool) []string {
	env := opts.Environ
	if env == nil {
		env = os.Environ()
	}
	env, _ = ScrubEnv(withoutRepoEnv(env), dir, opts.RepoDir)
	if opts.Isolate {
		env = isolatedEnv(env, out)
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if keep != nil && !keep(k) {
			continue
		}
		v := extra[k]
		if value != nil {
			v = value(v)
		}
		env = append(env, k+"="+v)
	}
	return env
}

// exitStatus reads how a command run under runCtx (a timeout inside ctx)
// ended: its exit code, or why it has none (interrupted, timed out, not
// started).
func exitStatus(ctx, runCtx context.Context, err error, timeout time.Duration) (int, error) {
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return 0, fmt.Errorf("interrupted: %w", ctx.Err())
	case runCtx.Err() != nil:
		return 0, fmt.Errorf("timed out after %s", timeout)
	case errors.As(err, &exitErr):
		return exitErr.ExitCode(), nil
	}
	return 0, err
}

// parseFile parses one report file, which must lie inside roots (OpenReport);
// the parser's errors name the file.
func parseFile(ctx context.Context, budget *ReportBudget, p collectors.Parser, name, file string, roots ...string) (*collectors.Result, error) {
	f, err := OpenReport(ctx, name, file, roots...)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := budget.Spend(name, ReportSize(f)); err != nil {
		return nil, err
	}
	res, err := p.Parse(name, f)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// reportName is how errors and Sources name a report file: relative to the
// checkout, or as {out}/... for the output directory.
func reportName(dir, out, file string) string {
	if rel, err := filepath.Rel(out, file); err == nil && !strings.HasPrefix(rel, "..") {
		return OutDir + "/" + filepath.ToSlash(rel)
	}
	if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return file
}

// globReports expands a report glob, relative to dir unless absolute; "**"
// matches any number of directories (config.MatchGlob). Only regular files
// match, sorted.
func globReports(dir, pattern string) ([]string, error) {
	pattern = filepath.ToSlash(pattern)
	if !filepath.IsAbs(filepath.FromSlash(pattern)) {
		pattern = filepath.ToSlash(dir) + "/" + strings.TrimPrefix(pattern, "./")
	}
	var files []string
	if !strings.Contains(pattern, "**") {
		matches, err := filepath.Glob(filepath.FromSlash(pattern))
		if err != nil {
			return nil, err
		}
		files = matches
	} else {
		// Walk from the pattern's longest prefix without wildcards.
		segs := strings.Split(pattern, "/")
		i := 0
		for i < len(segs) && !strings.ContainsAny(segs[i], "*?[") {
			i++
		}
		root := strings.Join(segs[:i], "/")
		if root == "" {
			root = "/"
		}
		rest := strings.Join(segs[i:], "/")
		err := filepath.WalkDir(filepath.FromSlash(root), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if p == filepath.FromSlash(root) {
					return filepath.SkipAll
				}
				return nil
			}
			rel, rerr := filepath.Rel(filepath.FromSlash(root), p)
			if rerr != nil || d.IsDir() {
				return nil
			}
			if config.MatchGlob(rest, filepath.ToSlash(rel)) || !strings.Contains(rest, "/") && config.MatchGlob("**/"+rest, filepath.ToSlash(rel)) {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := files[:0]
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out, nil
}

// ticker reports PhaseRunning every ProgressInterval until stopped.
func ticker(name string, start time.Time, opts RunOptions) (stop func()) {
	if opts.Progress == nil {
		return func() {}
	}
	every := opts.ProgressInterval
	if every <= 0 {
		every = time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				opts.Progress(name, PhaseRunning, time.Since(start))
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// Tail keeps the last Max bytes written to it: the end of a command's
// standard error, for a message.
type Tail struct {
	mu  sync.Mutex
	Max int
	b   []byte
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.Max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.Max:]...)
	}
	return len(p), nil
}

// Text returns what is kept, as valid UTF-8.
func (t *Tail) Text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.b), "")
}

// String returns the last lines written, on one line.
func (t *Tail) String() string {
	lines := strings.Split(strings.TrimSpace(t.Text()), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	s := strings.Join(lines, " | ")
	if len(s) > 400 {
		s = "…" + s[len(s)-400:]
	}
	return strings.TrimSpace(s)
}
