package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/ghaction"
	"github.com/ralph-gate/ralph-gate/internal/report"
)

func init() { register("action", actionHelp, runAction) }

const actionHelp = `Usage:
  ralph-gate action

Runs the gate as a GitHub Action step (action.yml calls it). Inputs come from
INPUT_<NAME> variables as the runner passes them (INPUT_FAIL-ON, ...); the range
from the event (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH): a pull request's
base.sha..head.sha, a push's before..after (a new branch from its merge-base
with the default branch), or the base and head inputs. The repository is
GITHUB_WORKSPACE. A shallow checkout is deepened with git fetch; when the
remote cannot supply BASE it fails asking for fetch-depth: 0.

It runs compare (collectors when collect is auto, report files from the
reports and base-reports inputs), annotates the findings' lines (10 errors and
10 warnings, the rest listed in the summary), writes the job summary (verdict,
findings, metrics, per-commit timeline, a mermaid chart), the JSON report and
optionally SARIF, updates one sticky pull request comment with the token, and
sets the outputs verdict, findings, approved, report and sarif. A pull request
carrying the approve label (default ralph-gate/approved) passes a block.

Inputs: base, head, config, fail-on, collect (auto|none), reports, base-reports,
comment (true|false), sarif, token, approve-label, working-directory.
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
	runner := ghaction.NewRunner(env.Getenv, env.Stdout)
	spec := ev.Spec(in)
	if spec.Deleted {
		runner.Notice("ralph-gate: " + spec.From + ": nothing to check")
		runner.Output("verdict", string(gate.VerdictPass))
		runner.Output("findings", "0")
		runner.Output("approved", "false")
		return nil
	}
	rng, err := ghaction.Resolve(ctx, spec, ghaction.Git{Dir: dir, Log: env.Stdout})
	if err != nil {
		var shallow *ghaction.ShallowError
		if errors.As(err, &shallow) {
			return inputErr(fmt.Errorf("action: %w", err))
		}
		return classifyGit(err)
	}

	var cf compareFlags
	cf.repo, cf.config = dir, in.Config
	if cf.config != "" && !filepath.IsAbs(cf.config) {
		cf.config = filepath.Join(dir, cf.config)
	}
	for _, r := range in.Reports {
		cf.reports = append(cf.reports, reportArg{r.Kind, r.Glob})
	}
	for _, r := range in.BaseReports {
		cf.baseReports = append(cf.baseReports, reportArg{r.Kind, r.Glob})
	}
	cf.collectMode = orDefault(in.Collect, "auto")
	cf.staticOnly = cf.collectMode == "none" && len(cf.reports) == 0 && len(cf.baseReports) == 0
	cenv := env
	cenv.Dir = dir
	rep, cfg, err := compareRange(ctx, cenv, cf, rng.Base.String(), rng.Head.String())
	if err != nil {
		return err
	}
	failOn := decide(rep, cfg, in.FailOn)
	blocked := rep.Verdict == gate.VerdictBlock
	approved := blocked && ev.PullRequest != nil && ev.PullRequest.HasLabel(in.ApproveLabel)

	// The text report in the log; annotations on the lines.
	if err := report.Render(env.Stdout, report.Text, rep, report.Options{RepoRoot: dir}); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	shown, overflow := ghaction.SelectAnnotations(rep, failOn, in.WorkingDirectory)
	for _, a := range shown {
		runner.Annotate(a)
	}

	var notes []string
	if rng.Fetches > 0 {
		notes = append(notes, fmt.Sprintf("the checkout was shallow: %d git fetch runs brought the range's history (fetch-depth: 0 avoids them)", rng.Fetches))
	}
	reportPath := filepath.Join(orDefault(env.Getenv("RUNNER_TEMP"), os.TempDir()), "ralph-gate-report.json")
	if err := writeRendered(reportPath, report.JSON, rep, dir); err != nil {
		return err
	}
	sarifPath := ""
	if in.SARIF != "" {
		sarifPath = in.SARIF
		if !filepath.IsAbs(sarifPath) {
			sarifPath = filepath.Join(workspace, sarifPath)
		}
		if err := writeRendered(sarifPath, report.SARIF, rep, dir); err != nil {
			return err
		}
	}
	if in.Comment && ev.PullRequest != nil {
		var body bytes.Buffer
		if err := report.Render(&body, report.Markdown, rep, report.Options{RepoRoot: dir}); err != nil {
			return fmt.Errorf("render the comment: %w", err)
		}
		if approved {
			body.WriteString(fmt.Sprintf("\n**Approved by label `%s`**: the block is overridden.\n", in.ApproveLabel))
		}
		c := ghaction.Comments{API: orDefault(env.Getenv("GITHUB_API_URL"), "https://api.github.com"), Repo: ev.Repository, Token: in.Token}
		created, err := c.Upsert(ctx, ev.PullRequest.Number, body.String())
		switch {
		case errors.Is(err, ghaction.ErrNoPermission):
			notes = append(notes, "no pull request comment: "+err.Error()+" (a fork's pull request gets a read-only token; the verdict does not need it)")
		case err != nil:
			notes = append(notes, "no pull request comment: "+err.Error())
		case created:
			notes = append(notes, fmt.Sprintf("commented on pull request #%d", ev.PullRequest.Number))
		default:
			notes = append(notes, fmt.Sprintf("updated the comment on pull request #%d", ev.PullRequest.Number))
		}
	}
	for _, n := range notes {
		runner.Notice("ralph-gate: " + n)
	}
	var summary bytes.Buffer
	if err := ghaction.WriteSummary(&summary, rep, ghaction.SummaryOptions{Approved: approved, Label: in.ApproveLabel,
		Overflow: overflow, RangeFrom: spec.From, Notes: notes}); err != nil {
		return err
	}
	runner.Summary(summary.String())

	verdict := rep.Verdict
	if approved {
		verdict = gate.VerdictPass
	}
	runner.Output("verdict", string(verdict))
	runner.Output("findings", strconv.Itoa(netFindings(rep)))
	runner.Output("approved", strconv.FormatBool(approved))
	runner.Output("report", reportPath)
	runner.Output("sarif", sarifPath)
	if blocked && !approved {
		return &BlockedError{Findings: blocking(rep, failOn)}
	}
	return nil
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
func writeRendered(path string, f report.Format, rep *gate.Report, root string) error {
	var buf bytes.Buffer
	if err := report.Render(&buf, f, rep, report.Options{RepoRoot: root}); err != nil {
		return fmt.Errorf("render %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return inputErr(fmt.Errorf("write %s: %w", path, err))
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return inputErr(fmt.Errorf("write %s: %w", path, err))
	}
	return nil
}
