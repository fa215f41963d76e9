package cli

import (
	"context"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/ghaction"
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
	step := &ghaction.Step{Getenv: env.Getenv, Environ: env.environ, Dir: env.Dir, Stdout: env.Stdout, Runner: runner,
		Compare: func(ctx context.Context, req ghaction.CompareRequest) (*gate.Report, *config.Config, error) {
			cf := compareFlags{config: req.Config, collectMode: req.Collect, allPackages: req.AllPackages,
				staticOnly: req.StaticOnly, noCache: req.StaticOnly, environ: req.Environ}
			cf.repo = req.Dir
			for _, r := range req.Reports {
				cf.reports = append(cf.reports, reportArg{r.Kind, r.Glob})
			}
			for _, r := range req.BaseReports {
				cf.baseReports = append(cf.baseReports, reportArg{r.Kind, r.Glob})
			}
			cenv := env
			cenv.Dir = req.Dir
			return compareRange(ctx, cenv, cf, req.Base, req.Head)
		}}
	err = step.Run(ctx)
	if ExitCode(err) == ExitUsage {
		runner.Error(err.Error())
	}
	return err
}
