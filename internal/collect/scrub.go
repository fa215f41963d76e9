package collect

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The collectors run HEAD's code, which the agent wrote: a test can read
// its environment, and every program it starts inherits it. So they start
// from an environment without credentials and without the runner's file
// commands, and with no PATH entry inside the repository (where HEAD could
// plant its own `go` or `python3`).

// runnerFiles are GitHub Actions' file commands: a test that writes to them
// sets the step's outputs, the job's environment (LD_PRELOAD for every
// later step), its PATH or its summary.
var runnerFiles = []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"}

// secretWords are the name parts that mark a credential (GITHUB_TOKEN,
// NPM_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD, GOOGLE_APPLICATION_CREDENTIALS).
var secretWords = []string{"TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "CREDENTIAL", "CREDENTIALS", "APIKEY", "PAT", "PRIVATE"}

// IsSecretName reports whether a variable is withheld from HEAD's code (a
// credential, an ACTIONS_* or INPUT_* variable, a runner file command).
func IsSecretName(name string) bool { return isSecretName(name) }

// KeptNames are the variables RALPH_GATE_KEEP_ENV keeps in env.
func KeptNames(env []string) []string {
	var keep []string
	for _, kv := range env {
		if name, v, _ := strings.Cut(kv, "="); name == "RALPH_GATE_KEEP_ENV" {
			keep = append(keep, strings.FieldsFunc(v, isListSep)...)
		}
	}
	return keep
}

func isSecretName(name string) bool {
	u := strings.ToUpper(name)
	if slices.Contains(runnerFiles, u) || strings.HasPrefix(u, "ACTIONS_") || strings.HasPrefix(u, "INPUT_") {
		return true
	}
	parts := strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	for _, p := range parts {
		if slices.Contains(secretWords, p) {
			return true
		}
	}
	return strings.HasSuffix(u, "_KEY") || strings.HasSuffix(u, "_KEYS")
}

// Scrubbed is what ScrubEnv withheld.
type Scrubbed struct {
	// Vars are the variables' names (never their values).
	Vars []string
	// Path are the PATH entries dropped.
	Path []string
}

// ScrubEnv returns env without credentials (names with TOKEN, SECRET,
// PASSWORD, CREDENTIALS, ... _KEY; every ACTIONS_* and INPUT_*), without the
// runner's file commands (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH,
// GITHUB_STEP_SUMMARY, GITHUB_STATE), and without PATH entries that are
// relative or inside one of roots. RALPH_GATE_KEEP_ENV (names, comma- or
// space-separated) keeps named variables a test run truly needs (a private
// registry's token for the install step), and RALPH_GATE_SECRET_ENV
// withholds more.
func ScrubEnv(env []string, roots ...string) ([]string, Scrubbed) {
	var keep, more []string
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		switch name {
		case "RALPH_GATE_KEEP_ENV":
			keep = append(keep, strings.FieldsFunc(v, isListSep)...)
		case "RALPH_GATE_SECRET_ENV":
			more = append(more, strings.FieldsFunc(v, isListSep)...)
		}
	}
	var clean []string
	for _, r := range roots {
		if r == "" {
			continue
		}
		if abs, err := filepath.Abs(r); err == nil {
			clean = append(clean, abs)
			if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
				clean = append(clean, real)
			}
		}
	}
	var s Scrubbed
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		withhold := slices.Contains(more, name) || isSecretName(name) && !slices.Contains(keep, name)
		if strings.HasPrefix(name, "RALPH_GATE_") {
			withhold = false
		}
		if withhold {
			s.Vars = append(s.Vars, name)
			continue
		}
		if name == "PATH" {
			var entries []string
			for _, e := range filepath.SplitList(v) {
				if insideAny(e, clean) {
					s.Path = append(s.Path, e)
					continue
				}
				entries = append(entries, e)
			}
			kv = "PATH=" + strings.Join(entries, string(os.PathListSeparator))
		}
		out = append(out, kv)
	}
	return out, s
}

func isListSep(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }

// insideAny reports whether a PATH entry is relative (it resolves against
// the working directory, a checkout) or lies inside one of roots.
func insideAny(entry string, roots []string) bool {
	if entry == "" || !filepath.IsAbs(entry) {
		return true
	}
	cands := []string{filepath.Clean(entry)}
	if real, err := filepath.EvalSymlinks(entry); err == nil {
		cands = append(cands, real)
	}
	for _, c := range cands {
		for _, r := range roots {
			if c == r || strings.HasPrefix(c, r+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

// lookPath finds a command on env's PATH (never the process's own, which
// may still hold entries inside the repository).
func lookPath(name string, env []string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		return name, nil
	}
	path := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "PATH" {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New(name + ": not found on PATH (entries inside the repository are not searched)")
}

// probeEnv is the environment of the version and tool probes, which run
// before any checkout: scrubbed, with the workspace and the working
// directory counted as the repository.
func probeEnv() []string {
	cwd, _ := os.Getwd()
	env, _ := ScrubEnv(withoutRepoEnv(os.Environ()), cwd, os.Getenv("GITHUB_WORKSPACE"))
	return env
}

// ToolCommand resolves a tool ralph-gate runs itself in a checkout (go list
// for the import graph) the way the collectors' commands are resolved: on
// the scrubbed environment's PATH, which has no entry inside the checkout
// or the repository. environ nil is the process's environment.
func ToolCommand(name string, environ []string, dir, repoDir string) (bin string, env []string, err error) {
	if environ == nil {
		environ = os.Environ()
	}
	env, _ = ScrubEnv(withoutRepoEnv(environ), dir, repoDir)
	bin, err = lookPath(name, env)
	return bin, env, err
}
