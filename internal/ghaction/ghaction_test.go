package ghaction

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/loop"
	"github.com/ralph-gate/ralph-gate/internal/report"
)

var update = flag.Bool("update", false, "rewrite golden files")

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
)

func TestParseEvent(t *testing.T) {
	pr := fmt.Sprintf(`{"action":"synchronize","number":7,"pull_request":{"number":7,"labels":[{"name":"ralph-gate/approved"}],
		"base":{"ref":"main","sha":"%s","repo":{"full_name":"o/r"}},"head":{"ref":"agent","sha":"%s","repo":{"full_name":"fork/r"}}},
		"repository":{"full_name":"o/r","default_branch":"main"}}`, sha1, sha2)
	tests := []struct {
		name, event, payload string
		want                 Spec
		wantErr              string
	}{
		{"pull request", "pull_request", pr, Spec{Base: sha1, Head: sha2, DefaultBranch: "main"}, ""},
		{"pull request target", "pull_request_target", pr, Spec{Base: sha1, Head: sha2, DefaultBranch: "main"}, ""},
		// A push to an agent's branch is judged from the default branch, never
		// from "before", which the same author pushed.
		{"push", "push", fmt.Sprintf(`{"ref":"refs/heads/agent","before":"%s","after":"%s","repository":{"default_branch":"main"}}`, sha1, sha2),
			Spec{Head: sha2, DefaultBranch: "main"}, ""},
		{"push to the default branch", "push", fmt.Sprintf(`{"ref":"refs/heads/main","before":"%s","after":"%s","repository":{"default_branch":"main"}}`, sha1, sha2),
			Spec{Base: sha1, Head: sha2, DefaultBranch: "main"}, ""},
		{"push without a default branch", "push", fmt.Sprintf(`{"ref":"refs/heads/main","before":"%s","after":"%s"}`, sha1, sha2),
			Spec{Head: sha2}, ""},
		{"new branch", "push", fmt.Sprintf(`{"before":"%s","after":"%s","repository":{"default_branch":"main"}}`, strings.Repeat("0", 40), sha2),
			Spec{Head: sha2, DefaultBranch: "main"}, ""},
		{"branch deleted", "push", fmt.Sprintf(`{"before":"%s","after":"%s","deleted":true}`, sha1, strings.Repeat("0", 40)),
			Spec{Deleted: true}, ""},
		{"force-push", "push", fmt.Sprintf(`{"ref":"refs/heads/trunk","before":"%s","after":"%s","forced":true,"repository":{"default_branch":"trunk"}}`, sha1, sha2),
			Spec{Base: sha1, Head: sha2, MergeBase: true, DefaultBranch: "trunk"}, ""},
		{"force-push of an agent's branch", "push", fmt.Sprintf(`{"ref":"refs/heads/agent","before":"%s","after":"%s","forced":true,"repository":{"default_branch":"trunk"}}`, sha1, sha2),
			Spec{Head: sha2, DefaultBranch: "trunk"}, ""},
		{"workflow dispatch", "workflow_dispatch", `{"inputs":{"base":"v1.0.0","head":"main"}}`, Spec{Base: "v1.0.0", Head: "main"}, ""},
		{"workflow dispatch without inputs", "workflow_dispatch", `{"inputs":{"reason":"x"},"repository":{"default_branch":"main"}}`,
			Spec{DefaultBranch: "main"}, ""},
		{"merge group", "merge_group", fmt.Sprintf(`{"merge_group":{"base_sha":"%s","head_sha":"%s"}}`, sha1, sha2), Spec{Base: sha1, Head: sha2}, ""},
		{"other event", "schedule", `{}`, Spec{}, ""},
		{"push without after", "push", `{"before":"x"}`, Spec{}, "without an after SHA"},
		{"not JSON", "push", `{`, Spec{}, "not a JSON event payload"},
		{"pull request without SHAs", "pull_request", `{"pull_request":{}}`, Spec{}, "without pull_request.base.sha"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ParseEvent(tt.event, []byte(tt.payload))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ev.Spec(Inputs{})
			got.From = ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("spec (-want +got):\n%s", diff)
			}
		})
	}
	ev, _ := ParseEvent("pull_request", []byte(pr))
	if !ev.PullRequest.HasLabel("Ralph-Gate/Approved") || !ev.PullRequest.Fork() || ev.PullRequest.Number != 7 {
		t.Errorf("pull request = %+v", ev.PullRequest)
	}
	// The inputs win over the event; a base input is the base itself.
	got := ev.Spec(Inputs{Base: "v1.0.0"})
	if got.Base != "v1.0.0" || got.Head != sha2 || got.MergeBase || !strings.Contains(got.From, "inputs") {
		t.Errorf("spec with a base input = %+v", got)
	}
}

func TestReadEvent(t *testing.T) {
	dir := t.TempDir()
	payload := filepath.Join(dir, "event.json")
	if err := os.WriteFile(payload, []byte(`{"action":"labeled","label":{"name":"ralph-gate/approved"},"sender":{"login":"maintainer"},
		"pull_request":{"number":3,"base":{"sha":"`+sha1+`"},"head":{"sha":"`+sha2+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": payload, "GITHUB_REPOSITORY": "o/r"}
	ev, err := ReadEvent(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if ev.Repository != "o/r" || ev.Label != "ralph-gate/approved" || ev.Sender != "maintainer" || ev.Action != "labeled" || ev.PullRequest.Number != 3 {
		t.Errorf("event = %+v", ev)
	}
	env["GITHUB_EVENT_PATH"] = filepath.Join(dir, "missing.json")
	if _, err := ReadEvent(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing payload: error %v, want one naming the file", err)
	}
	// Outside a workflow: an empty event.
	if ev, err := ReadEvent(func(string) string { return "" }); err != nil || ev.Name != "" || ev.PullRequest != nil {
		t.Errorf("no event: %+v, %v", ev, err)
	}
}

func TestReadInputs(t *testing.T) {
	env := map[string]string{
		"INPUT_FAIL-ON": "medium", "INPUT_COLLECT": "none", "INPUT_COMMENT": "false", "INPUT_ALL-PACKAGES": "true",
		"INPUT_REPORTS": "junit=out/*.xml\n\n# coverage\nlcov = coverage/lcov.info\n",
	}
	in, err := ReadInputs(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if *in.FailOn != gate.SeverityMedium || in.Collect != "none" || in.Comment || !in.AllPackages || in.ApproveLabel != DefaultApproveLabel {
		t.Errorf("inputs = %+v", in)
	}
	if diff := cmp.Diff([]ReportGlob{{"junit", "out/*.xml"}, {"lcov", "coverage/lcov.info"}}, in.Reports); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
	for input, want := range map[string]string{
		"INPUT_FAIL-ON": "input fail-on", "INPUT_COLLECT": "input collect", "INPUT_COMMENT": "input comment",
		"INPUT_REPORTS": "input reports line 1", "INPUT_ALL-PACKAGES": "input all-packages",
	} {
		bad := map[string]string{input: "bogus"}
		if _, err := ReadInputs(func(k string) string { return bad[k] }); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=bogus: error %v, want %q", input, err, want)
		}
	}
}

func sampleReport() *gate.Report {
	f := func(typ gate.FindingType, sev gate.Severity, file string, line int, test, commit string) gate.Finding {
		return gate.Finding{Type: typ, Severity: sev, File: file, Line: line, Test: test, Commit: commit, Net: true, Message: string(typ) + " in " + file}
	}
	fs := []gate.Finding{
		f(gate.TestDeletion, gate.SeverityCritical, "calc_test.go", 11, "TestSub", sha2),
		f(gate.CoverageRegression, gate.SeverityHigh, "calc.go", 0, "", sha2),
	}
	for i := 0; i < 12; i++ {
		fs = append(fs, f(gate.ErrorSuppression, gate.SeverityLow, fmt.Sprintf("x%02d.go", i), i+1, "", sha1))
	}
	tests, cov := 3, 81.5
	tests2, cov2 := 2, 70.25
	return &gate.Report{Schema: gate.Schema, Base: strings.Repeat("a", 40), Head: sha2, Verdict: gate.VerdictBlock, FailOn: gate.SeverityHigh,
		Commits:  []gate.Commit{{SHA: sha1, Subject: "iteration 1", Findings: 12}, {SHA: sha2, Subject: "iteration 2 | tests pass", Findings: 2}},
		Findings: fs,
		Metrics: &gate.MetricsPair{Base: &gate.Metrics{TestCount: &tests, CoveragePercentage: &cov},
			Head: &gate.Metrics{TestCount: &tests2, CoveragePercentage: &cov2, BranchCoveragePercentage: gate.Float(62.5)}},
	}
}

func TestAnnotationsAndSummaryGolden(t *testing.T) {
	rep := sampleReport()
	// Text the agent controls is escaped: pipes, HTML, mentions, line breaks.
	rep.Findings[len(rep.Findings)-1].Message = "nolint | see <details> @octocat\nsecond line"
	rep.Commits[0].Subject = "iteration 1 <b>@everyone</b> [click](https://evil.example) `x`"
	shown, overflow := SelectAnnotations(rep, gate.FailOn(gate.SeverityHigh), "svc")
	if len(shown) != 12 || len(overflow) != 2 {
		t.Fatalf("%d shown, %d overflow; want 2 errors + 10 warnings shown and 2 left over", len(shown), len(overflow))
	}
	if shown[0].Level != LevelError || shown[0].File != "svc/calc_test.go" || shown[0].Line != 11 {
		t.Errorf("first annotation = %+v", shown[0])
	}
	checkGolden(t, "summary.md", func(b *strings.Builder) error {
		return WriteSummary(b, rep, SummaryOptions{Approved: true, Label: "ralph-gate/approved", ApprovedBy: "octocat",
			Overflow: overflow, RangeFrom: "pull_request #7", Notes: []string{"no pull request comment: no token"}})
	})
	// A clean push: no commits with findings, no metrics (collect none).
	clean := &gate.Report{Schema: gate.Schema, Base: sha1, Head: sha2, Verdict: gate.VerdictPass, FailOn: gate.SeverityHigh,
		Commits: []gate.Commit{{SHA: sha2, Subject: "add Mul"}}, Findings: []gate.Finding{}}
	checkGolden(t, "summary-pass.md", func(b *strings.Builder) error {
		return WriteSummary(b, clean, SummaryOptions{RangeFrom: "push: before..after"})
	})
}

func checkGolden(t *testing.T, name string, render func(*strings.Builder) error) {
	t.Helper()
	var b strings.Builder
	if err := render(&b); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// fakeGitHub speaks the REST endpoints the comment uses, on loopback.
type fakeGitHub struct {
	mu       sync.Mutex
	comments []issueComment
	calls    []string
	status   int // forced status for every call, 0 for none
	message  string
	// login is who the token is (GET /user); "" answers 403, as a
	// workflow's GITHUB_TOKEN gets, whose comments are the actions bot's.
	login string
}

func (g *fakeGitHub) author() string {
	if g.login == "" {
		return "github-actions[bot]"
	}
	return g.login
}

func (g *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
	if r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if g.status != 0 {
		w.WriteHeader(g.status)
		_ = json.NewEncoder(w).Encode(map[string]string{"message": g.message + "\nsecond line"})
		return
	}
	var in struct{ Body string }
	body, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(body, &in)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/user":
		if g.login == "" {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message": "Resource not accessible by integration"}`))
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"login": g.login})
	case r.Method == http.MethodGet && r.URL.Path == "/repos/o/r/issues/7/comments":
		// One comment per page, so the search follows the Link header.
		page := 1
		fmt.Sscanf(r.URL.Query().Get("page"), "%d", &page)
		if page < len(g.comments) {
			w.Header().Set("Link", fmt.Sprintf(`<http://%s/repos/o/r/issues/7/comments?per_page=100&page=%d>; rel="next"`, r.Host, page+1))
		}
		out := []issueComment{}
		if page-1 < len(g.comments) {
			out = append(out, g.comments[page-1])
		}
		_ = json.NewEncoder(w).Encode(out)
	case r.Method == http.MethodPost && r.URL.Path == "/repos/o/r/issues/7/comments":
		c := issueComment{ID: int64(100 + len(g.comments)), Body: in.Body}
		c.User.Login = g.author()
		g.comments = append(g.comments, c)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(g.comments[len(g.comments)-1])
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/o/r/issues/comments/"):
		var id int64
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/repos/o/r/issues/comments/"), "%d", &id)
		for i := range g.comments {
			if g.comments[i].ID == id {
				g.comments[i].Body = in.Body
				_ = json.NewEncoder(w).Encode(g.comments[i])
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func comment(id int64, author, body string) issueComment {
	c := issueComment{ID: id, Body: body}
	c.User.Login = author
	return c
}

func TestCommentsUpsert(t *testing.T) {
	// Someone else's comment carrying the marker is never taken over.
	gh := &fakeGitHub{comments: []issueComment{comment(1, "alice", "LGTM"), comment(2, "mallory", CommentMarker+"\nverdict: pass")}}
	srv := httptest.NewServer(gh)
	defer srv.Close()
	c := Comments{API: srv.URL, Repo: "o/r", Token: "tok", HTTP: srv.Client()}
	ctx := context.Background()
	for _, step := range []struct{ body, want string }{
		{CommentMarker + "\nfirst", CommentCreated},
		{CommentMarker + "\nsecond", CommentUpdated},
		{CommentMarker + "\nsecond", CommentUnchanged},
	} {
		did, err := c.Upsert(ctx, 7, step.body)
		if err != nil || did != step.want {
			t.Fatalf("upsert %q: %q, %v; want %q", step.body, did, err, step.want)
		}
	}
	if len(gh.comments) != 3 || gh.comments[2].Body != CommentMarker+"\nsecond" || gh.comments[1].Body != CommentMarker+"\nverdict: pass" {
		t.Errorf("comments = %+v, want the gate's one comment updated and mallory's untouched", gh.comments)
	}
	if !strings.Contains(strings.Join(gh.calls, "\n"), "page=3") {
		t.Errorf("the search did not follow the Link header: %v", gh.calls)
	}
	if n := strings.Count(strings.Join(gh.calls, "\n"), "PATCH"); n != 1 {
		t.Errorf("%d PATCH calls, want 1 (an unchanged body is not sent again): %v", n, gh.calls)
	}

	gh.status, gh.message = http.StatusForbidden, "Resource not accessible by integration"
	_, err := c.Upsert(ctx, 7, "x")
	if !errors.Is(err, ErrNoPermission) || !strings.Contains(err.Error(), "Resource not accessible by integration") {
		t.Errorf("403: error %v, want ErrNoPermission with GitHub's message", err)
	}
	gh.status = http.StatusInternalServerError
	if _, err := c.Upsert(ctx, 7, "x"); err == nil || errors.Is(err, ErrNoPermission) || strings.Contains(err.Error(), "\n") {
		t.Errorf("500: error %v, want a one-line error", err)
	}
	if _, err := (Comments{API: srv.URL, Repo: "o/r"}).Upsert(ctx, 7, "x"); !errors.Is(err, ErrNoPermission) {
		t.Errorf("no token: error %v, want ErrNoPermission", err)
	}
}

// TestCommentsNextPageElsewhere: a Link header pointing at another host is
// not followed, so the token is sent to GITHUB_API_URL only.
func TestCommentsNextPageElsewhere(t *testing.T) {
	var other []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other = append(other, r.Header.Get("Authorization"))
		_, _ = w.Write([]byte("[]"))
	}))
	defer elsewhere.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "<"+elsewhere.URL+"/repos/o/r/issues/7/comments?page=2>; rel=\"next\"")
		_, _ = w.Write([]byte("[]"))
	}))
	defer srv.Close()
	_, err := Comments{API: srv.URL, Repo: "o/r", Token: "tok"}.Upsert(context.Background(), 7, "x")
	if err == nil || !strings.Contains(err.Error(), "is not on") || len(other) != 0 {
		t.Errorf("error %v, requests elsewhere %v", err, other)
	}
}

// TestCommentMarkerIsTheReportsMarker: the comment is found by the marker the
// markdown report starts with.
func TestCommentMarkerIsTheReportsMarker(t *testing.T) {
	var b strings.Builder
	if err := report.Render(&b, report.Markdown, sampleReport(), report.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), CommentMarker) {
		t.Errorf("the markdown report starts %q, not with %q", b.String()[:40], CommentMarker)
	}
}

func TestCommitScore(t *testing.T) {
	rep := sampleReport()
	if got := CommitScore(rep.Findings, sha2); got != 0 {
		t.Errorf("score of the commit with a critical and a high finding = %v, want 0 (a critical one voids it, as in a loop)", got)
	}
	if got := CommitScore(rep.Findings, sha1); got != 40 {
		t.Errorf("score of the commit with 12 low findings = %v, want 40", got)
	}
	// The same model as the loop's validation dimension.
	for _, sha := range []string{sha1, sha2} {
		var mine []gate.Finding
		for _, f := range rep.Findings {
			if f.Commit == sha && f.Suppressed == "" {
				mine = append(mine, f)
			}
		}
		in := loop.ScoreInput{Findings: mine}
		_, b, _, _ := loop.Score(in, map[string]float64{"validation": 100})
		if got := CommitScore(rep.Findings, sha); got != b.Validation {
			t.Errorf("commit %s: the Action scores %v, a loop's validation %v", sha[:7], got, b.Validation)
		}
	}
}

// TestCommentsUpsertAsUser: with a personal token, the comment to update is
// the one its user wrote, not an earlier one of the actions bot's or
// anyone's.
func TestCommentsUpsertAsUser(t *testing.T) {
	gh := &fakeGitHub{login: "gate-bot", comments: []issueComment{
		comment(1, "github-actions[bot]", CommentMarker+"\nold"), comment(2, "gate-bot", CommentMarker+"\nmine"),
	}}
	srv := httptest.NewServer(gh)
	defer srv.Close()
	c := Comments{API: srv.URL, Repo: "o/r", Token: "tok", HTTP: srv.Client()}
	if did, err := c.Upsert(context.Background(), 7, CommentMarker+"\nnew"); err != nil || did != CommentUpdated {
		t.Fatalf("upsert: %q %v", did, err)
	}
	if gh.comments[0].Body != CommentMarker+"\nold" || gh.comments[1].Body != CommentMarker+"\nnew" {
		t.Errorf("comments = %+v", gh.comments)
	}
}
