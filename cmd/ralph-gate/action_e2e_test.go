package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// runner simulates a GitHub Actions runner for `ralph-gate action`: the
// files GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, an event payload, INPUT_
// variables.
type runner struct {
	t                      *testing.T
	dir                    string
	output, summary, event string
	env                    map[string]string
	stdout, stderr         string
	code                   int
	outputs                map[string]string
}

func newRunner(t *testing.T, workspace string) *runner {
	tmp := t.TempDir()
	r := &runner{t: t, dir: tmp, output: filepath.Join(tmp, "output"), summary: filepath.Join(tmp, "summary"),
		event: filepath.Join(tmp, "event.json")}
	r.env = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace, "GITHUB_OUTPUT": r.output,
		"GITHUB_STEP_SUMMARY": r.summary, "GITHUB_EVENT_PATH": r.event, "GITHUB_REPOSITORY": "o/r",
		"RUNNER_TEMP": tmp, "INPUT_COLLECT": "none", "INPUT_COMMENT": "false",
	}
	return r
}

func (r *runner) run(event string, payload any) {
	r.t.Helper()
	data, _ := json.Marshal(payload)
	if err := os.WriteFile(r.event, data, 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.env["GITHUB_EVENT_NAME"] = event
	// A runner gives every step empty file commands of its own.
	for _, v := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_ENV", "GITHUB_PATH"} {
		if f := r.env[v]; f != "" {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(binary, "action")
	cmd.Dir = r.env["GITHUB_WORKSPACE"]
	// The test's own environment minus anything a runner would set, so a test
	// run inside GitHub Actions sees only the simulated runner.
	cmd.Env = []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GITHUB_") && !strings.HasPrefix(kv, "INPUT_") && !strings.HasPrefix(kv, "RUNNER_") && !strings.HasPrefix(kv, "ACTIONS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range r.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r.code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	r.stdout, r.stderr = out.String(), errb.String()
	r.outputs = readOutputs(r.t, r.output)
}

// readOutputs parses GITHUB_OUTPUT's name<<delimiter blocks (and name=value
// lines).
func readOutputs(t *testing.T, path string) map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			out[name] = strings.Join(val, "\n")
		} else if name, val, ok := strings.Cut(lines[i], "="); ok {
			out[name] = val
		}
	}
	return out
}

func prPayload(base, head string, labels ...string) map[string]any {
	var ls []map[string]string
	for _, l := range labels {
		ls = append(ls, map[string]string{"name": l})
	}
	return map[string]any{
		"action": "synchronize", "number": 7,
		"repository": map[string]any{"full_name": "o/r", "default_branch": "main"},
		"pull_request": map[string]any{"number": 7, "labels": ls, "user": map[string]any{"login": "agent-bot"},
			"base": map[string]any{"ref": "main", "sha": base, "repo": map[string]any{"full_name": "o/r"}},
			"head": map[string]any{"ref": "agent", "sha": head, "repo": map[string]any{"full_name": "o/r"}}},
	}
}

// labeledPayload is the pull_request "labeled" event of label, applied by
// sender (of type User or Bot).
func labeledPayload(base, head, label, sender, senderType string) map[string]any {
	p := prPayload(base, head, label)
	p["action"] = "labeled"
	p["label"] = map[string]any{"name": label}
	p["sender"] = map[string]any{"login": sender, "type": senderType}
	return p
}

// agentPR is a repository whose agent branch deletes TestSub.
func agentPR(t *testing.T) (r *repo, base, head string) {
	r = goModule(t)
	base = r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "agent")
	r.write("calc_test.go", calcTestNoSub)
	head = r.commit("make the tests pass")
	return r, base, head
}

func TestActionPullRequestBlocksDeletedTest(t *testing.T) {
	t.Parallel()
	r, base, head := agentPR(t)
	gh := newCommentServer()
	srv := httptest.NewServer(gh)
	defer srv.Close()
	run := newRunner(t, r.dir)
	run.env["INPUT_SARIF"] = "ralph-gate.sarif"
	run.env["INPUT_COMMENT"] = "true"
	run.env["INPUT_TOKEN"] = "tok"
	run.env["GITHUB_API_URL"] = srv.URL
	run.run("pull_request", prPayload(base, head))
	if run.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", run.code, run.stdout, run.stderr)
	}
	if !strings.Contains(run.stdout, "::error file=calc_test.go,line=") || !strings.Contains(run.stdout, "title=ralph-gate%3A test_deletion (critical)") {
		t.Errorf("no error annotation on calc_test.go:\n%s", run.stdout)
	}
	o := run.outputs
	if o["verdict"] != "block" || o["approved"] != "false" || o["findings"] == "0" || o["findings"] == "" {
		t.Errorf("outputs = %v", o)
	}
	var rep struct {
		Schema  string `json:"schema"`
		Verdict string `json:"verdict"`
	}
	data, err := os.ReadFile(o["report"])
	if err != nil || json.Unmarshal(data, &rep) != nil || rep.Schema != "ralph-gate/report/v1" || rep.Verdict != "block" {
		t.Errorf("report output %q: %v %+v", o["report"], err, rep)
	}
	sarif, err := os.ReadFile(filepath.Join(r.dir, "ralph-gate.sarif"))
	if err != nil || !strings.Contains(string(sarif), `"version": "2.1.0"`) || o["sarif"] != filepath.Join(r.dir, "ralph-gate.sarif") {
		t.Errorf("sarif: %v, output %q", err, o["sarif"])
	}
	summary, _ := os.ReadFile(run.summary)
	for _, want := range []string{"ralph-gate: BLOCK", "| test_deletion | critical | calc\\_test.go:", "TestSub", "### Iterations", "xychart-beta", "commented on pull request \\#7"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	if len(gh.comments) != 1 || !strings.Contains(gh.comments[0], "<!-- ralph-gate-report -->") {
		t.Fatalf("comments = %v", gh.comments)
	}
	// The same run again leaves the comment as it is; a run whose report
	// changed (now approved) updates that one comment.
	run.run("pull_request", prPayload(base, head))
	if len(gh.comments) != 1 || strings.Contains(strings.Join(gh.calls, " "), "PATCH") {
		t.Errorf("second run: comments %d, calls %v", len(gh.comments), gh.calls)
	}
	run.run("pull_request", labeledPayload(base, head, "ralph-gate/approved", "reviewer", "User"))
	if run.code != 0 || len(gh.comments) != 1 || !strings.Contains(strings.Join(gh.calls, " "), "PATCH") ||
		!strings.Contains(gh.comments[0], "Approved by label") {
		t.Errorf("approved run: exit %d, comments %v, calls %v", run.code, gh.comments, gh.calls)
	}
}

// TestActionForkCommentForbidden: a fork's read-only token gets 403 from the
// comments API; the verdict stands and the summary says why there is no
// comment.
func TestActionForkCommentForbidden(t *testing.T) {
	t.Parallel()
	r, base, head := agentPR(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"message": "Resource not accessible by integration"}`))
	}))
	defer srv.Close()
	run := newRunner(t, r.dir)
	run.env["INPUT_COMMENT"], run.env["INPUT_TOKEN"], run.env["GITHUB_API_URL"] = "true", "read-only", srv.URL
	run.run("pull_request", prPayload(base, head))
	summary, _ := os.ReadFile(run.summary)
	if run.code != 1 || run.outputs["verdict"] != "block" || !strings.Contains(string(summary), "Resource not accessible by integration") {
		t.Errorf("fork: exit %d, outputs %v\nsummary:\n%s", run.code, run.outputs, summary)
	}
}

// TestActionPullRequestTargetRunsNoCode: on pull_request_target the job holds
// a write token, so collect defaults to none: the pull request's tests are not
// run, and the summary says so.
func TestActionPullRequestTargetRunsNoCode(t *testing.T) {
	t.Parallel()
	r, base, head := agentPR(t)
	run := newRunner(t, r.dir)
	delete(run.env, "INPUT_COLLECT")
	run.run("pull_request_target", prPayload(base, head))
	summary, _ := os.ReadFile(run.summary)
	if run.code != 1 || !strings.Contains(string(summary), "collect defaults to none on pull\\_request\\_target") || strings.Contains(string(summary), "### Metrics") {
		t.Errorf("pull_request_target: exit %d\nsummary:\n%s\nstderr: %s", run.code, summary, run.stderr)
	}
}

// TestActionCollectAuto runs the collectors on a tiny Go module: the summary
// has the measured metrics, and HEAD's code (a test the agent added) does not
// see the token the comment uses.
func TestActionCollectAuto(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not on PATH")
	}
	r, base, _ := agentPR(t)
	r.write("leak_test.go", "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"+
		"func TestEnv(t *testing.T) {\n\tif p := os.Getenv(\"LEAK_FILE\"); p != \"\" {\n"+
		"\t\t_ = os.WriteFile(p, []byte(\"token=\"+os.Getenv(\"INPUT_TOKEN\")), 0o644)\n\t}\n}\n")
	head := r.commit("check the environment")
	leak := filepath.Join(t.TempDir(), "leak")
	run := newRunner(t, r.dir)
	run.env["INPUT_COLLECT"], run.env["INPUT_TOKEN"], run.env["LEAK_FILE"] = "auto", "secret-token", leak
	run.run("pull_request", prPayload(base, head))
	if run.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", run.code, run.stdout, run.stderr)
	}
	summary, _ := os.ReadFile(run.summary)
	if !strings.Contains(string(summary), "### Metrics") || !strings.Contains(string(summary), "| tests | 2 | 2 |") {
		t.Errorf("summary has no measured metrics:\n%s", summary)
	}
	if got, err := os.ReadFile(leak); err != nil || string(got) != "token=" {
		t.Errorf("HEAD's test saw %q (%v), want no token", got, err)
	}
}

// TestActionApproveLabel: the approve label overrides a block only when a
// person with write access who did not open the pull request applied it,
// in the run of its own labeled event (a later push voids it). Everyone
// else's label is reported and ignored.
func TestActionApproveLabel(t *testing.T) {
	t.Parallel()
	r := goModule(t)
	r.write(".ralph-gate.yml", "approve:\n  agent_accounts: [helper-bot-account]\n")
	base := r.commit("the gate's config")
	r.git("checkout", "-q", "-b", "agent")
	r.write("calc_test.go", calcTestNoSub)
	head := r.commit("make the tests pass")
	gh := newCommentServer()
	srv := httptest.NewServer(gh)
	defer srv.Close()
	run := newRunner(t, r.dir)
	run.env["INPUT_TOKEN"], run.env["GITHUB_API_URL"] = "tok", srv.URL
	const label = "ralph-gate/approved"
	for _, tc := range []struct {
		name    string
		payload map[string]any
		why     string
	}{
		{"a later push", prPayload(base, head, label), "holds only for the commit it was applied on"},
		{"the author", labeledPayload(base, head, label, "agent-bot", "User"), "opened the pull request"},
		{"a bot", labeledPayload(base, head, label, "some-app[bot]", "Bot"), "is a bot"},
		{"an agent account", labeledPayload(base, head, label, "helper-bot-account", "User"), "agent account"},
		{"read access", labeledPayload(base, head, label, "outsider", "User"), "has read access"},
	} {
		run.run("pull_request", tc.payload)
		summary, _ := os.ReadFile(run.summary)
		if run.code != 1 || run.outputs["approved"] != "false" || !strings.Contains(string(summary), tc.why) {
			t.Errorf("%s: exit %d, approved %q, want the label ignored (%q)\n%s", tc.name, run.code, run.outputs["approved"], tc.why, summary)
		}
	}
	run.run("pull_request", labeledPayload(base, head, label, "reviewer", "User"))
	summary, _ := os.ReadFile(run.summary)
	if run.code != 0 || run.outputs["approved"] != "true" || run.outputs["verdict"] != "pass" || !strings.Contains(string(summary), "Approved by label `ralph-gate/approved`") {
		t.Errorf("a reviewer's label: exit %d, outputs %v\n%s", run.code, run.outputs, summary)
	}
	// Without a token the permission cannot be asked: the label is ignored.
	delete(run.env, "INPUT_TOKEN")
	run.run("pull_request", labeledPayload(base, head, label, "reviewer", "User"))
	if run.code != 1 || run.outputs["approved"] != "false" {
		t.Errorf("no token: exit %d, outputs %v", run.code, run.outputs)
	}
}

func TestActionPushEvent(t *testing.T) {
	t.Parallel()
	r, base, head := agentPR(t)
	run := newRunner(t, r.dir)
	run.run("push", map[string]any{"before": base, "after": head, "repository": map[string]any{"default_branch": "main"}})
	if run.code != 1 || run.outputs["verdict"] != "block" {
		t.Errorf("push deleting a test: exit %d, outputs %v\n%s", run.code, run.outputs, run.stderr)
	}
	// A new branch: from its merge-base with the default branch.
	run.run("push", map[string]any{"before": strings.Repeat("0", 40), "after": head, "repository": map[string]any{"default_branch": "main"}})
	if run.code != 1 {
		t.Errorf("new branch push: exit %d\n%s", run.code, run.stderr)
	}
	// The agent's next pushes: one loosens the gate's configuration and
	// deletes nothing, the last only adds a comment. Judged from the default
	// branch, not from "before" (the agent's own push), the last push still
	// blocks on the test deletion two pushes earlier.
	r.write(".ralph-gate.yml", "fail_on: none\n")
	loosen := r.commit("relax the gate")
	r.write("notes.md", "done\n")
	last := r.commit("notes")
	run.run("push", map[string]any{"ref": "refs/heads/agent", "before": loosen, "after": last, "repository": map[string]any{"default_branch": "main"}})
	if run.code != 1 || run.outputs["verdict"] != "block" {
		t.Errorf("push after the agent's own earlier pushes: exit %d, outputs %v\n%s", run.code, run.outputs, run.stderr)
	}
	// Outside a runner nothing is written to the runner's files.
	run.env["GITHUB_ACTIONS"] = "false"
	os.Remove(run.output)
	run.run("push", map[string]any{"before": base, "after": base})
	if run.code != 0 || len(run.outputs) != 0 {
		t.Errorf("empty push outside a runner: exit %d, outputs %v", run.code, run.outputs)
	}
}

func TestActionShallowClone(t *testing.T) {
	t.Parallel()
	r, base, head := agentPR(t)
	clone := filepath.Join(t.TempDir(), "clone")
	gitIn(t, filepath.Dir(clone), "clone", "-q", "--depth", "1", "--branch", "agent", "file://"+r.dir, clone)
	run := newRunner(t, clone)
	run.run("pull_request", prPayload(base, head))
	if run.code != 1 || run.outputs["verdict"] != "block" {
		t.Fatalf("shallow clone: exit %d, outputs %v\n%s", run.code, run.outputs, run.stderr)
	}
	summary, _ := os.ReadFile(run.summary)
	if !strings.Contains(string(summary), "the checkout was shallow") {
		t.Errorf("summary does not mention the fetch:\n%s", summary)
	}
	// A BASE the remote does not have: one line asking for fetch-depth: 0.
	run2 := newRunner(t, clone)
	run2.run("pull_request", prPayload(strings.Repeat("e", 40), head))
	if run2.code != 2 || !strings.Contains(run2.stderr, "fetch-depth: 0") || strings.Count(strings.TrimSpace(run2.stderr), "\n") > 0 {
		t.Errorf("missing BASE: exit %d, stderr %q", run2.code, run2.stderr)
	}
}

func TestActionBadInput(t *testing.T) {
	t.Parallel()
	r, base, head := agentPR(t)
	run := newRunner(t, r.dir)
	run.env["INPUT_FAIL-ON"] = "severe"
	run.run("pull_request", prPayload(base, head))
	if run.code != 2 || !strings.Contains(run.stderr, "input fail-on") || strings.Count(strings.TrimSpace(run.stderr), "\n") > 0 {
		t.Errorf("bad fail-on: exit %d, stderr %s", run.code, run.stderr)
	}
	if !strings.Contains(run.stdout, "::error title=ralph-gate::action: input fail-on") {
		t.Errorf("no error annotation for the bad input:\n%s", run.stdout)
	}
}

// TestActionInstallScript installs a release archive made by
// scripts/release.sh the way action.yml's first step does, checking its
// checksum, and refuses a tampered archive.
func TestActionInstallScript(t *testing.T) {
	slow(t)
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is needed by the install script and this test")
	}
	root, _ := filepath.Abs("../..")
	dist := filepath.Join(t.TempDir(), "v9.8.7")
	goos, goarch := strings.TrimSpace(runCmd(t, root, "go", "env", "GOOS")), strings.TrimSpace(runCmd(t, root, "go", "env", "GOARCH"))
	rel := exec.Command("bash", "scripts/release.sh", "v9.8.7", dist)
	rel.Dir = root
	rel.Env = append(os.Environ(), "TARGETS="+goos+"/"+goarch)
	if out, err := rel.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}
	// A repository with the release's tags, for the floating tag's resolution.
	tags := newRepo(t)
	tags.write("f", "x")
	tags.commit("release")
	tags.git("tag", "v9.8.7")
	tags.git("tag", "-a", "-m", "v9", "v9")
	tags.git("tag", "v9.8.6")
	tags.write("f", "y")
	tags.commit("later")
	tags.git("tag", "v9.9.0-rc1")

	install := func(env ...string) (string, error) {
		tmp := t.TempDir()
		cmd := exec.Command("bash", filepath.Join(root, "scripts", "action-install.sh"))
		osName := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[goos]
		arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[goarch]
		cmd.Env = append(os.Environ(), "RG_DOWNLOAD_BASE=file://"+filepath.Dir(dist), "RG_REPO_URL=file://"+tags.dir,
			"RUNNER_OS="+osName, "RUNNER_ARCH="+arch, "RUNNER_TEMP="+tmp, "GITHUB_PATH="+filepath.Join(tmp, "path"))
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		path, _ := os.ReadFile(filepath.Join(tmp, "path"))
		return string(out) + "|" + string(path), err
	}
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"version input", []string{"RG_VERSION=v9.8.7", "RG_INSTALL=release"}},
		{"release tag", []string{"RG_ACTION_REF=v9.8.7"}},
		{"floating tag", []string{"RG_ACTION_REF=v9"}},
		{"ref from the action path", []string{"GITHUB_ACTION_PATH=/home/runner/work/_actions/ralph-gate/ralph-gate/v9"}},
	} {
		out, err := install(tc.env...)
		if err != nil || !strings.Contains(out, "downloading ralph-gate_9.8.7_") || !strings.Contains(out, "ralph-gate 9.8.7") ||
			!strings.Contains(out, "ralph-gate-bin") {
			t.Errorf("%s: %v\n%s", tc.name, err, out)
		}
	}
	// The action used as `uses: ./` (no ref): built from its own checkout.
	if out, err := install("GITHUB_ACTION_PATH="+root, "GOFLAGS=-buildvcs=false"); err != nil || !strings.Contains(out, "go build of the action's checkout") {
		t.Errorf("local action: %v\n%s", err, out)
	}
	// A branch names no release, and release mode will not build.
	if out, err := install("RG_ACTION_REF=main", "RG_INSTALL=release"); err == nil || !strings.Contains(out, "'main' names none") {
		t.Errorf("release mode at a branch: %v\n%s", err, out)
	}
	// Tamper with the archive: the checksum no longer matches.
	archive := filepath.Join(dist, fmt.Sprintf("ralph-gate_9.8.7_%s_%s.tar.gz", goos, goarch))
	f, err := os.OpenFile(archive, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("tampered"))
	f.Close()
	if out, err := install("RG_VERSION=v9.8.7"); err == nil || !strings.Contains(out, "checksum mismatch") {
		t.Errorf("tampered archive installed: %v\n%s", err, out)
	}
}

// commentServer speaks the three REST endpoints of the sticky comment.
type commentServer struct {
	mu       sync.Mutex
	comments []string
	calls    []string
	// prHead and prLabels are pull request #7's, for GET /pulls/7 (the
	// report job's approval check); statuses are the commit statuses set.
	prHead   string
	prLabels []string
	statuses []string
}

func newCommentServer() *commentServer { return &commentServer{} }

func (s *commentServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var in struct{ Body string }
	data, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(data, &in)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/user":
		// A workflow's GITHUB_TOKEN cannot ask who it is.
		w.WriteHeader(http.StatusForbidden)
	case r.Method == http.MethodGet && r.URL.Path == "/repos/o/r/pulls/7" && s.prHead != "":
		var ls []map[string]string
		for _, l := range s.prLabels {
			ls = append(ls, map[string]string{"name": l})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"user": map[string]any{"login": "agent-bot"}, "head": map[string]any{"sha": s.prHead}, "labels": ls})
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/repos/o/r/statuses/"):
		var st struct{ State, Context, Description string }
		_ = json.Unmarshal(data, &st)
		s.statuses = append(s.statuses, st.Context+"="+st.State+" "+strings.TrimPrefix(r.URL.Path, "/repos/o/r/statuses/"))
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{}`))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/repos/o/r/collaborators/"):
		perm := map[string]string{"reviewer": "write", "outsider": "read", "agent-bot": "write", "helper-bot-account": "admin"}[strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/repos/o/r/collaborators/"), "/permission")]
		_ = json.NewEncoder(w).Encode(map[string]string{"permission": orNone(perm)})
	case r.Method == http.MethodGet && r.URL.Path == "/repos/o/r/issues/7/comments":
		var list []map[string]any
		for i, c := range s.comments {
			list = append(list, map[string]any{"id": i + 1, "body": c, "user": map[string]any{"login": "github-actions[bot]"}})
		}
		if list == nil {
			list = []map[string]any{}
		}
		_ = json.NewEncoder(w).Encode(list)
	case r.Method == http.MethodPost && r.URL.Path == "/repos/o/r/issues/7/comments":
		s.comments = append(s.comments, in.Body)
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id": 1}`))
	case r.Method == http.MethodPatch && r.URL.Path == "/repos/o/r/issues/comments/1":
		s.comments[0] = in.Body
		_, _ = w.Write([]byte(`{"id": 1}`))
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// TestActionTwoJobs: the measure job runs with no token and writes its
// report; the report job, on workflow_run, posts it from the artifact. The
// artifact is untrusted: it must be a ralph-gate report of the commit the
// measure run was for, and the verdict posted is the measure job's
// conclusion, never the file's.
func TestActionTwoJobs(t *testing.T) {
	t.Parallel()
	r, base, head := agentPR(t)
	measure := newRunner(t, r.dir)
	measure.run("pull_request", prPayload(base, head))
	if measure.code != 1 {
		t.Fatalf("measure: exit %d\n%s", measure.code, measure.stderr)
	}
	report, err := os.ReadFile(measure.outputs["report"])
	if err != nil {
		t.Fatal(err)
	}
	gh := newCommentServer()
	srv := httptest.NewServer(gh)
	defer srv.Close()
	artifact := filepath.Join(t.TempDir(), "artifact")
	os.MkdirAll(artifact, 0o755)
	post := newRunner(t, r.dir)
	post.env["INPUT_REPORT-FROM"] = filepath.Join(artifact, "ralph-gate-report.json")
	post.env["INPUT_COMMENT"], post.env["INPUT_TOKEN"], post.env["GITHUB_API_URL"] = "true", "tok", srv.URL
	wr := func(sha, conclusion string) map[string]any {
		return map[string]any{"action": "completed", "repository": map[string]any{"full_name": "o/r", "default_branch": "main"},
			"workflow_run": map[string]any{"head_sha": sha, "conclusion": conclusion, "event": "pull_request", "pull_requests": []any{map[string]any{"number": 7}}}}
	}
	write := func(data string) {
		os.WriteFile(filepath.Join(artifact, "ralph-gate-report.json"), []byte(data), 0o644)
	}

	write(string(report))
	post.run("workflow_run", wr(head, "failure"))
	if post.code != 0 || post.outputs["verdict"] != "block" || len(gh.comments) != 1 || !strings.Contains(gh.comments[0], "BLOCK") {
		t.Fatalf("report job: exit %d, outputs %v, comments %d\n%s", post.code, post.outputs, len(gh.comments), post.stderr)
	}
	// A report edited to say pass: the job's conclusion decides.
	write(strings.Replace(string(report), `"verdict": "block"`, `"verdict": "pass"`, 1))
	post.run("workflow_run", wr(head, "failure"))
	summary, _ := os.ReadFile(post.summary)
	if post.outputs["verdict"] != "block" || !strings.Contains(gh.comments[0], "BLOCK") || !strings.Contains(string(summary), "the verdict shown is the job's") {
		t.Errorf("forged verdict: outputs %v\n%s", post.outputs, summary)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"another commit's report", strings.Replace(string(report), head, base, -1), "refused"},
		{"an unknown field", strings.Replace(string(report), `"schema"`, `"evil": 1, "schema"`, 1), "unknown field"},
		{"another schema", strings.Replace(string(report), "ralph-gate/report/v1", "x/v9", 1), "has schema"},
		{"not JSON", "verdict=pass", "not a ralph-gate report"},
	} {
		write(tc.data)
		post.run("workflow_run", wr(head, "failure"))
		if post.code != 2 || !strings.Contains(post.stderr, tc.want) {
			t.Errorf("%s: exit %d, want 2 with %q\n%s", tc.name, post.code, tc.want, post.stderr)
		}
	}
	os.Remove(filepath.Join(artifact, "ralph-gate-report.json"))
	os.Symlink("/etc/passwd", filepath.Join(artifact, "ralph-gate-report.json"))
	post.run("workflow_run", wr(head, "failure"))
	if post.code != 2 || strings.Contains(post.stderr+post.stdout, "root:") {
		t.Errorf("a link out of the artifact: exit %d\n%s", post.code, post.stderr)
	}
	post.run("pull_request", prPayload(base, head))
	if post.code != 2 || !strings.Contains(post.stderr, "workflow_run") {
		t.Errorf("report-from on pull_request: exit %d %s", post.code, post.stderr)
	}

	// The approve label, in the report job: it counts when the person who
	// triggered the measure run (by labeling, or re-running it) may approve
	// and the pull request's head is still the commit measured; the commit
	// status ralph-gate is the report job's, the one to require.
	os.Remove(filepath.Join(artifact, "ralph-gate-report.json"))
	write(string(report))
	gh.prHead, gh.prLabels = head, []string{"ralph-gate/approved"}
	byWho := func(who, sha string) map[string]any {
		p := wr(head, "failure")
		p["workflow_run"].(map[string]any)["triggering_actor"] = map[string]any{"login": who, "type": "User"}
		gh.prHead = sha
		return p
	}
	for _, tc := range []struct {
		name, who, prHead, want string
	}{
		{"the agent pushed", "agent-bot", head, "opened the pull request"},
		{"a reader re-ran it", "outsider", head, "has read access"},
		{"the head moved on", "reviewer", base, "not " + head[:7]},
	} {
		post.run("workflow_run", byWho(tc.who, tc.prHead))
		summary, _ := os.ReadFile(post.summary)
		if post.outputs["approved"] != "false" || post.outputs["verdict"] != "block" || !strings.Contains(string(summary), tc.want) {
			t.Errorf("%s: outputs %v\n%s", tc.name, post.outputs, summary)
		}
	}
	gh.statuses = nil
	post.run("workflow_run", byWho("reviewer", head))
	if post.code != 0 || post.outputs["approved"] != "true" || post.outputs["verdict"] != "pass" {
		t.Errorf("a reviewer's label: exit %d, outputs %v\n%s", post.code, post.outputs, post.stderr)
	}
	if len(gh.statuses) != 1 || gh.statuses[0] != "ralph-gate=success "+head {
		t.Errorf("commit statuses: %v", gh.statuses)
	}
}
