package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ralph-gate/ralph-gate/internal/testgit"
)

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
	sha3 = "3333333333333333333333333333333333333333"
)

func TestReadCorpus(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Entry
		wantErr  string
	}{
		{
			name: "comments and blank lines skipped",
			in:   "# repo\tcommit\tparent\tlanguage\tsnapshot_head\n\na/b\t" + sha1 + "\t" + sha2 + "\tgo\t" + sha3 + "\n",
			want: []Entry{{Repo: "a/b", SHA: sha1, Parent: sha2, Language: "go", Snapshot: sha3}},
		},
		{name: "four fields", in: "a/b\t" + sha1 + "\t" + sha2 + "\tgo\n", wantErr: "corpus.tsv:1: want 5 tab-separated fields"},
		{name: "short id", in: "a/b\t1111\t" + sha2 + "\tgo\t" + sha3 + "\n", wantErr: `corpus.tsv:1: "1111" is not a 40-hex commit id`},
		{name: "repo without owner", in: "b\t" + sha1 + "\t" + sha2 + "\tgo\t" + sha3 + "\n", wantErr: "want repo as OWNER/NAME"},
		{name: "empty", in: "# only a header\n", wantErr: "corpus.tsv: no commits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadCorpus(strings.NewReader(tt.in), "corpus.tsv")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ReadCorpus (-want +got):\n%s", diff)
			}
		})
	}
}

// reportJSON is a ralph-gate/report/v1 report of sha2..sha1 with findings.
func reportJSON(verdict string, findings ...Finding) []byte {
	b, err := json.Marshal(map[string]any{
		"schema": "ralph-gate/report/v1", "base": sha2, "head": sha1,
		"commits":  []map[string]any{{"sha": sha1, "subject": "the subject", "findings": len(findings)}},
		"findings": findings, "verdict": verdict, "fail_on": "high",
	})
	if err != nil {
		panic(err)
	}
	return b
}

func TestAnalyze(t *testing.T) {
	deleted := Finding{ID: "RG-TD-1", Type: "test_deletion", Severity: "critical", Rule: "test-deleted", File: "a_test.go", Line: 3, Test: "TestA", Net: true, Message: "test TestA was deleted"}
	medium := Finding{ID: "RG-ES-1", Type: "error_suppression", Severity: "medium", Rule: "nolint", File: "a.go", Net: true, Message: "nolint added"}
	transient := deleted
	transient.ID, transient.Net = "RG-TD-2", false
	suppressed := deleted
	suppressed.ID, suppressed.Suppressed = "RG-TD-3", "waived by config"

	tests := []struct {
		name   string
		stdout []byte
		stderr string
		exit   int
		err    error
		want   Result
	}{
		{
			name: "pass", stdout: reportJSON("pass"),
			want: Result{Exit: 0, Verdict: "pass", Subject: "the subject"},
		},
		{
			name: "warn", stdout: reportJSON("warn", medium, transient, suppressed),
			want: Result{Exit: 0, Verdict: "warn", Subject: "the subject", Findings: 3},
		},
		{
			name: "block keeps only what blocks", stdout: reportJSON("block", deleted, medium, transient, suppressed), exit: 1,
			want: Result{Exit: 1, Verdict: "block", Subject: "the subject", Findings: 4, Blocking: []Finding{deleted}},
		},
		{
			name: "usage or input error", stderr: "ralph-gate: revision x: unknown\n", exit: 2,
			want: Result{Exit: 2, Error: "exit 2: ralph-gate: revision x: unknown"},
		},
		{
			name: "internal error", stderr: "ralph-gate: internal error: boom", exit: 3,
			want: Result{Exit: 3, Error: "exit 3: ralph-gate: internal error: boom"},
		},
		{
			name: "timeout", exit: -1, err: errors.New("timed out: context deadline exceeded"),
			want: Result{Exit: -1, Error: "did not finish: timed out: context deadline exceeded"},
		},
		{
			name: "not JSON", stdout: []byte("no"), exit: 0,
			want: Result{Exit: 0, Error: "exit 0 with unreadable JSON: invalid character 'o' in literal null (expecting 'u')"},
		},
		{
			name: "exit 1 without a block", stdout: reportJSON("warn", medium), exit: 1,
			want: Result{Exit: 1, Verdict: "warn", Subject: "the subject", Findings: 1, Error: `exit 1 with verdict "warn"`},
		},
		{
			name: "block without a blocking finding", stdout: reportJSON("block", medium), exit: 1,
			want: Result{Exit: 1, Verdict: "block", Subject: "the subject", Findings: 1, Error: `verdict "block" with 0 net unsuppressed findings at or above high`},
		},
		{
			name: "pass with a blocking finding", stdout: reportJSON("pass", deleted), exit: 0,
			want: Result{Exit: 0, Verdict: "pass", Subject: "the subject", Findings: 1, Blocking: []Finding{deleted}, Error: `verdict "pass" with 1 net unsuppressed findings at or above high`},
		},
	}
	e := Entry{Repo: "a/b", SHA: sha1, Parent: sha2, Language: "go", Snapshot: sha3}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runner := func(_ context.Context, dir, parent, sha string) ([]byte, []byte, int, error) {
				if dir != "/m/a+b.git" || parent != sha2 || sha != sha1 {
					t.Errorf("ran %s %s..%s", dir, parent, sha)
				}
				return tt.stdout, []byte(tt.stderr), tt.exit, tt.err
			}
			got := Analyze(context.Background(), runner, "/m/a+b.git", e, time.Minute)
			want := tt.want
			want.Repo, want.SHA, want.Parent, want.Language = e.Repo, e.SHA, e.Parent, e.Language
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, "MS")); diff != "" {
				t.Errorf("Analyze (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteBlocksAndSummary(t *testing.T) {
	many := Finding{ID: "RG-TD-9", Type: "test_deletion", Severity: "critical", Rule: "test-file-deleted", File: "t_test.py",
		Tests: []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7"}, Net: true, Message: "test file deleted\twith\nbreaks"}
	skip := Finding{ID: "RG-TS-1", Type: "test_skipping", Severity: "high", Rule: "skip-added", File: "a_test.go", Line: 7, Test: "TestB", Net: true, Message: "TestB skipped"}
	results := []Result{
		{Repo: "z/z", SHA: sha1, Language: "go", Subject: "drop tests", Exit: 1, Verdict: "block", Findings: 1, Blocking: []Finding{skip}, MS: 10},
		{Repo: "A/a", SHA: sha2, Language: "python", Exit: 0, Verdict: "pass", MS: 20},
		{Repo: "z/z", SHA: sha2, Language: "go", Exit: 2, Error: "exit 2: bad", MS: 30},
		{Repo: "A/a", SHA: sha3, Language: "python", Subject: "rm", Exit: 1, Verdict: "block", Findings: 2, Blocking: []Finding{many}, MS: 40},
	}
	var blocks bytes.Buffer
	labels := map[string]Label{"A/a " + sha3: {Repo: "A/a", SHA: sha3, Label: "legit_true"}}
	if err := WriteBlocks(&blocks, results, labels); err != nil {
		t.Fatal(err)
	}
	want := blocksHeader + "\n" +
		"A/a\t" + sha3 + "\ttest_deletion\tcritical\ttest-file-deleted\tt_test.py\t\tt1; t2; t3; t4; t5; (+2 more)\ttest file deleted with breaks\tRG-TD-9\trm\tlegit_true\n" +
		"z/z\t" + sha1 + "\ttest_skipping\thigh\tskip-added\ta_test.go\t7\tTestB\tTestB skipped\tRG-TS-1\tdrop tests\t\n"
	if diff := cmp.Diff(want, blocks.String()); diff != "" {
		t.Errorf("WriteBlocks (-want +got):\n%s", diff)
	}

	var sum bytes.Buffer
	if err := WriteSummary(&sum, results, "high"); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"repository  commits  blocks block rate  warns  errors  findings",
		"z/z               2       1     50.00%      0       1         1",
		"A/a               2       1     50.00%      0       0         2",
		"python            2       1     50.00%      0       0         2",
		"total             4       2     50.00%      0       1         3",
		"  1         1        test_deletion / critical / test-file-deleted",
		"errors (not a pass; exit 2 input, 3 internal, -1 did not finish): 1",
		"  z/z " + sha2 + ": exit 2: bad",
		"p50 20 ms, p95 40 ms, max 40 ms",
	} {
		if !strings.Contains(sum.String(), line) {
			t.Errorf("summary lacks %q:\n%s", line, sum.String())
		}
	}
}

func TestReadLabels(t *testing.T) {
	good := "# repo\tsha\tlabel\tclasses\tnote\n" +
		"a/b\t" + sha1 + "\tfalse_alarm\tidentity, ci_reorg\trenamed\n" +
		"a/b\t" + sha2 + "\treal_weakening\t\tcheck dropped\n"
	got, err := ReadLabels(strings.NewReader(good), "labels.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Label{
		"a/b " + sha1: {Repo: "a/b", SHA: sha1, Label: "false_alarm", Classes: []string{"identity", "ci_reorg"}, Note: "renamed"},
		"a/b " + sha2: {Repo: "a/b", SHA: sha2, Label: "real_weakening", Note: "check dropped"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadLabels (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ in, err string }{
		{"a/b\t" + sha1 + "\tfalse_alarm\tidentity\n", "labels.tsv:1: want 5 tab-separated fields"},
		{"a/b\tabc\tfalse_alarm\t\tx\n", `labels.tsv:1: "abc" is not a 40-hex commit id`},
		{"a/b\t" + sha1 + "\tmaybe\t\tx\n", `labels.tsv:1: label "maybe": want one of false_alarm, legit_true, real_weakening`},
		{"a/b\t" + sha1 + "\tlegit_true\t\tx\na/b\t" + sha1 + "\tfalse_alarm\t\ty\n", "labels.tsv:2: a/b " + sha1 + " is labelled twice"},
	} {
		if _, err := ReadLabels(strings.NewReader(tc.in), "labels.tsv"); err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("ReadLabels(%q) = %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestCompareLabels(t *testing.T) {
	sha4, sha5 := strings.Repeat("4", 40), strings.Repeat("5", 40)
	results := []Result{
		{Repo: "a/b", SHA: sha1, Verdict: "block"},         // a false alarm still blocked
		{Repo: "a/b", SHA: sha2, Verdict: "pass"},          // a real weakening lost
		{Repo: "a/b", SHA: sha3, Verdict: "block"},         // never labelled
		{Repo: "a/b", SHA: sha4, Exit: 2, Error: "exit 2"}, // a labelled commit in error: not a pass
		{Repo: "a/b", SHA: sha5, Verdict: "pass"},          // a false alarm fixed
	}
	labels := map[string]Label{
		"a/b " + sha1: {Repo: "a/b", SHA: sha1, Label: "false_alarm", Classes: []string{"identity"}},
		"a/b " + sha2: {Repo: "a/b", SHA: sha2, Label: "real_weakening"},
		"a/b " + sha4: {Repo: "a/b", SHA: sha4, Label: "real_weakening"},
		"a/b " + sha5: {Repo: "a/b", SHA: sha5, Label: "false_alarm", Classes: []string{"identity", "ci_reorg"}},
		"c/d " + sha1: {Repo: "c/d", SHA: sha1, Label: "legit_true"}, // not in this run
	}
	rep := CompareLabels(results, labels)
	if rep.Blocked != 2 || rep.Now["false_alarm"] != 1 || rep.Read["false_alarm"] != 2 || rep.Read["legit_true"] != 0 ||
		len(rep.Unread) != 1 || len(rep.Lost) != 1 || rep.Lost[0].SHA != sha2 || len(rep.Errored) != 1 ||
		rep.ClassNow["identity"] != 1 || rep.ClassRead["identity"] != 2 || rep.ClassNow["ci_reorg"] != 0 || rep.ClassRead["ci_reorg"] != 1 {
		t.Fatalf("CompareLabels = %+v", rep)
	}
	var w bytes.Buffer
	if err := rep.Write(&w, "labels.tsv"); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"against the labels (labels.tsv: 4 commits read):",
		"  false alarms: 1 labelled (20.00% of 5 commits; target 0.30%), at most 2 (40.00%) counting every unread block as one",
		"  all blocks: 2 (40.00%; target 1.50%)",
		"  labelled real weakenings not blocked: 1 (target 0)",
		"    a/b " + sha2 + ": pass",
		"  labelled commits whose run ended in an error: 1",
		"  1 / 2  identity",
		"  0 / 1  ci_reorg",
		"  a/b " + sha3,
	} {
		if !strings.Contains(w.String(), line) {
			t.Errorf("report lacks %q:\n%s", line, w.String())
		}
	}
}

// TestEndToEnd runs the built ralph-gate on a real repository cloned with
// `git clone --mirror`, the layout the script documents for those without
// the fetch tool.
func TestEndToEnd(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "ralph-gate")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/ralph-gate")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build ralph-gate: %v\n%s", err, out)
	}
	work := filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string { return testgit.Run(t, work, args...) }
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("a.go", "package m\n\nfunc A() int { return 1 }\n")
	write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n\nfunc TestB(t *testing.T) {\n\tif A() == 0 {\n\t\tt.Fatal(\"B\")\n\t}\n}\n")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	write("a.go", "package m\n\n// A is one.\nfunc A() int { return 1 }\n")
	git("commit", "-q", "-am", "a comment")
	write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n")
	git("commit", "-q", "-am", "drop TestB")
	commits := strings.Fields(git("rev-list", "--first-parent", "HEAD"))
	head := commits[0]

	mirrors := filepath.Join(tmp, "mirrors")
	testgit.Run(t, tmp, "clone", "-q", "--mirror", work, filepath.Join(mirrors, "ex+m.git"))
	var corpus strings.Builder
	corpus.WriteString("# repo\tcommit\tparent\tlanguage\tsnapshot_head\n")
	for i := 0; i+1 < len(commits); i++ {
		fmt.Fprintf(&corpus, "ex/m\t%s\t%s\tgo\t%s\n", commits[i], commits[i+1], head)
	}
	// A commit the mirror does not have: an error, never a pass.
	fmt.Fprintf(&corpus, "ex/m\t%s\t%s\tgo\t%s\n", strings.Repeat("e", 40), commits[1], head)
	corpusFile := filepath.Join(tmp, "corpus.tsv")
	if err := os.WriteFile(corpusFile, []byte(corpus.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-bin", bin, "-mirrors", mirrors, "-corpus", corpusFile, "-out", out}, env, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "1 of 3 commits ended in an error") {
		t.Fatalf("run: err = %v, want 1 of 3 commits in error; stderr:\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var got []Result
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r Result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("results.jsonl: %v: %s", err, line)
		}
		got = append(got, r)
	}
	type outcome struct {
		SHA, Verdict string
		Exit         int
		Blocking     []string
		Errored      bool
	}
	var outcomes []outcome
	for _, r := range got {
		o := outcome{SHA: r.SHA, Verdict: r.Verdict, Exit: r.Exit, Errored: r.Error != ""}
		for _, f := range r.Blocking {
			o.Blocking = append(o.Blocking, f.Type+" "+f.Test+" "+f.File)
		}
		outcomes = append(outcomes, o)
	}
	want := []outcome{
		{SHA: commits[0], Verdict: "block", Exit: 1, Blocking: []string{"test_deletion TestB a_test.go"}},
		{SHA: commits[1], Verdict: "pass", Exit: 0},
		{SHA: strings.Repeat("e", 40), Exit: 2, Errored: true},
	}
	if diff := cmp.Diff(want, outcomes); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	for _, name := range []string{"summary.txt", "blocks.tsv", "errors.tsv"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if diff := cmp.Diff([]string{"total", "3", "1", "33.33%", "0", "1", "1"}, rowOf(stdout.String(), "total")); diff != "" {
		t.Errorf("summary's total on stdout (-want +got):\n%s\n%s", diff, stdout.String())
	}

	// With labels: the commit that passes was read as a real weakening, so
	// the run fails however clean it is otherwise.
	labelsFile := filepath.Join(tmp, "labels.tsv")
	labels := fmt.Sprintf("ex/m\t%s\tfalse_alarm\tidentity\tTestB moved\nex/m\t%s\treal_weakening\t\ta comment that weakens\n", commits[0], commits[1])
	if err := os.WriteFile(labelsFile, []byte(labels), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	err = run(context.Background(), []string{"-bin", bin, "-mirrors", mirrors, "-corpus", corpusFile, "-out", out, "-labels", labelsFile}, env, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "1 labelled real weakenings are not blocked") {
		t.Fatalf("run -labels: err = %v, want the lost real weakening", err)
	}
	for _, line := range []string{"  1 / 1  identity", "  labelled real weakenings not blocked: 1 (target 0)"} {
		if !strings.Contains(stdout.String(), line) {
			t.Errorf("summary lacks %q:\n%s", line, stdout.String())
		}
	}
	blocks, err := os.ReadFile(filepath.Join(out, "blocks.tsv"))
	if err != nil || !strings.Contains(string(blocks), "\tfalse_alarm\n") {
		t.Errorf("blocks.tsv lacks the commit's label (%v):\n%s", err, blocks)
	}
}

// rowOf is the fields of the summary's first line that starts with first.
func rowOf(summary, first string) []string {
	for _, line := range strings.Split(summary, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == first {
			return f
		}
	}
	return nil
}

func TestParseFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-bin", "b", "-mirrors", "m"},
		{"-bin", "b", "-mirrors", "m", "-out", "o", "-fail-on", "severe"},
		{"-bin", "b", "-mirrors", "m", "-out", "o", "-jobs", "0"},
		{"-bin", "b", "-mirrors", "m", "-out", "o", "extra"},
	} {
		var stderr bytes.Buffer
		_, err := parseFlags(args, &stderr)
		var usage usageError
		if !errors.As(err, &usage) {
			t.Errorf("parseFlags(%q) = %v, want a usage error", args, err)
		}
	}
}
