package collect

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestScrubEnv(t *testing.T) {
	repo := t.TempDir()
	env := []string{
		"HOME=/home/u", "GOPATH=/home/u/go", "PYTHONPATH=/x", "GIT_AUTHOR_NAME=a", "LANG=C",
		"GITHUB_TOKEN=t", "GH_TOKEN=t", "INPUT_TOKEN=t", "INPUT_FAIL-ON=high", "ACTIONS_RUNTIME_TOKEN=t",
		"ACTIONS_ID_TOKEN_REQUEST_URL=u", "GITHUB_OUTPUT=/o", "GITHUB_ENV=/e", "GITHUB_PATH=/p", "GITHUB_STEP_SUMMARY=/s",
		"NPM_TOKEN=t", "AWS_SECRET_ACCESS_KEY=k", "OPENAI_API_KEY=k", "DB_PASSWORD=p", "MY_PAT=p",
		"GOOGLE_APPLICATION_CREDENTIALS=/c", "GITHUB_REPOSITORY=o/r", "CI=true",
		"PATH=" + strings.Join([]string{filepath.Join(repo, "node_modules", ".bin"), "/usr/bin", "", "bin", repo, "/usr/local/bin"}, string(os.PathListSeparator)),
		"RALPH_GATE_KEEP_ENV=NPM_TOKEN", "RALPH_GATE_SECRET_ENV=LANG",
	}
	out, s := ScrubEnv(env, repo)
	got := map[string]string{}
	for _, kv := range out {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	for _, k := range []string{"HOME", "GOPATH", "PYTHONPATH", "GIT_AUTHOR_NAME", "GITHUB_REPOSITORY", "CI", "NPM_TOKEN", "RALPH_GATE_KEEP_ENV"} {
		if _, ok := got[k]; !ok {
			t.Errorf("%s was withheld", k)
		}
	}
	for _, k := range []string{"GITHUB_TOKEN", "GH_TOKEN", "INPUT_TOKEN", "INPUT_FAIL-ON", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL",
		"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "DB_PASSWORD", "MY_PAT",
		"GOOGLE_APPLICATION_CREDENTIALS", "LANG"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s reached the collectors", k)
		}
		if !slices.Contains(s.Vars, k) {
			t.Errorf("%s is not listed as withheld", k)
		}
	}
	if want := "/usr/bin" + string(os.PathListSeparator) + "/usr/local/bin"; got["PATH"] != want {
		t.Errorf("PATH = %q, want %q", got["PATH"], want)
	}
	if len(s.Path) != 4 {
		t.Errorf("dropped PATH entries %q, want the 4 inside the repository or relative", s.Path)
	}
}

func TestLookPathUsesTheScrubbedPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := lookPath("tool", []string{"PATH=" + dir}); err != nil || p != filepath.Join(dir, "tool") {
		t.Errorf("lookPath: %q %v", p, err)
	}
	if _, err := lookPath("tool", []string{"PATH=/nonexistent"}); err == nil {
		t.Error("found a tool that is not on the given PATH")
	}
}
