package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Result is one line of results.jsonl: how `ralph-gate analyze PARENT COMMIT`
// ended for one commit of the corpus.
type Result struct {
	Repo     string `json:"repo"`
	SHA      string `json:"sha"`
	Parent   string `json:"parent"`
	Language string `json:"language"`
	Subject  string `json:"subject,omitempty"`
	// Exit is the process's exit code; -1 when it did not exit by itself
	// (killed at the timeout, or it could not start).
	Exit    int    `json:"exit"`
	Verdict string `json:"verdict,omitempty"`
	// Findings counts every finding of the report, blocking or not.
	Findings int `json:"findings"`
	// Blocking are the findings that make the verdict "block": net,
	// unsuppressed, at or above fail-on.
	Blocking []Finding `json:"blocking,omitempty"`
	Notes    []Note    `json:"notes,omitempty"`
	// Error is set when the run is not a clean pass or block: exit 2 or 3,
	// another exit, a timeout, unreadable JSON, or a verdict that disagrees
	// with the exit code or the findings. An error is never a pass.
	Error string `json:"error,omitempty"`
	MS    int64  `json:"ms"`
}

// Finding holds the fields of a ralph-gate/report/v1 finding that a reviewer
// labels by:
//
//	{"id": "RG-TD-0123456789ab", "type": "test_deletion", "severity": "critical",
//	 "rule": "test-removed", "file": "a_test.go", "line": 12, "test": "TestA",
//	 "net": true, "message": "..."}
type Finding struct {
	ID         string   `json:"id"`
	Type       string   `json:"type"`
	Severity   string   `json:"severity"`
	Rule       string   `json:"rule,omitempty"`
	File       string   `json:"file,omitempty"`
	Line       int      `json:"line,omitempty"`
	Test       string   `json:"test,omitempty"`
	Tests      []string `json:"tests,omitempty"`
	Symbol     string   `json:"symbol,omitempty"`
	Net        bool     `json:"net"`
	Suppressed string   `json:"suppressed,omitempty"`
	Message    string   `json:"message"`
}

// Note is a report's note: something that is not a finding (a file that did
// not parse, a skipped binary).
type Note struct {
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

// report holds the fields of ralph-gate's JSON report (schema
// "ralph-gate/report/v1", docs: /README.md and DESIGN.md) that the benchmark reads.
type report struct {
	Schema   string    `json:"schema"`
	Base     string    `json:"base"`
	Head     string    `json:"head"`
	Verdict  string    `json:"verdict"`
	FailOn   string    `json:"fail_on"`
	Findings []Finding `json:"findings"`
	Notes    []Note    `json:"notes"`
	Commits  []struct {
		Subject string `json:"subject"`
	} `json:"commits"`
}

var severityRank = map[string]int{"none": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}

// Runner runs the analysis of one commit: it returns the process's standard
// output, its standard error and its exit code (-1 when it did not exit by
// itself, with err saying why).
type Runner func(ctx context.Context, gitDir, parent, sha string) (stdout, stderr []byte, exit int, err error)

// BinaryRunner runs `BIN analyze --repo DIR --format json --fail-on FAILON
// PARENT SHA` with env as the whole environment.
func BinaryRunner(bin, failOn string, env []string) Runner {
	return func(ctx context.Context, gitDir, parent, sha string) ([]byte, []byte, int, error) {
		cmd := exec.CommandContext(ctx, bin, "analyze", "--repo", gitDir, "--format", "json", "--fail-on", failOn, parent, sha)
		cmd.Env = env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return out.Bytes(), errb.Bytes(), 0, nil
		case ctx.Err() != nil:
			return out.Bytes(), errb.Bytes(), -1, fmt.Errorf("timed out: %w", ctx.Err())
		case errors.As(err, &exit) && exit.ExitCode() >= 0:
			return out.Bytes(), errb.Bytes(), exit.ExitCode(), nil
		}
		return out.Bytes(), errb.Bytes(), -1, err
	}
}

// Analyze runs one commit through run and classifies the outcome.
func Analyze(ctx context.Context, run Runner, gitDir string, e Entry, timeout time.Duration) Result {
	r := Result{Repo: e.Repo, SHA: e.SHA, Parent: e.Parent, Language: e.Language}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	stdout, stderr, exit, err := run(ctx, gitDir, e.Parent, e.SHA)
	r.MS = time.Since(start).Milliseconds()
	r.Exit = exit
	if err != nil {
		r.Error = fmt.Sprintf("did not finish: %v%s", err, stderrTail(stderr))
		return r
	}
	if exit != 0 && exit != 1 {
		r.Error = fmt.Sprintf("exit %d%s", exit, stderrTail(stderr))
		return r
	}
	var rep report
	if err := json.Unmarshal(stdout, &rep); err != nil {
		r.Error = fmt.Sprintf("exit %d with unreadable JSON: %v%s", exit, err, stderrTail(stderr))
		return r
	}
	r.Verdict, r.Findings, r.Notes = rep.Verdict, len(rep.Findings), rep.Notes
	if len(rep.Commits) > 0 {
		r.Subject = rep.Commits[len(rep.Commits)-1].Subject
	}
	failOn, ok := severityRank[rep.FailOn]
	if !ok {
		r.Error = fmt.Sprintf("report's fail_on %q is not a severity", rep.FailOn)
		return r
	}
	for _, f := range rep.Findings {
		if f.Net && f.Suppressed == "" && severityRank[f.Severity] >= failOn && failOn > 0 {
			r.Blocking = append(r.Blocking, f)
		}
	}
	switch {
	case rep.Schema != "ralph-gate/report/v1":
		r.Error = fmt.Sprintf("report's schema is %q", rep.Schema)
	case rep.Base != e.Parent || rep.Head != e.SHA:
		r.Error = fmt.Sprintf("report is of %s..%s, not %s..%s", rep.Base, rep.Head, e.Parent, e.SHA)
	case exit == 1 && rep.Verdict != "block", exit == 0 && rep.Verdict == "block":
		r.Error = fmt.Sprintf("exit %d with verdict %q", exit, rep.Verdict)
	case (rep.Verdict == "block") != (len(r.Blocking) > 0):
		r.Error = fmt.Sprintf("verdict %q with %d net unsuppressed findings at or above %s", rep.Verdict, len(r.Blocking), rep.FailOn)
	}
	return r
}

// stderrTail is the last lines of a process's standard error, on one line,
// for an error message.
func stderrTail(stderr []byte) string {
	s := strings.TrimSpace(string(stderr))
	if s == "" {
		return ""
	}
	if len(s) > 600 {
		s = "..." + s[len(s)-600:]
	}
	return ": " + strings.Join(strings.Fields(s), " ")
}
