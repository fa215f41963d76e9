package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrange"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/patch"
	"github.com/ralph-gate/ralph-gate/internal/report"
	"github.com/ralph-gate/ralph-gate/internal/terminal"
)

// commonFlags are the flags every reporting command shares.
type commonFlags struct {
	repo    string
	format  string
	failOn  gate.FailOnFlag
	verbose bool
}

func (c *commonFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
	Var(flag.Value, string, string)
}) {
	fs.StringVar(&c.repo, "repo", "", "the repository `DIR` (default: the current directory)")
	fs.StringVar(&c.format, "format", "", "output format `F`: text (default), json, markdown, sarif, github, codeclimate (GitLab Code Quality), rdjson (reviewdog)")
	fs.Var(&c.failOn, "fail-on", "the lowest severity `SEV` that blocks: critical, high (default), medium, low, none; the config's fail_on applies when the flag is not given")
	fs.BoolVar(&c.verbose, "verbose", false, "text: each finding's id, rule, evidence and measured values")
}

func init() { register("analyze", analyzeHelp, runAnalyze) }

func runAnalyze(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("analyze", env)
	var cf commonFlags
	cf.register(fs)
	patchFile := fs.String("patch", "", "analyze the unified diff in `FILE|-` (a file, or - for standard input) instead of a range; no repository needed")
	configFile := fs.String("config", "", "with --patch: the configuration `FILE` to use (default: .ralph-gate.yml of the default branch)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("analyze", err, env)
	}
	format, err := report.ParseFormat(orDefault(cf.format, "text"))
	if err != nil {
		return usagef("analyze: --format: %v", err)
	}
	failOn := cf.failOn.Value()
	patchSet := false
	fs.Visit(func(f *flag.Flag) { patchSet = patchSet || f.Name == "patch" })
	if patchSet && *patchFile == "" {
		return usagef("analyze: --patch: empty file name (a unified diff file, or - for standard input)")
	}
	if *patchFile != "" {
		if len(pos) > 0 {
			return usagef("analyze: --patch takes no BASE or HEAD (got %q)", pos[0])
		}
		return analyzePatch(ctx, *patchFile, *configFile, cf, format, failOn, env)
	}
	if *configFile != "" {
		return usagef("analyze: --config goes with --patch (a range reads .ralph-gate.yml from BASE's tree)")
	}
	if len(pos) > 2 {
		return usagef("analyze: too many arguments: want at most BASE and HEAD, got %d", len(pos))
	}
	dir := cf.repo
	if dir == "" {
		dir = orDefault(env.Dir, ".")
	}
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return classifyGit(err)
	}
	headRev := "HEAD"
	if len(pos) == 2 {
		headRev = pos[1]
	}
	head, err := repo.Resolve(headRev)
	if err != nil {
		return classifyGit(err)
	}
	var base plumbing.Hash
	if len(pos) >= 1 {
		base, err = repo.Resolve(pos[0])
		if err != nil {
			return classifyGit(err)
		}
	} else {
		base, err = defaultBase(repo, head)
		if err != nil {
			return err
		}
	}
	cfg, err := loadConfig(repo, base)
	if err != nil {
		return err
	}
	progress := progressFunc(env)
	res, err := gitrange.Analyze(ctx, repo, base, head, cfg, progress)
	if err != nil {
		return classifyGit(err)
	}
	rep := newReport(env, res.Base.String(), res.Head.String(), res.Findings, res.Commits, res.Notes)
	return finish(rep, cfg, failOn, format, cf, env)
}

// defaultBase is the merge-base of head with the default branch.
func defaultBase(repo *gitrepo.Repo, head plumbing.Hash) (plumbing.Hash, error) {
	branch, err := repo.DefaultBranch()
	if err != nil {
		return plumbing.ZeroHash, inputErr(fmt.Errorf("no BASE given and %v; name BASE explicitly, e.g. 'ralph-gate analyze origin/main'", err))
	}
	bh, err := repo.Resolve(branch)
	if err != nil {
		return plumbing.ZeroHash, classifyGit(err)
	}
	mb, err := repo.MergeBase(bh, head)
	if err != nil {
		return plumbing.ZeroHash, inputErr(fmt.Errorf("no merge-base of HEAD with the default branch %s: %v", branch, err))
	}
	return mb, nil
}

// loadConfig reads .ralph-gate.yml from a commit's tree; absent means defaults.
func loadConfig(repo *gitrepo.Repo, at plumbing.Hash) (*config.Config, error) {
	cfg, err := config.AtCommit(repo, at, "BASE")
	var invalid *config.InvalidError
	if errors.As(err, &invalid) {
		return nil, inputErr(err)
	}
	return cfg, classifyGit(err)
}

func analyzePatch(ctx context.Context, name, configFile string, cf commonFlags, format report.Format, failOn *gate.Severity, env Env) error {
	var r io.Reader
	display := name
	if name == "-" {
		r, display = env.Stdin, "<stdin>"
		if r == nil {
			r = bytes.NewReader(nil)
		}
	} else {
		p := name
		if !filepath.IsAbs(p) && env.Dir != "" {
			p = filepath.Join(env.Dir, p)
		}
		f, err := os.Open(p)
		if err != nil {
			return inputErr(fmt.Errorf("read patch %s: %w", name, errors.Unwrap(err)))
		}
		defer f.Close()
		r = f
	}
	// A patch read from a pipe that never ends must not outlive Ctrl-C or
	// SIGTERM: the read goes through a pipe that a cancelled ctx closes (the
	// copy blocked on the input is left to the process's exit).
	pr, pw := io.Pipe()
	go func() { _, err := io.Copy(pw, r); pw.CloseWithError(err) }()
	stop := context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	defer stop()
	files, err := patch.Read(display, pr)
	if ctx.Err() != nil {
		return fmt.Errorf("read patch %s: %w", display, ctx.Err())
	}
	if err != nil {
		return inputErr(err)
	}
	// The configuration is trusted: a file named with --config, else
	// .ralph-gate.yml of the default branch's tip (never HEAD's or the
	// working tree's, which the change may have loosened); outside a
	// repository, or without a default branch, the defaults.
	cfg := config.Default()
	dir := cf.repo
	if dir == "" {
		dir = orDefault(env.Dir, ".")
	}
	switch {
	case configFile != "":
		p := configFile
		if !filepath.IsAbs(p) && env.Dir != "" {
			p = filepath.Join(env.Dir, p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return inputErr(fmt.Errorf("read --config %s: %w", configFile, errors.Unwrap(err)))
		}
		if cfg, err = config.Parse(configFile, data); err != nil {
			return inputErr(err)
		}
	default:
		if repo, err := gitrepo.Open(dir); err == nil {
			if branch, err := repo.DefaultBranch(); err == nil {
				if tip, err := repo.Resolve(branch); err == nil {
					if cfg, err = loadConfig(repo, tip); err != nil {
						return err
					}
				}
			}
		}
	}
	ch := analyze.Change{}
	for _, f := range files {
		fc := analyze.FileChange{OldPath: f.OldPath, NewPath: f.NewPath, Old: f.Old, New: f.New, Fragment: !f.Complete}
		if f.Binary {
			fc.Skip = "binary file: skipped"
		}
		ch.Files = append(ch.Files, fc)
	}
	an := analyze.New(cfg)
	findings := an.Analyze(ch)
	rep := newReport(env, "", "", findings, []gate.Commit{}, an.Notes())
	return finish(rep, cfg, failOn, format, cf, env)
}

func newReport(env Env, base, head string, findings []gate.Finding, commits []gate.Commit, notes []gate.Note) *gate.Report {
	findings = analyze.Group(findings)
	if findings == nil {
		findings = []gate.Finding{}
	}
	if commits == nil {
		commits = []gate.Commit{}
	}
	return &gate.Report{
		Schema:   gate.Schema,
		Tool:     gate.Tool{Name: "ralph-gate", Version: env.Version},
		Base:     base,
		Head:     head,
		Commits:  commits,
		Findings: findings,
		Notes:    notes,
	}
}

// finish decides the verdict, renders the report and turns a block into the
// blocked error.
func finish(rep *gate.Report, cfg *config.Config, failOnFlag *gate.Severity, format report.Format, cf commonFlags, env Env) error {
	failOn := cfg.Decide(rep, failOnFlag)
	opt := report.Options{
		Color:   format == report.Text && terminal.Is(env.Stdout) && env.Getenv("NO_COLOR") == "",
		Verbose: cf.verbose,
		BlobURL: report.BlobURL(env.Getenv, rep.Head),
	}
	if err := report.Render(env.Stdout, format, rep, opt); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if rep.Verdict == gate.VerdictBlock {
		return &BlockedError{Findings: gate.Blocking(rep.Findings, failOn)}
	}
	return nil
}

// progressFunc reports range progress on stderr when it is a terminal and the
// range is long enough for a person to wait on.
func progressFunc(env Env) gitrange.Progress {
	if !terminal.Is(env.Stderr) {
		return nil
	}
	start := time.Now()
	shown := false
	return func(done, total int, sha string) {
		if total < 20 {
			return
		}
		if done == total {
			if shown {
				fmt.Fprintf(env.Stderr, "\r\033[Kanalyzed %d commits in %s\n", total, time.Since(start).Round(time.Millisecond))
			}
			return
		}
		if done%10 == 0 {
			shown = true
			fmt.Fprintf(env.Stderr, "\r\033[Kanalyzed %d/%d commits (%s)", done, total, time.Since(start).Round(time.Second))
		}
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
