package cli

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
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/ghaction"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/report"
)

func init() { register("action", actionHelp, runAction) }

const actionHelp = `Usage:
  ralph-gate action

Runs the gate as a GitHub Action step (action.yml calls it). Inputs come from
INPUT_<NAME> variables as the runner passes them (INPUT_FAIL-ON, ...); the range
from the event (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH): a pull request's
base.sha..head.sha, a push to a branch from its merge-base with the default
branch (to the default branch: before..after), or the base and head inputs. The repository is
GITHUB_WORKSPACE. A shallow checkout is deepened with git fetch; when the
remote cannot supply BASE it fails asking for fetch-depth: 0.

It runs compare (collectors when collect is auto, report files from the
reports and base-reports inputs), annotates the findings' lines (10 errors and
10 warnings, the rest listed in the summary), writes the job summary (verdict,
findings, metrics, per-commit timeline, a mermaid chart), the JSON report and
optionally SARIF, updates one sticky pull request comment with the token, and
sets the outputs verdict, findings, approved, report and sarif. The approve
label (default ralph-gate/approved) passes a block in the run of its labeled
event, applied by someone with write access who did not open the pull request
and is no bot or agent account (approve.agent_accounts).

In a report job on workflow_run, report-from names the measure job's report
(its artifact): the step posts it as the comment and the summary instead of
measuring, with the measure job's conclusion as the verdict.

Outside a runner (GITHUB_ACTIONS is not "true") it prints the report and the
annotations as plain lines and writes no runner files and no comment.

Inputs: base, head, config, fail-on, collect (auto|none; default auto, none on
pull_request_target), all-packages (true|false; default false: only what the
range can affect runs), reports, base-reports, comment (true|false), sarif,
token, approve-label, working-directory, report-from.
`

func runAction(ctx context.Context, args []string, env Env) error {
	fs := newFlagSet("action", env)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("action", err, env)
	}
	if len(pos) > 0 {
		return usagef("action: takes no arguments (inputs come from INPUT_* variables), got %q", pos[0])
	}
	runner := ghaction.NewRunner(env.Getenv, env.Stdout)
	err = runActionStep(ctx, env, runner)
	if ExitCode(err) == ExitUsage {
		runner.Error(err.Error())
	}
	return err
}

func runActionStep(ctx context.Context, env Env, runner *ghaction.Runner) error {
	in, err := ghaction.ReadInputs(env.Getenv)
	if err != nil {
		return usagef("action: %v", err)
	}
	ev, err := ghaction.ReadEvent(env.Getenv)
	if err != nil {
		return inputErr(fmt.Errorf("action: %w", err))
	}
	workspace := orDefault(env.Getenv("GITHUB_WORKSPACE"), orDefault(env.Dir, "."))
	dir := filepath.Join(workspace, in.WorkingDirectory)
	if in.ReportFrom != "" {
		return postReport(ctx, env, runner, ev, in, workspace)
	}
	spec := ev.Spec(in)
	if spec.Deleted {
		runner.Notice("ralph-gate: " + spec.From + ": nothing to check")
		return setOutputs(runner, map[string]string{"verdict": string(gate.VerdictPass), "findings": "0", "approved": "false"})
	}
	rng, err := ghaction.Resolve(ctx, spec, ghaction.Git{Dir: dir, Log: env.Stdout})
	if err != nil {
		var shallow *ghaction.ShallowError
		if errors.As(err, &shallow) {
			return inputErr(fmt.Errorf("action: %w", err))
		}
		return classifyGit(err)
	}

	var notes []string
	if rng.Fetches > 0 {
		notes = append(notes, fmt.Sprintf("the checkout was shallow: %d git fetch runs brought the range's history (fetch-depth: 0 avoids them)", rng.Fetches))
	}
	cf := compareFlags{config: in.Config, collectMode: in.Collect, allPackages: in.AllPackages}
	cf.repo = dir
	if cf.config != "" && !filepath.IsAbs(cf.config) {
		cf.config = filepath.Join(dir, cf.config)
	}
	for _, r := range in.Reports {
		cf.reports = append(cf.reports, reportArg{r.Kind, r.Glob})
	}
	for _, r := range in.BaseReports {
		cf.baseReports = append(cf.baseReports, reportArg{r.Kind, r.Glob})
	}
	if cf.collectMode == "" {
		cf.collectMode = "auto"
		if ev.Name == "pull_request_target" {
			// The job holds a write token; running the pull request's tests in it
			// would hand the token to the code under review.
			cf.collectMode = "none"
			notes = append(notes, "collect defaults to none on pull_request_target: the pull request's code is not run with this job's write token (set collect: auto to run it anyway)")
		}
	}
	cf.staticOnly = cf.collectMode == "none" && len(cf.reports) == 0 && len(cf.baseReports) == 0
	cf.noCache = cf.staticOnly
	// The collectors run HEAD's code: the token is the comment's, not theirs.
	cf.environ = withoutVariables(env.environ(), "INPUT_TOKEN")
	cenv := env
	cenv.Dir = dir
	rep, cfg, err := compareRange(ctx, cenv, cf, rng.Base.String(), rng.Head.String())
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
	failOn := decide(rep, cfg, in.FailOn)
	blocked := rep.Verdict == gate.VerdictBlock
	// The approve label counts only from a person with write access who is
	// neither the pull request's author nor an agent account (BASE's
	// approve.agent_accounts), on the commit it was applied on.
	approved, approvedBy := false, ""
	if blocked {
		ap := ghaction.CheckApproval(ctx, ev, in.ApproveLabel, cfg.Approve.AgentAccounts,
			ghaction.Comments{API: orDefault(env.Getenv("GITHUB_API_URL"), "https://api.github.com"), Repo: ev.Repository, Token: in.Token})
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
	runner.Verbatim(func() { env.Stdout.Write(text.Bytes()) })
	shown, overflow := ghaction.SelectAnnotations(rep, failOn, filepath.ToSlash(in.WorkingDirectory))
	for _, a := range shown {
		runner.Annotate(a)
	}

	reportDir := env.Getenv("RUNNER_TEMP")
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
		notes = append(notes, upsertComment(ctx, env, ev, in, rep, approved, dir))
	}
	for _, n := range notes {
		runner.Notice("ralph-gate: " + n)
	}
	var summary bytes.Buffer
	if err := ghaction.WriteSummary(&summary, rep, ghaction.SummaryOptions{Approved: approved, Label: in.ApproveLabel,
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
		return &BlockedError{Findings: blocking(rep, failOn)}
	}
	return nil
}

// upsertComment keeps the pull request's sticky comment and says what became
// of it: a missing token or a read-only one (a fork's) is a note, never a
// failure, since the verdict does not depend on the comment.
func upsertComment(ctx context.Context, env Env, ev *ghaction.Event, in ghaction.Inputs, rep *gate.Report, approved bool, dir string) string {
	var body bytes.Buffer
	if err := report.Render(&body, report.Markdown, rep, report.Options{RepoRoot: dir, BlobURL: report.BlobURL(env.Getenv, rep.Head)}); err != nil {
		return "no pull request comment: " + err.Error()
	}
	if approved {
		fmt.Fprintf(&body, "\n**Approved by label `%s`**: the block is overridden.\n", strings.ReplaceAll(in.ApproveLabel, "`", ""))
	}
	c := ghaction.Comments{API: orDefault(env.Getenv("GITHUB_API_URL"), "https://api.github.com"), Repo: ev.Repository, Token: in.Token}
	n := ev.PullRequest.Number
	did, err := c.Upsert(ctx, n, body.String())
	switch {
	case errors.Is(err, ghaction.ErrNoPermission):
		return "no pull request comment: " + err.Error() + " (a fork's pull request gets a read-only token; the verdict does not need it)"
	case err != nil:
		return "no pull request comment: " + err.Error()
	case did == ghaction.CommentCreated:
		return fmt.Sprintf("commented on pull request #%d", n)
	case did == ghaction.CommentUnchanged:
		return fmt.Sprintf("the comment on pull request #%d is up to date", n)
	}
	return fmt.Sprintf("updated the comment on pull request #%d", n)
}

// setOutputs writes the step's outputs, in a fixed order.
func setOutputs(runner *ghaction.Runner, outputs map[string]string) error {
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

// withoutVariables drops the named variables from an environment list.
func withoutVariables(environ []string, names ...string) []string {
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
func postReport(ctx context.Context, env Env, runner *ghaction.Runner, ev *ghaction.Event, in ghaction.Inputs, workspace string) error {
	wr := ev.WorkflowRun
	if wr == nil {
		return usagef("action: report-from posts a measure job's report from a workflow_run event (this is %q)", ev.Name)
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
	api := ghaction.Comments{API: orDefault(env.Getenv("GITHUB_API_URL"), "https://api.github.com"), Repo: ev.Repository, Token: in.Token}
	approved, approvedBy := false, ""
	if rep.Verdict == gate.VerdictBlock {
		// The agent accounts come from the default branch's configuration,
		// when the report job checked it out (it runs no code of the pull
		// request).
		var agents []string
		if cfg, err := workspaceConfig(workspace); err == nil {
			agents = cfg.Approve.AgentAccounts
		}
		ap := ghaction.CheckRunApproval(ctx, wr, in.ApproveLabel, agents, api)
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
		cev.PullRequest = &ghaction.PullRequest{Number: wr.PullRequest}
		notes = append(notes, upsertComment(ctx, env, &cev, in, &rep, approved, workspace))
	} else if wr.PullRequest == 0 {
		notes = append(notes, "the measure run names no pull request (a fork's, which GitHub does not list): nothing to comment on")
	}
	for _, n := range notes {
		runner.Notice("ralph-gate: " + n)
	}
	var summary bytes.Buffer
	if err := ghaction.WriteSummary(&summary, &rep, ghaction.SummaryOptions{RangeFrom: "the measure run's report (" + in.ReportFrom + ")", Notes: notes,
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

func short7(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}
