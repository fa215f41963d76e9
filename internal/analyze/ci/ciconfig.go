package ci

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// ConfigKind classifies the files that hold the checking machinery.
type ConfigKind int

const (
	NotConfig ConfigKind = iota
	CIWorkflow
	BuildScript // Makefile, justfile, shell scripts under scripts/ or ci/
	PackageJSON
	PythonConfig
	JSTestConfig
	CoverageConfig
	TSConfig
	LintConfig
	JavaBuild
)

func Classify(p string) ConfigKind {
	base := path.Base(p)
	lower := strings.ToLower(base)
	ext := path.Ext(lower)
	switch {
	case strings.HasPrefix(p, ".github/workflows/") && (ext == ".yml" || ext == ".yaml"),
		base == ".gitlab-ci.yml", p == ".circleci/config.yml", base == "azure-pipelines.yml",
		base == "bitbucket-pipelines.yml", base == "Jenkinsfile", base == ".travis.yml",
		strings.HasPrefix(p, ".buildkite/"), base == ".drone.yml":
		return CIWorkflow
	case base == "Makefile", base == "makefile", base == "GNUmakefile", ext == ".mk",
		lower == "justfile", base == "Taskfile.yml", base == "Taskfile.yaml":
		return BuildScript
	case ext == ".sh" && (strings.HasPrefix(p, "scripts/") || strings.HasPrefix(p, "ci/") || strings.HasPrefix(p, ".ci/") || strings.HasPrefix(p, ".github/")):
		return BuildScript
	case base == "package.json":
		return PackageJSON
	case base == "tox.ini", base == "pytest.ini", base == "pyproject.toml", base == "setup.cfg", base == ".coveragerc", base == "noxfile.py":
		return PythonConfig
	case hasStem(lower, "jest.config"), hasStem(lower, "vitest.config"), hasStem(lower, "vite.config"),
		hasStem(lower, "vitest.workspace"), hasStem(lower, "karma.conf"), strings.HasPrefix(lower, ".mocharc"),
		hasStem(lower, "playwright.config"), hasStem(lower, "cypress.config"):
		return JSTestConfig
	case strings.HasPrefix(lower, ".nycrc"), strings.HasPrefix(lower, ".c8rc"), lower == "codecov.yml",
		lower == ".codecov.yml", lower == "codecov.yaml", lower == ".codecov.yaml":
		return CoverageConfig
	case strings.HasPrefix(lower, "tsconfig") && ext == ".json", lower == "jsconfig.json":
		return TSConfig
	case strings.HasPrefix(lower, ".golangci."), strings.HasPrefix(lower, ".eslintrc"), hasStem(lower, "eslint.config"),
		lower == "ruff.toml", lower == ".ruff.toml", lower == ".flake8", lower == "mypy.ini", lower == ".pylintrc":
		return LintConfig
	case base == "pom.xml", base == "build.gradle", base == "build.gradle.kts",
		base == "settings.gradle", base == "settings.gradle.kts", base == "gradle.properties",
		p == ".mvn/maven.config", p == ".mvn/jvm.config":
		return JavaBuild
	}
	return NotConfig
}

func hasStem(name, stem string) bool {
	return strings.HasPrefix(name, stem+".")
}

var (
	testWords       = lazyre.New(`(?i)(\b(test|tests|pytest|jest|vitest|mocha|ava|tap|jasmine|karma|playwright|cypress|lint|eslint|tsc|mypy|ruff|flake8|pylint|golangci-lint|staticcheck|clippy|mvn|gradle|tox|nox|coverage|check|verify|spec|rspec|ctest|unittest)\b|go\s+(vet|test)|cargo\s+(test|clippy))`)
	testCommand     = lazyre.New(`(?i)(\bgo\s+test\b|\bpytest\b|\bpython3?\s+-m\s+(pytest|unittest)\b|\bjest\b|\bvitest\b|\bmocha\b|\b(npm|yarn|pnpm|bun)\s+(run\s+)?test\b|\bcargo\s+(test|nextest)\b|\bmvn\b.*\b(test|verify)\b|\bgradlew?\b.*\btest\b|\btox\b|\bnox\b|\bmake\s+(test|check)\b|\bctest\b|\bgotestsum\b|\bnode\s+--test\b|\bbun\s+test\b|\bdeno\s+test\b|^\s*"test"\s*:)`)
	orTrue          = lazyre.New(`\|\|\s*(true\b|:\s*($|[;#)])|exit\s+0\b)`)
	continueOnError = lazyre.New(`^\s*-?\s*continue-on-error:\s*(true|\$\{\{\s*true\s*\}\})\s*(#.*)?$`)
	ifFalse         = lazyre.New(`^\s*-?\s*if:\s*(false|\$\{\{\s*false\s*\}\}|'false'|"false")\s*(#.*)?$`)
	setPlusE        = lazyre.New(`(^|[;&|]\s*)set\s+\+e\b`)
	// listOnly are the runner options that collect, list or build the
	// tests without running any: go test -list/-c, pytest --collect-only,
	// jest --listTests, vitest list, cargo test --no-run or -- --list,
	// mocha --dry-run.
	listOnly     = lazyre.New(`(\bgo\s+test\b.*\s-(list[= ]|c\b)|\bpytest\b.*\s(--collect-only|--co)\b|\bjest\b.*\s--listTests\b|\bvitest\s+list\b|\bcargo\s+(test|nextest\s+run)\b.*\s(--no-run\b|--\s.*--list\b)|\bcargo\s+nextest\s+list\b|\bmocha\b.*\s--dry-run\b)`)
	passNoTests  = lazyre.New(`(?i)pass-?with-?no-?tests|passWithNoTests`)
	allowFail    = lazyre.New(`(?i)(allow_failure:\s*true|ignore_outcome\s*=\s*true|ignore_errors\s*=\s*true|testFailureIgnore>\s*true|ignoreFailures\s*=\s*true|informational:\s*true|issues-exit-code[:= ]\s*0\b|--exit-zero\b|\bexit-zero\s*=\s*(true|yes|y)\b|if_ci_failed:\s*success|["']?check-coverage["']?\s*[:=]\s*false|\btest\.enabled\s*=\s*false|enabled\s*=\s*false\b.*test)`)
	RunnerFilter = lazyre.New(`(?i)(--deselect\b|\bpytest\b.*\s-k\s|\s-k\s+["']?not\b|\bpytest\b.*--ignore(-glob)?[= ]|-m\s+["']not\s|testPathIgnorePatterns|modulePathIgnorePatterns|--testNamePattern|\s--(changed|onlyChanged|changedSince|lf|last-failed|only-changed)\b|\b(jest|vitest)\b.*\s-o\b|\bPYTHONOPTIMIZE=[1-9]|\bpython3?\s+-O+\s|\bcargo\s+(\+\S+\s+)?test\b.*\s--(lib|bins?|doc|tests?|examples?)\b|\btestNamePattern["']?\s*:|\b(jest|vitest)\b.*\s-t[\s=]|\b(mocha|playwright)\b.*\s(--grep|-g|--fgrep|--grep-invert)[\s=]|\bgo\s+test\b.*\s-(skip|run)[= ]|\bgo\s+test\b.*\s-short\b|--\s*--skip\b|-Dtest=|excludedGroups|\bexclude\s*:\s*\[|["']?exclude["']?\s*:\s*\[.*test|--exclude[= ].*test|addopts.*(-k\s|--deselect|--ignore)|\bGOFLAGS\b.*\s?-(run|skip)[= ]|\bPYTEST_ADDOPTS\b.*(-k\s|--deselect|--ignore|-m\s))`)
	thresholdKV  = lazyre.New(`(?i)((?:cov-)?fail[_-]under|coverageThreshold|threshold|branches|functions|lines|statements|target|minimum|min[_-]?coverage|coverage|check-coverage)["']?\s*[:=]?\s*["']?(\d+(?:\.\d+)?)%?`)
	strictKV     = lazyre.New(`(?i)["']?(strict|noImplicitAny|strictNullChecks|strictFunctionTypes|strictBindCallApply|strictPropertyInitialization|noImplicitReturns|noImplicitThis|noUncheckedIndexedAccess|alwaysStrict|useUnknownInCatchVariables|exactOptionalPropertyTypes|noFallthroughCasesInSwitch|noUnusedLocals|noUnusedParameters|disallow_untyped_defs|disallow_any_generics|warn_return_any|strict_optional|check_untyped_defs)["']?\s*[:=]\s*(true|false)`)
	ruleOff      = lazyre.New(`(?i)(["'][@\w/-]+["']\s*:\s*(["']off["']|0)\s*,?\s*$|^\s*-\s*[\w-]+\s*$|disable-all:\s*true|\bdisable\s*:|\bignore\s*=\s*\[|extend-ignore|exclude-rules|skip-(dirs|files))`)
	makeIgnore   = lazyre.New(`^\t-\S`)
)

// Config applies the validation_bypass and runner-filter rules to a file that
// holds the checking machinery.
func (a *Checker) Config(pr *File) []gate.Finding {
	p := pr.Path()
	kind := Classify(p)
	if kind == NotConfig && pr.OldPath != "" {
		kind = Classify(pr.OldPath)
	}
	if kind == NotConfig {
		return nil
	}
	oldLines, newLines := SplitLines(pr.Old), SplitLines(pr.New)
	added, removed := lineDelta(oldLines, newLines)
	var out []gate.Finding
	add := func(r gate.Rule, sev gate.Severity, line int, key, msg string) {
		out = append(out, gate.NewFinding(r, sev, p, line, "", "", key, msg))
	}
	// Where both sides read as a program (a workflow's steps, a Makefile's
	// recipes, a shell script, package.json's scripts), what a line does
	// with a check's exit status is the program's to judge (ciPrograms):
	// `(rm -rf dist || true) && vitest run` keeps vitest's status.
	programmed := a.readAsProgram(pr)
	for _, l := range added {
		text := l.text
		if isCommentLine(text) {
			continue
		}
		statusRule := orTrue.MatchString(text) || setPlusE.MatchString(text) || kind == BuildScript && makeIgnore.MatchString(text)
		if statusRule && programmed(text) {
			continue
		}
		// Asked once: most lines reach the runner-filter cases below, and
		// the expression is long.
		filter := RunnerFilter.MatchString(text)
		switch {
		case orTrue.MatchString(text) && testWords.MatchString(text):
			add(gate.RuleOrTrue, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("%s now ignores the exit status of a check: %s.", p, Quoted(strings.TrimSpace(text))))
		case kind == BuildScript && makeIgnore.MatchString(text) && testWords.MatchString(text):
			add(gate.RuleMakeIgnoreErrors, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("%s now ignores the failure of a check (leading '-'): %s.", p, Quoted(strings.TrimSpace(text))))
		case ifFalse.MatchString(text) && workflowLoaded(p) && parsesAsJobs(pr.New):
			continue // disabledJobs judges it with the whole change
		case (kind == CIWorkflow) && (continueOnError.MatchString(text) || ifFalse.MatchString(text)):
			ctx := stepContext(newLines, l.n)
			job := workflowJobAt(pr.New, l.n)
			if jc, ok := jobLevelContext(job, newLines, l.n); ok {
				ctx = jc
			}
			// A workflow that only a schedule or a person starts (BASE's
			// triggers as much as HEAD's) gates no change: a check there
			// that may now fail unnoticed is to be seen, not a bypass of
			// the gate.
			offPath := offChangePath(pr.New) && (pr.Old == nil || offChangePath(pr.Old)) || jobOffOnPR(pr, job, l.n)
			sev, what, where := gate.SeverityMedium, "a CI step", ""
			switch {
			case testWords.MatchString(ctx) && offPath:
				what, where = "a CI step that runs checks", " (a workflow or job that runs only on a schedule or by hand, so it gates no pull request)"
			case testWords.MatchString(ctx):
				sev, what = gate.SeverityCritical, "a CI step that runs checks"
			case offPath:
				continue // a job that runs no checks, on a schedule: optional by design
			}
			verb := "may now fail without failing the build"
			rule := gate.RuleContinueOnError
			if ifFalse.MatchString(text) {
				verb, rule = "was switched off with `if: false`", gate.RuleStepDisabled
			}
			add(rule, sev, l.n, norm(text)+norm(ctx),
				fmt.Sprintf("%s in %s%s %s.", what, p, where, verb))
		case setPlusE.MatchString(text) && (kind == CIWorkflow || kind == BuildScript):
			add(gate.RuleSetPlusE, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("`set +e` added to %s: failing commands after it no longer fail the script.", p))
		case listOnly.MatchString(text) && !listOnlyIn(removed, text) && !runsTestsIn(newLines, text):
			add(gate.RuleTestsListedNotRun, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("%s now lists or builds the tests without running them: %s.", p, Quoted(strings.TrimSpace(text))))
		case passNoTests.MatchString(text):
			add(gate.RulePassWithNoTests, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("%s now lets the test run pass when it finds no tests: %s.", p, Quoted(strings.TrimSpace(text))))
		case kind == JavaBuild && everyBuild(p) && skipTests.MatchString(text):
			// Read by every mvn (or gradle) the project runs, CI's
			// test step included.
			add(gate.RuleTestsSkipped, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("%s now skips the tests of every build of the project: %s.", p, Quoted(strings.TrimSpace(text))))
		case kind == JavaBuild && gradleOff.MatchString(text) && inGradleTestTask(newLines, l.n):
			add(gate.RuleTestsSkipped, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("%s now switches the test task off: %s.", p, Quoted(strings.TrimSpace(text))))
		case skipTests.MatchString(text):
			// Skipping tests on a build step that never ran them (packaging, API
			// checks) is common; switching them off on an existing step is not.
			sev, what := gate.SeverityMedium, "skips tests on a build step"
			if editedToAdd(removed, text, skipTests) {
				sev, what = gate.SeverityCritical, "now skips the tests of an existing build step"
			}
			add(gate.RuleTestsSkipped, sev, l.n, norm(text),
				fmt.Sprintf("%s %s: %s.", p, what, Quoted(strings.TrimSpace(text))))
		case allowFail.MatchString(text) && path.Base(p) == ".gitlab-ci.yml" && gitlabScheduledOnly(pr, l.n):
			add(gate.RuleFailureAllowed, gate.SeverityMedium, l.n, norm(text),
				fmt.Sprintf("%s now lets checks fail or skip without failing the build, in a job that runs only in scheduled or manually started pipelines (it gates no merge request): %s.", p, Quoted(strings.TrimSpace(text))))
		case allowFail.MatchString(text):
			add(gate.RuleFailureAllowed, gate.SeverityCritical, l.n, norm(text),
				fmt.Sprintf("%s now lets checks fail or skip without failing the build: %s.", p, Quoted(strings.TrimSpace(text))))
		case filter && kind == JSTestConfig && strings.Contains(text, "exclude") && a.jsSelection(pr.Old, pr.New):
			continue // compareRunnerConfig reads the lists
		case filter && programmedFilter(p, pr.New, text):
			continue // filterChanges judges it with the whole CI
		case filter && !runnerFilterIn(removed, text):
			add(gate.RuleRunnerFilter, gate.SeverityHigh, l.n, norm(text),
				fmt.Sprintf("%s now filters which tests run: %s.", p, Quoted(strings.TrimSpace(text))))
		case kind == LintConfig && ruleOff.MatchString(text) && lintOffContext(newLines, l.n, text):
			add(gate.RuleLintRuleDisabled, gate.SeverityMedium, l.n, norm(text),
				fmt.Sprintf("%s disables or excludes a lint check: %s.", p, Quoted(strings.TrimSpace(text))))
		}
	}
	out = append(out, a.thresholds(p, added, removed)...)
	if pr.OldPath != "" && kind != LintConfig && kind != TSConfig && kind != CoverageConfig {
		out = append(out, retriesRaised(p, oldLines, newLines)...)
	}
	return out
}

// readAsProgram returns whether an added line of the file is judged by the
// program model: both sides of a workflow, Makefile or shell script parse as
// a program (every script in them), or, in package.json, the line belongs
// to a script that BASE has too. A new file that parses is judged by
// itself: where every check it runs decides its status, a `|| true` in it
// masks no check (`tests=$(grep -E "$test" <<<"$files" || true)`); where
// one does not, its lines are read as text.
func (a *Checker) readAsProgram(fc *File) func(line string) bool {
	no := func(string) bool { return false }
	if path.Base(fc.NewPath) == "package.json" && fc.New != nil && (fc.OldPath == "" || fc.OldPath == fc.NewPath && fc.Old != nil) {
		var before, after struct {
			Scripts map[string]string `json:"scripts"`
		}
		if fc.Old != nil && json.Unmarshal(fc.Old, &before) != nil || json.Unmarshal(fc.New, &after) != nil {
			return no
		}
		// A script BASE had is the program model's to compare
		// (packageScripts); a new one is judged by itself: its `|| true`
		// masks nothing when every check it runs still decides its
		// status (`(rm -rf dist || true) && vitest run`).
		return func(line string) bool {
			for name, src := range after.Scripts {
				if !strings.HasPrefix(strings.TrimSpace(line), strconv.Quote(name)+":") {
					continue
				}
				if _, had := before.Scripts[name]; had {
					return true
				}
				return checksDecide(src)
			}
			return false
		}
	}
	if fc.OldPath == "" && fc.NewPath != "" && fc.New != nil {
		cur := a.readCICached(fc.NewPath, fc.NewKey, fc.New)
		if cur == nil || cur.err != nil || len(cur.unparsed) > 0 {
			return no
		}
		for _, r := range cur.runs {
			if !cur.reached[r] {
				return no
			}
		}
		return func(string) bool { return true }
	}
	if fc.OldPath == "" || fc.NewPath == "" || fc.Old == nil || fc.New == nil {
		return no
	}
	old := a.readCICached(fc.OldPath, fc.OldKey, fc.Old)
	cur := a.readCICached(fc.NewPath, fc.NewKey, fc.New)
	if old == nil || cur == nil || old.err != nil || cur.err != nil || len(cur.unparsed) > 0 || len(old.unparsed) > 0 {
		return no
	}
	return func(string) bool { return true }
}

// checksDecide reports whether a script runs checks and every one of them
// decides the script's exit status (shellChecks).
func checksDecide(src string) bool {
	f, err := shellChecks(src, shellOpts{})
	if err != nil || len(f.runs) == 0 {
		return false
	}
	for _, r := range f.runs {
		if !f.reached[r] {
			return false
		}
	}
	return true
}

// retryKV reads a runner's retry setting: vitest's and playwright's
// retry(ies), pytest's --reruns, Surefire's rerunFailingTestsCount.
var retryKV = lazyre.New(`(?i)(?:\b(retry|retries|reruns|rerunFailingTestsCount|flakyTestAttempts)["']?\s*[:=>]\s*["']?|--(reruns|retry|retries)[= ]|<(rerunFailingTestsCount)>)(\d+)`)

// retriesRaised reports a runner configuration that reruns failing tests
// more often than before: failures that come and go pass on a retry.
func retriesRaised(p string, oldLines, newLines []string) []gate.Finding {
	most := func(lines []string) (int, int) {
		n, at := 0, 0
		for i, l := range lines {
			// A cheap look first: the regular expression is slow, and most
			// lines of a workflow or package.json say nothing of retries.
			if !(strings.Contains(l, "etr") || strings.Contains(l, "erun") || strings.Contains(l, "ETR") || strings.Contains(l, "ERUN")) || isCommentLine(l) {
				continue
			}
			for _, m := range retryKV.FindAllStringSubmatch(l, -1) {
				if v, err := strconv.Atoi(m[4]); err == nil && v > n {
					n, at = v, i+1
				}
			}
		}
		return n, at
	}
	was, _ := most(oldLines)
	now, line := most(newLines)
	if now <= was {
		return nil
	}
	msg := fmt.Sprintf("%s now reruns failing tests up to %d times (was %d): a failure that comes and goes passes on a retry", p, now, was)
	return []gate.Finding{gate.NewFinding(gate.RuleRetriesRaised, gate.SeverityHigh, p, line, "", "", fmt.Sprintf("retries %d", now), msg+".")}
}

// jobOffOnPR reports whether workflow job job (or its step) holding line n
// of the new side has an `if:` that switches it off on pull requests, at BASE
// as at HEAD: `if: github.event_name == 'schedule'` on a nightly-only job of
// a workflow that also runs on pull requests. A step's own condition at
// BASE is not known, so its job must be off there too, or new.
func jobOffOnPR(fc *File, job *jobAt, n int) bool {
	name, off := lineOffPR(job, n)
	return offAtBothEnds(fc, name, off, workflowJobOffPR)
}

// gitlabScheduledOnly reports whether the GitLab job holding line n of the
// new side runs only in pipelines no change starts, at BASE as at HEAD
// (a job BASE ran on merge requests and HEAD moves to a schedule is not).
func gitlabScheduledOnly(fc *File, n int) bool {
	name, off := gitlabJobOffPath(fc.New, n)
	return offAtBothEnds(fc, name, off, gitlabJobNamedOffPath)
}

// offAtBothEnds reports whether job name, off the change path at HEAD
// (offAtHead), is off it at BASE too (atBase), or new there.
func offAtBothEnds(fc *File, name string, offAtHead bool, atBase func([]byte, string) (found, off bool)) bool {
	if !offAtHead {
		return false
	}
	if fc.Old == nil {
		return true
	}
	found, offThere := atBase(fc.Old, name)
	return !found || offThere
}

// offChangePath reports a GitHub workflow that no change runs through: its
// triggers are only schedule, workflow_dispatch, release and the like. An
// event that a change sets off, directly or through another workflow or
// check (workflow_run after a pull request's CI, check_suite, status, a
// pull request comment's issue_comment), or one not listed, is on the path.
func offChangePath(data []byte) bool {
	_, events, err := workflowScripts(data)
	if err != nil || len(events) == 0 {
		return false
	}
	for e := range events {
		if !offPathEvents[e] {
			return false
		}
	}
	return true
}

// offPathEvents are the GitHub Actions events no change to the code sets
// off: a clock, a person, a release, the repository's own settings.
var offPathEvents = map[string]bool{
	"schedule": true, "workflow_dispatch": true, "repository_dispatch": true, "release": true,
	"create": true, "delete": true, "fork": true, "gollum": true, "label": true, "milestone": true,
	"page_build": true, "public": true, "registry_package": true, "watch": true, "issues": true,
	"discussion": true, "discussion_comment": true, "branch_protection_rule": true,
}

// listItem is a YAML list item of one word (`- errcheck`).
var listItem = lazyre.New(`^\s*-\s*[\w-]+\s*$`)

// lintOffContext tells a lint rule switched off from a look-alike: a list
// item counts only under a key that disables or excludes (golangci's
// disable:, not enable:), and a bare `disable:` key is left to its items.
func lintOffContext(lines []string, n int, text string) bool {
	t := strings.TrimSpace(text)
	if t == "disable:" || t == "disable: []" {
		return false
	}
	if !listItem.MatchString(text) {
		return true
	}
	indent := len(text) - len(strings.TrimLeft(text, " \t"))
	for i := n - 2; i >= 0 && i < len(lines); i-- {
		l := lines[i]
		if strings.TrimSpace(l) == "" || isCommentLine(l) {
			continue
		}
		if in := len(l) - len(strings.TrimLeft(l, " \t")); in < indent || in == indent && !strings.HasPrefix(strings.TrimSpace(l), "-") {
			key := strings.ToLower(strings.TrimSpace(l))
			return strings.Contains(key, "disable") || strings.Contains(key, "exclude") || strings.Contains(key, "skip") || strings.Contains(key, "ignore")
		}
	}
	return false
}

// editedToAdd reports whether an added line is a removed line with a match of re
// added to it: an existing command changed, not a new one.
func editedToAdd(removed []numLine, text string, re *lazyre.Regexp) bool {
	stripped := norm(re.ReplaceAllString(text, ""))
	for _, r := range removed {
		if norm(re.ReplaceAllString(r.text, "")) == stripped && !re.MatchString(r.text) {
			return true
		}
	}
	return false
}

// ChangeWide applies the rules that need the whole change: a test command
// or a strictness flag that left one file may have moved to another (setup.cfg
// migrated to pyproject.toml, one workflow split in two).
func (a *Checker) ChangeWide(changed []*File, bc *Base, exists func(string, bool) bool, readHead func(string) []byte) []gate.Finding {
	type counted struct {
		pr       *File
		old, new int
	}
	var files []counted
	oldTotal, newTotal := 0, 0
	strictNow := map[string]bool{}
	var out []gate.Finding
	kinds := make([]ConfigKind, len(changed))
	for i, pr := range changed {
		kind := Classify(pr.Path())
		if kind == NotConfig && pr.OldPath != "" {
			kind = Classify(pr.OldPath)
		}
		kinds[i] = kind
		if kind == NotConfig {
			continue
		}
		oldLines, newLines := SplitLines(pr.Old), SplitLines(pr.New)
		if kind == TSConfig || kind == PythonConfig || kind == LintConfig {
			for _, l := range newLines {
				if isCommentLine(l) {
					continue
				}
				if m := strictKV.FindStringSubmatch(l); m != nil && strings.EqualFold(m[2], "true") {
					strictNow[strings.ToLower(m[1])] = true
				}
			}
		}
		if kind == CIWorkflow || kind == BuildScript || kind == PackageJSON {
			c := counted{pr, a.testCommands(pr.OldKey, oldLines), a.testCommands(pr.NewKey, newLines)}
			oldTotal += c.old
			newTotal += c.new
			files = append(files, c)
		}
	}
	// The files the program model reads lose a check only when no file of
	// HEAD's CI runs it any more; the others keep the line count.
	base, head := ciWorlds(changed, bc)
	headKeys := head.entryKeys()
	var removedRuns, makefiles []gate.Finding
	lineCounted := map[*File]bool{}
	for _, c := range files {
		fc := c.pr
		if !structuredCI(fc.OldPath) && !structuredCI(fc.NewPath) {
			continue
		}
		var was, is map[string]bool
		if fc.OldPath != "" {
			was = testKeys(base.contributes(fc.OldPath))
		}
		if len(was) == 0 && path.Base(fc.OldPath) != "package.json" {
			// The model sees no check in what BASE ran here (a command it
			// does not know): the line count judges the file.
			lineCounted[c.pr] = true
			continue
		}
		if fc.NewPath != "" {
			is = testKeys(head.contributes(fc.NewPath))
		}
		var lost []string
		for _, k := range SortedKeys(was) {
			if !headKeys[k] {
				lost = append(lost, k)
			}
		}
		if len(is) > 0 || len(lost) == 0 || packageMoved(c.pr, changed, lost, head, exists, readHead) || scriptsKept(fc) {
			continue
		}
		p := c.pr.Path()
		if f, ok := moduleRemoved(fc, changed, exists, " ("+QuotedList(lost)+")"); ok {
			out = append(out, f)
			continue
		}
		msg := fmt.Sprintf("%s no longer runs any tests (%s): its test commands were removed or replaced, and no other CI file runs them", p, QuotedList(lost))
		if fc.NewPath == "" {
			msg = fmt.Sprintf("%s, which ran tests (%s), was deleted, and no other CI file runs them", p, QuotedList(lost))
		}
		f := gate.NewFinding(gate.RuleTestCommandRemoved, gate.SeverityCritical, p, 0, "", "", "", msg+".")
		if isMakefile(p) && head.makeCalled {
			makefiles = append(makefiles, f)
		} else {
			removedRuns = append(removedRuns, f)
		}
	}
	// A Makefile whose targets the workflows no longer reach is the
	// workflow's finding when a workflow of the change is reported.
	if len(removedRuns) == 0 {
		removedRuns = makefiles
	}
	// A workflow whose test job was switched off is that job's finding.
	disabled := disabledJobs(changed, head)
	off := map[string]bool{}
	for _, f := range disabled {
		if f.Severity >= gate.SeverityHigh {
			off[f.File] = true
		}
	}
	for _, f := range removedRuns {
		if !off[f.File] {
			out = append(out, f)
		}
	}
	out = append(out, disabled...)
	out = append(out, filterChanges(changed, base, head, exists)...)
	if newTotal < oldTotal {
		for _, c := range files {
			if c.old == 0 || c.new > 0 || (structuredCI(c.pr.OldPath) || structuredCI(c.pr.NewPath)) && !lineCounted[c.pr] {
				continue
			}
			p := c.pr.Path()
			if f, ok := moduleRemoved(c.pr, changed, exists, ""); ok {
				out = append(out, f)
				continue
			}
			msg := fmt.Sprintf("%s no longer runs any tests: its test commands were removed or replaced", p)
			if c.pr.NewPath == "" {
				msg = fmt.Sprintf("%s, which ran tests, was deleted", p)
			}
			out = append(out, gate.NewFinding(gate.RuleTestCommandRemoved, gate.SeverityCritical, p, 0, "", "", "", msg+"."))
		}
	}
	var structured []strictnessChange
	var byLine []int
	for i, pr := range changed {
		if k := kinds[i]; k == TSConfig || k == PythonConfig || k == LintConfig {
			if c, ok := readStrictnessChange(pr); ok {
				structured = append(structured, c)
				for k, v := range c.cur.on {
					_, flag, _ := strings.Cut(k, ":")
					strictNow[strings.ToLower(flag)] = strictNow[strings.ToLower(flag)] || v
				}
				continue
			}
			byLine = append(byLine, i)
		}
	}
	out = append(out, structuredStrictness(structured)...)
	for _, i := range byLine {
		pr := changed[i]
		added, removed := lineDelta(SplitLines(pr.Old), SplitLines(pr.New))
		out = append(out, a.strictness(pr.Path(), kinds[i], added, removed, strictNow)...)
	}
	return out
}

// readStrictnessChange reads both sides of a type checker's config file
// structurally; false when the file is not one read so, or a side does
// not parse (the line rule judges it then).
func readStrictnessChange(fc *File) (strictnessChange, bool) {
	if !readsStrictness(fc.Path()) || fc.OldPath != "" && !readsStrictness(fc.OldPath) {
		return strictnessChange{}, false
	}
	c := strictnessChange{p: fc.Path(), newData: fc.New}
	var err error
	if c.old, err = readCheckerFlags(fc.OldPath, fc.Old); err != nil {
		return c, false
	}
	if c.cur, err = readCheckerFlags(fc.Path(), fc.New); err != nil {
		return c, false
	}
	return c, true
}

// filterFlag picks out the test-selection options of a command line with their
// values, so an edited line that keeps its filters is not a new filter.
var filterFlag = lazyre.New(`(?i)(--?(?:run|skip|k|m|t|deselect|ignore|ignore-glob|testNamePattern|testPathIgnorePatterns|exclude)|-Dtest|excludedGroups|testPathIgnorePatterns|modulePathIgnorePatterns|exclude)(?:[= :]+)("[^"]*"|'[^']*'|\[[^\]]*\]|\S+)`)

// runnerFilterIn reports whether every test filter on an added line was already
// on some removed line.
func runnerFilterIn(removed []numLine, text string) bool {
	flags := filterFlag.FindAllString(text, -1)
	for _, w := range strings.Fields(text) {
		if selectionWord[w] {
			flags = append(flags, w)
		}
	}
	if len(flags) == 0 {
		return false
	}
	for _, fl := range flags {
		found := false
		for _, r := range removed {
			if strings.Contains(norm(r.text), norm(fl)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// thresholds reports a coverage threshold lowered: a removed line and an added
// line with the same key, the added value lower.
func (a *Checker) thresholds(p string, added, removed []numLine) []gate.Finding {
	old := map[string]float64{}
	for _, r := range removed {
		for _, m := range thresholdKV.FindAllStringSubmatch(r.text, -1) {
			v, err := strconv.ParseFloat(m[2], 64)
			if err == nil {
				old[strings.ToLower(m[1])] = v
			}
		}
	}
	var out []gate.Finding
	for _, l := range added {
		for _, m := range thresholdKV.FindAllStringSubmatch(l.text, -1) {
			key := strings.ToLower(m[1])
			ov, ok := old[key]
			nv, err := strconv.ParseFloat(m[2], 64)
			if !ok || err != nil || nv >= ov {
				continue
			}
			f := gate.NewFinding(gate.RuleThresholdLowered, gate.SeverityCritical, p, l.n, "", "", key,
				fmt.Sprintf("%s lowers the %s threshold from %s to %s.", p, m[1], fmtNum(ov), fmtNum(nv)))
			f.BaselineValue, f.CurrentValue = gate.Float(ov), gate.Float(nv)
			out = append(out, f)
		}
	}
	return out
}

// strictness reports a type-checker strictness flag turned from true to false or
// removed while true.
func (a *Checker) strictness(p string, kind ConfigKind, added, removed []numLine, strictNow map[string]bool) []gate.Finding {
	if kind != TSConfig && kind != PythonConfig && kind != LintConfig {
		return nil
	}
	now := map[string]string{}
	for _, l := range added {
		if isCommentLine(l.text) {
			continue
		}
		if m := strictKV.FindStringSubmatch(l.text); m != nil {
			now[strings.ToLower(m[1])] = strings.ToLower(m[2])
		}
	}
	var out []gate.Finding
	for _, r := range removed {
		if isCommentLine(r.text) {
			continue
		}
		m := strictKV.FindStringSubmatch(r.text)
		if m == nil || strings.ToLower(m[2]) != "true" {
			continue
		}
		key := strings.ToLower(m[1])
		if now[key] == "true" || (now[key] == "" && strictNow[key]) {
			continue // still on here, or moved to another file of the change
		}
		line := 0
		for _, l := range added {
			if mm := strictKV.FindStringSubmatch(l.text); mm != nil && strings.ToLower(mm[1]) == key {
				line = l.n
			}
		}
		state := "removed"
		if now[key] == "false" {
			state = "set to false"
		}
		out = append(out, gate.NewFinding(gate.RuleStrictnessLowered, gate.SeverityCritical, p, line, "", "", key,
			fmt.Sprintf("%s lowers type-checking strictness: %s was %s.", p, m[1], state)))
	}
	return out
}

// GateConfig reports any change to the gate's own configuration inside the
// range: the gate reads it from BASE, and an agent has no business editing it.
func (a *Checker) GateConfig(fc *File) []gate.Finding {
	if fc.OldPath != config.FileName && fc.NewPath != config.FileName {
		return nil
	}
	if fc.OldPath == fc.NewPath && bytes.Equal(fc.Old, fc.New) && fc.Skip == "" {
		return nil
	}
	what := "changed"
	switch {
	case fc.OldPath == "" || fc.OldPath != config.FileName:
		what = "added"
	case fc.NewPath == "" || fc.NewPath != config.FileName:
		what = "deleted"
	}
	msg := fmt.Sprintf("the gate's own configuration %s was %s inside the range; ralph-gate keeps reading it from BASE, so the change needs a human's review", config.FileName, what)
	return []gate.Finding{gate.NewFinding(gate.RuleGateConfigChanged, gate.SeverityCritical, config.FileName, 0, "", "", what, msg+".")}
}

type numLine struct {
	n    int
	text string
}

func SplitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.Split(s, "\n")
}

// lineDelta returns the lines added to and removed from a file, compared as
// multisets of trimmed lines: order-insensitive, which is what the rules need
// (which lines appear that did not before), and linear in the file's size.
func lineDelta(oldLines, newLines []string) (added, removed []numLine) {
	have := map[string]int{}
	for _, l := range oldLines {
		if t := strings.TrimSpace(l); t != "" {
			have[t]++
		}
	}
	for i, l := range newLines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if have[t] > 0 {
			have[t]--
			continue
		}
		added = append(added, numLine{i + 1, l})
	}
	now := map[string]int{}
	for _, l := range newLines {
		if t := strings.TrimSpace(l); t != "" {
			now[t]++
		}
	}
	for i, l := range oldLines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if now[t] > 0 {
			now[t]--
			continue
		}
		removed = append(removed, numLine{i + 1, l})
	}
	return added, removed
}

func isCommentLine(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "<!--")
}

// stepContext returns the lines of the YAML list item (a workflow step or job)
// around line n (1-based).
func stepContext(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
	start := n - 1
	for start > 0 {
		t := strings.TrimSpace(lines[start])
		if strings.HasPrefix(t, "- ") && indent(lines[start]) <= indent(lines[n-1]) {
			break
		}
		start--
	}
	base := indent(lines[start])
	end := n
	for end < len(lines) {
		l := lines[end]
		if strings.TrimSpace(l) != "" && indent(l) <= base {
			break
		}
		end++
	}
	return strings.Join(lines[start:end], "\n")
}

// countMatches counts the non-comment lines that run a test command. A line
// without any of the words every test command contains is not tried against
// the regular expression, which is costly on the long lines of CI files.
// testCommands counts the test command lines of a file version, once per
// version (blob key): in a range each version is both sides of two commits.
func (a *Checker) testCommands(key string, lines []string) int {
	return Memo(&a.mu, a.cmdCount, "", key, func() int { return countMatches(lines, testCommand) })
}

func countMatches(lines []string, re *lazyre.Regexp) int {
	n := 0
	for _, l := range lines {
		if mayRunTests(l) && !isCommentLine(l) && re.MatchString(l) {
			n++
		}
	}
	return n
}

func mayRunTests(l string) bool {
	l = strings.ToLower(l)
	for _, w := range [...]string{"test", "tox", "nox", "check", "verify", "jest", "mocha"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// everyBuild reports a file whose options every Maven or Gradle run of the
// project reads: .mvn/maven.config, .mvn/jvm.config, gradle.properties.
func everyBuild(p string) bool {
	return p == ".mvn/maven.config" || p == ".mvn/jvm.config" || path.Base(p) == "gradle.properties"
}

// gradleOff matches what switches a Gradle task off: enabled = false,
// enabled false, onlyIf { false }, isEnabled = false (Kotlin).
var gradleOff = lazyre.New(`(?i)\b(is)?enabled\s*(=\s*|\s)false\b|\bonlyIf\s*\{\s*false\s*\}|\bexclude\s*(\(\s*)?["']\*\*/\*["']`)

// gradleTestTask matches a line that opens the configuration of Gradle's
// test task: test {, tasks.test {, tasks.named("test") {, tasks.withType(Test)
// {, tasks.withType<Test> {, tasks.named<Test>("test") {.
var gradleTestTask = lazyre.New(`^\s*(tasks\s*\.\s*)?(test|getByName\s*\(\s*["']test["']\s*\)|named\s*(<\s*Test\s*>\s*)?\(\s*["']test["'][^)]*\)|withType\s*(<\s*Test\s*>\s*(\(\s*\))?|\(\s*Test(::class(\.java)?)?\s*\)))\s*(\.configure(Each)?\s*)?\{`)

// inGradleTestTask reports whether line n (1-based) of a Gradle build file
// lies in the configuration block of its test task, or is such a block
// written on one line.
func inGradleTestTask(lines []string, n int) bool {
	if n < 1 || n > len(lines) {
		return false
	}
	if gradleTestTask.MatchString(lines[n-1]) {
		return true
	}
	depth := 0
	for i := n - 2; i >= 0; i-- {
		l := lines[i]
		depth += strings.Count(l, "}") - strings.Count(l, "{")
		if depth < 0 {
			return gradleTestTask.MatchString(l)
		}
	}
	return false
}

// skipTests matches build options that skip the test phase.
var skipTests = lazyre.New(`(?i)(<skipTests>\s*true|<maven\.test\.skip>\s*true|-DskipTests(=true)?\b|-Dmaven\.test\.skip(=true)?\b|\btest\.enabled\s*=\s*false|\s-x\s+test\b)`)

// listOnlyIn reports whether a removed line already ran the same runner
// without running the tests (a list step kept, reworded).
func listOnlyIn(removed []numLine, text string) bool {
	for _, l := range removed {
		if listOnly.MatchString(l.text) {
			return true
		}
	}
	return false
}

// listRunner names the runner of a line that lists tests without running
// them, as runsTestsIn looks for it.
var listRunner = lazyre.New(`\b(go\s+test|pytest|jest|vitest|cargo\s+(test|nextest)|mocha)\b`)

// runsTestsIn reports whether another line of the file runs the tests with
// the runner the list-only line uses (a listing step added beside the
// run).
func runsTestsIn(lines []string, text string) bool {
	r := listRunner.FindString(text)
	if r == "" {
		return false
	}
	for _, l := range lines {
		if l != text && !listOnly.MatchString(l) && !isCommentLine(l) && strings.Contains(strings.Join(strings.Fields(l), " "), strings.Join(strings.Fields(r), " ")) {
			return true
		}
	}
	return false
}

// moduleRemoved is the medium finding for a CI file deleted with the whole
// module it tested (moduleGone); ran says what it ran, "" when unknown.
func moduleRemoved(fc *File, changed []*File, exists func(string, bool) bool, ran string) (gate.Finding, bool) {
	d := moduleGone(fc, changed, exists)
	if d == "" {
		return gate.Finding{}, false
	}
	p := fc.Path()
	msg := fmt.Sprintf("%s, which ran tests%s, was deleted with the whole of %s/, the production code they tested included: a removal to confirm", p, ran, d)
	return gate.NewFinding(gate.RuleTestCommandRemovedWithCode, gate.SeverityMedium, p, 0, "", "", "", msg+"."), true
}
