package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/errkind"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/report"
)

// Step is the gate run as a GitHub Action step (the action command): its
// inputs, event and runner files come through Getenv, and what measures a
// range is Compare, the compare command's own work.
type Step struct {
	// Getenv reads the runner's variables (inputs, event, paths).
	Getenv func(string) string
	// Environ is the environment the collectors get, before the step
	// takes the token out of it.
	Environ func() []string
	// Dir is the workspace when GITHUB_WORKSPACE is not set.
	Dir string
	// Stdout is the step's log.
	Stdout io.Writer
	// Runner writes the outputs, summary and annotations.
	Runner *Runner
	// Compare measures req.Base..req.Head as compare does and returns the
	// report (no verdict yet) and BASE's configuration.
	Compare func(ctx context.Context, req CompareRequest) (*gate.Report, *config.Config, error)
}

// CompareRequest is what the step asks Compare to measure, from its inputs.
type CompareRequest struct {
	// Dir is the repository (the workspace and working-directory).
	Dir string
	// Config is the config input, made absolute; "" for BASE's own.
	Config string
	// Collect is auto or none.
	Collect     string
	AllPackages bool
	// Reports and BaseReports are the reports and base-reports inputs.
	Reports, BaseReports []ReportGlob
	// StaticOnly is set when nothing is measured (collect none and no
	// report files): the report has the diff analysis only, and no cache
	// is read.
	StaticOnly bool
	// Environ is the collectors' environment, without the token.
	Environ    []string
	Base, Head string
}

func (s *Step) comments(ev *Event, in Inputs) Comments {
	return Comments{API: orDefault(s.Getenv("GITHUB_API_URL"), "https://api.github.com"), Repo: ev.Repository, Token: in.Token}
}

func usageErr(format string, args ...any) error {
	return &errkind.Error{K: errkind.Usage, Err: fmt.Errorf(format, args...)}
}

func inputErr(err error) error { return &errkind.Error{K: errkind.Input, Err: err} }

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// Run runs the step: it reads the inputs and the event, measures the range
// (or, with report-from, posts a measure job's report), and writes the
// log, annotations, summary, report files, comment and outputs.
func (s *Step) Run(ctx context.Context) error {
	runner := s.Runner
	in, err := ReadInputs(s.Getenv)
	if err != nil {
		return usageErr("action: %v", err)
	}
	ev, err := ReadEvent(s.Getenv)
	if err != nil {
		return inputErr(fmt.Errorf("action: %w", err))
	}
	workspace := orDefault(s.Getenv("GITHUB_WORKSPACE"), orDefault(s.Dir, "."))
	dir := filepath.Join(workspace, in.WorkingDirectory)
	if in.ReportFrom != "" {
		return s.postReport(ctx, ev, in, workspace)
	}
	spec := ev.Spec(in)
	if spec.Deleted {
		runner.Notice("ralph-gate: " + spec.From + ": nothing to check")
		return setOutputs(runner, map[string]string{"verdict": string(gate.VerdictPass), "findings": "0", "approved": "false"})
	}
	rng, err := Resolve(ctx, spec, Git{Dir: dir, Log: s.Stdout})
	if err != nil {
		var shallow *ShallowError
		if errors.As(err, &shallow) {
			return inputErr(fmt.Errorf("action: %w", err))
		}
		return gitrepo.AsInput(err)
	}

	var notes []string
	if rng.Fetches > 0 {
		notes = append(notes, fmt.Sprintf("the checkout was shallow: %d git fetch runs brought the range's history (fetch-depth: 0 avoids them)", rng.Fetches))
	}
	req := CompareRequest{Dir: dir, Config: in.Config, Collect: in.Collect, AllPackages: in.AllPackages,
		Reports: in.Reports, BaseReports: in.BaseReports, Base: rng.Base.String(), Head: rng.Head.String()}
	if req.Config != "" && !filepath.IsAbs(req.Config) {
		req.Config = filepath.Join(dir, req.Config)
	}
	if req.Collect == "" {
		req.Collect = "auto"
		if ev.Name == "pull_request_target" {
			// The job holds a write token; running the pull request's tests in it
			// would hand the token to the code under review.
			req.Collect = "none"
			notes = append(notes, "collect defaults to none on pull_request_target: the pull request's code is not run with this job's write token (set collect: auto to run it anyway)")
		}
	}
	req.StaticOnly = req.Collect == "none" && len(req.Reports) == 0 && len(req.BaseReports) == 0
	// The collectors run HEAD's code: the token is the comment's, not theirs.
	req.Environ = WithoutVariables(s.Environ(), "INPUT_TOKEN")
	rep, cfg, err := s.Compare(ctx, req)
	if err != nil {
		return err
	}
	// The step's runner files are ralph-gate's alone: what HEAD's code wrote
	// in them is emptied before any result is written, and is a finding.
	written, err := runner.Claim()
	if err != nil {
		return inputErr(fmt.Errorf("action: %w", err))
	}
	for _, w := range written {
		rep.Findings = append(rep.Findings, w.Finding())
	}
	failOn := cfg.Decide(rep, in.FailOn)
	blocked := rep.Verdict == gate.VerdictBlock
	// The approve label counts only from a person with write access who is
	// neither the pull request's author nor an agent account (BASE's
	// approve.agent_accounts), on the commit it was applied on.
	approved, approvedBy := false, ""
	if blocked {
		ap := CheckApproval(ctx, ev, in.ApproveLabel, cfg.Approve.AgentAccounts, s.comments(ev, in))
		approved, approvedBy = ap.Approved, ap.By
		if ap.Note != "" {
			notes = append(notes, ap.Note)
		}
	}

	// The log: the text report, with workflow commands off while the agent's
	// text is printed; then the annotations.
	var text bytes.Buffer
	if err := report.Render(&text, report.Text, rep, report.Options{RepoRoot: dir}); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	runner.Verbatim(func() { s.Stdout.Write(text.Bytes()) })
	shown, overflow := SelectAnnotations(rep, failOn, filepath.ToSlash(in.WorkingDirectory))
	for _, a := range shown {
		runner.Annotate(a)
	}

	reportDir := s.Getenv("RUNNER_TEMP")
	if reportDir == "" {
		reportDir = filepath.Join(rng.GitDir, "ralph-gate")
	}
	reportPath := filepath.Join(reportDir, "ralph-gate-report.json")
	if err := writeRendered(reportPath, report.JSON, rep, dir, workspace); err != nil {
		return err
	}
	sarifPath := ""
	if in.SARIF != "" {
		sarifPath = in.SARIF
		if !filepath.IsAbs(sarifPath) {
			sarifPath = filepath.Join(workspace, sarifPath)
		}
		if err := writeRendered(sarifPath, report.SARIF, rep, dir, workspace); err != nil {
			return err
		}
	}
	if in.Comment && ev.PullRequest != nil && runner.Active {
		notes = append(notes, s.upsertComment(ctx, ev, in, rep, approved, dir))
	}
	for _, n := range notes {
		runner.Notice("ralph-gate: " + n)
	}
	var summary bytes.Buffer
	if err := WriteSummary(&summary, rep, SummaryOptions{Approved: approved, Label: in.ApproveLabel,
		ApprovedBy: approvedBy, Overflow: overflow, RangeFrom: spec.From, Notes: notes}); err != nil {
		return err
	}
	if err := runner.Summary(summary.String()); err != nil {
		return inputErr(fmt.Errorf("action: %w", err))
	}

	verdict := rep.Verdict
	if approved {
		verdict = gate.VerdictPass
		runner.Notice(fmt.Sprintf("ralph-gate: the block is approved by the label %s: this step passes", in.ApproveLabel))
	}
	if err := setOutputs(runner, map[string]string{
		"verdict": string(verdict), "findings": strconv.Itoa(netFindings(rep)), "approved": strconv.FormatBool(approved),
		"report": reportPath, "sarif": sarifPath,
	}); err != nil {
		return err
	}
	if blocked && !approved {
		return &errkind.BlockedError{Findings: gate.Blocking(rep.Findings, failOn)}
	}
	return nil
}

// upsertComment keeps the pull request's sticky comment and says what became
// of it: a missing token or a read-only one (a fork's) is a note, never a
// failure, since the verdict does not depend on the comment.
func (s *Step) upsertComment(ctx context.Context, ev *Event, in Inputs, rep *gate.Report, approved bool, dir string) string {
	var body bytes.Buffer
	if err := report.Render(&body, report.Markdown, rep, report.Options{RepoRoot: dir, BlobURL: report.BlobURL(s.Getenv, rep.Head)}); err != nil {
		return "no pull request comment: " + err.Error()
	}
	if approved {
		fmt.Fprintf(&body, "\n**Approved by label `%s`**: the block is overridden.\n", strings.ReplaceAll(in.ApproveLabel, "`", ""))
	}
	c := s.comments(ev, in)
	n := ev.PullRequest.Number
	did, err := c.Upsert(ctx, n, body.String())
	switch {
	case errors.Is(err, ErrNoPermission):
		return "no pull request comment: " + err.Error() + " (a fork's pull request gets a read-only token; the verdict does not need it)"
	case err != nil:
		return "no pull request comment: " + err.Error()
	case did == CommentCreated:
		return fmt.Sprintf("commented on pull request #%d", n)
	case did == CommentUnchanged:
		return fmt.Sprintf("the comment on pull request #%d is up to date", n)
	}
	return fmt.Sprintf("updated the comment on pull request #%d", n)
}

// setOutputs writes the step's outputs, in a fixed order.
func setOutputs(runner *Runner, outputs map[string]string) error {
	for _, name := range []string{"verdict", "findings", "approved", "report", "sarif"} {
		v, ok := outputs[name]
		if !ok {
			continue
		}
		if err := runner.Output(name, v); err != nil {
			return inputErr(fmt.Errorf("action: %w", err))
		}
	}
	return nil
}

// WithoutVariables drops the named variables from an environment list.
func WithoutVariables(environ []string, names ...string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || name == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

func netFindings(rep *gate.Report) int {
	n := 0
	for _, f := range rep.Findings {
		if f.Net && f.Suppressed == "" {
			n++
		}
	}
	return n
}

// writeRendered renders rep to a file.
func writeRendered(path string, f report.Format, rep *gate.Report, root, workspace string) error {
	var buf bytes.Buffer
	if err := report.Render(&buf, f, rep, report.Options{RepoRoot: root}); err != nil {
		return fmt.Errorf("render %s: %w", path, err)
	}
	return writeFresh(path, workspace, buf.Bytes())
}

// writeFresh writes an output file without following a link the change may
// have committed where it goes: no directory between root (the repository,
// which the change shapes) and the file may be a symbolic link, and the
// file is created fresh beside its destination and renamed into place, which
// replaces a link instead of writing through it. A path outside root (the
// runner's temporary directory) is out of the change's reach.
func writeFresh(path, root string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return inputErr(fmt.Errorf("write %s: %w", path, errors.Unwrap(err)))
	}
	if abs, err := filepath.Abs(dir); err == nil && root != "" && insideDir(abs, root) {
		rel, _ := filepath.Rel(root, abs)
		cur := root
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if part == "." || part == "" {
				continue
			}
			cur = filepath.Join(cur, part)
			if fi, err := os.Lstat(cur); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				return inputErr(fmt.Errorf("write %s: %s is a symbolic link in the repository: refused, the file is not written through it", path, cur))
			}
		}
	}
	tmp, err := os.CreateTemp(dir, ".ralph-gate-*")
	if err != nil {
		return inputErr(fmt.Errorf("write %s: %w", path, errors.Unwrap(err)))
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return inputErr(fmt.Errorf("write %s: %w", path, werr))
	}
	return nil
}

// insideDir reports whether p is dir or below it.
func insideDir(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// maxArtifactReport caps the measure job's report a report job reads.
const maxArtifactReport = 32 << 20

// postReport is the report job of the two-job workflow: on workflow_run, it
// posts the measure job's report (an artifact) as the sticky comment and the
// summary. The artifact was written in a job that ran the pull request's
// code, so it is untrusted input: a regular file within a size cap, strict
// JSON of schema ralph-gate/report/v1, of the very commit GitHub says the
// measure run was for; and the verdict shown is the measure job's
// conclusion, which its code could not forge, never the file's.
func (s *Step) postReport(ctx context.Context, ev *Event, in Inputs, workspace string) error {
	runner := s.Runner
	wr := ev.WorkflowRun
	if wr == nil {
		return usageErr("action: report-from posts a measure job's report from a workflow_run event (this is %q)", ev.Name)
	}
	path := in.ReportFrom
	if !filepath.IsAbs(path) {
		path = filepath.Join(workspace, path)
	}
	f, err := collect.OpenReport(ctx, in.ReportFrom, path, filepath.Dir(path))
	if err != nil {
		return inputErr(fmt.Errorf("action: %w", err))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxArtifactReport+1))
	f.Close()
	if err != nil {
		return inputErr(fmt.Errorf("action: read %s: %w", in.ReportFrom, err))
	}
	if len(data) > maxArtifactReport {
		return inputErr(fmt.Errorf("action: %s is over %d bytes: not a report this gate wrote", in.ReportFrom, maxArtifactReport))
	}
	var rep gate.Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		return inputErr(fmt.Errorf("action: %s is not a ralph-gate report: %v", in.ReportFrom, err))
	}
	if dec.More() {
		return inputErr(fmt.Errorf("action: %s holds more than one JSON value", in.ReportFrom))
	}
	if rep.Schema != gate.Schema {
		return inputErr(fmt.Errorf("action: %s has schema %q, want %s", in.ReportFrom, rep.Schema, gate.Schema))
	}
	if rep.Head != wr.HeadSHA {
		return inputErr(fmt.Errorf("action: %s is the report of %s, but the measure run was for %s: refused", in.ReportFrom, short7(rep.Head), short7(wr.HeadSHA)))
	}
	// The verdict is the measure job's, as GitHub reports its conclusion.
	var notes []string
	switch wr.Conclusion {
	case "success":
		if rep.Verdict == gate.VerdictBlock {
			rep.Verdict = gate.VerdictPass
			notes = append(notes, "the measure job passed (approved, or its fail-on is lower than the report's)")
		}
	case "failure":
		if rep.Verdict != gate.VerdictBlock {
			notes = append(notes, fmt.Sprintf("the measure job failed although its report says %s: the verdict shown is the job's", rep.Verdict))
			rep.Verdict = gate.VerdictBlock
		}
	default:
		return inputErr(fmt.Errorf("action: the measure run's conclusion is %q: there is no verdict to post", wr.Conclusion))
	}
	api := s.comments(ev, in)
	approved, approvedBy := false, ""
	if rep.Verdict == gate.VerdictBlock {
		// The agent accounts come from the default branch's configuration,
		// when the report job checked it out (it runs no code of the pull
		// request).
		var agents []string
		if cfg, err := workspaceConfig(workspace); err == nil {
			agents = cfg.Approve.AgentAccounts
		}
		ap := CheckRunApproval(ctx, wr, in.ApproveLabel, agents, api)
		if ap.Note != "" {
			notes = append(notes, ap.Note)
		}
		if ap.Approved {
			approved, approvedBy = true, ap.By
			rep.Verdict = gate.VerdictPass
		}
	}
	if runner.Active {
		state, desc := "success", "ralph-gate: "+string(rep.Verdict)
		if rep.Verdict == gate.VerdictBlock {
			state = "failure"
		}
		if approved {
			desc = "ralph-gate: block approved by " + approvedBy
		}
		if err := api.SetStatus(ctx, wr.HeadSHA, state, desc); err != nil {
			notes = append(notes, "no commit status: "+err.Error()+" (the report job needs statuses: write)")
		}
	}
	if in.Comment && wr.PullRequest > 0 && runner.Active {
		cev := *ev
		cev.PullRequest = &PullRequest{Number: wr.PullRequest}
		notes = append(notes, s.upsertComment(ctx, &cev, in, &rep, approved, workspace))
	} else if wr.PullRequest == 0 {
		notes = append(notes, "the measure run names no pull request (a fork's, which GitHub does not list): nothing to comment on")
	}
	for _, n := range notes {
		runner.Notice("ralph-gate: " + n)
	}
	var summary bytes.Buffer
	if err := WriteSummary(&summary, &rep, SummaryOptions{RangeFrom: "the measure run's report (" + in.ReportFrom + ")", Notes: notes,
		Approved: approved, ApprovedBy: approvedBy, Label: in.ApproveLabel}); err != nil {
		return err
	}
	if err := runner.Summary(summary.String()); err != nil {
		return inputErr(fmt.Errorf("action: %w", err))
	}
	return setOutputs(runner, map[string]string{"verdict": string(rep.Verdict), "findings": strconv.Itoa(netFindings(&rep)), "approved": strconv.FormatBool(approved)})
}

// workspaceConfig reads .ralph-gate.yml from the commit checked out in the
// workspace (the default branch, in a workflow_run job).
func workspaceConfig(workspace string) (*config.Config, error) {
	repo, err := gitrepo.Open(workspace)
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	head, err := repo.Resolve("HEAD")
	if err != nil {
		return nil, err
	}
	return config.AtCommit(repo, head, "the default branch")
}
