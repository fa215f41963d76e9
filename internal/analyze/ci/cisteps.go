package ci

import (
	"encoding/json"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"mvdan.cc/sh/v3/syntax"
)

// Step is a GitHub Actions step that runs tests on a pull request, as
// compare runs it to measure what the project's CI runs (see
// pipeline's CI commands): its script, shell, directory and environment.
type Step struct {
	// Workflow is the workflow's path, Job the job's id, Name the step's
	// name ("" when it has none) and Index its place among the job's steps.
	Workflow, Job, Name string
	// Combo names the job's matrix combination ("go=1.26, os=ubuntu-latest"),
	// "" for a job without a matrix.
	Combo string
	Index int
	// Line is the workflow line of the step's run:.
	Line int
	// Script is the run: text, Shell "bash" or "sh" (GitHub's default on
	// Linux is bash -e; `shell: bash` adds -o pipefail).
	Script   string
	Shell    string
	Pipefail bool
	// Dir is the working-directory (step or job default), relative to the
	// repository's root; "" is the root.
	Dir string
	// Env is the workflow's, job's and step's env, in that order of
	// precedence (plain values only).
	Env map[string]string
	// Checks are the test runs the step reaches, following make targets,
	// package.json scripts and CI scripts ("go test", "pytest").
	Checks []string
	// Files are the paths its commands name (./build/test.sh, python
	// tools/ci.py), from the repository's root: part of its program
	// wherever they live.
	Files []string
	// Skip says why the step cannot run here (a service container, a
	// secret, an expression only the runner substitutes, another OS, a
	// shell this reader does not follow); "" when it can.
	Skip string
}

// Key is how a step is matched across BASE and HEAD: its workflow, job
// and name, or its place when it has no name.
func (s Step) Key() string {
	k := s.Workflow + " " + s.Job + " #" + strconv.Itoa(s.Index+1)
	if s.Name != "" {
		k = s.Workflow + " " + s.Job + " " + s.Name
	}
	if s.Combo != "" {
		k += " [" + s.Combo + "]"
	}
	return k
}

// Title names the step for a person: `ci.yml` job test, step "Test".
func (s Step) Title() string {
	job := s.Job
	if s.Combo != "" {
		job += " (" + s.Combo + ")"
	}
	if s.Name != "" {
		return s.Workflow + " job " + job + ", step \"" + s.Name + "\""
	}
	return s.Workflow + " job " + job + ", step " + strconv.Itoa(s.Index+1)
}

// ProgramFile reports whether a file is part of the CI's test program
// rather than of the code it tests: a workflow, a Makefile, a CI script
// (the root's and those of .ci/, ci/ and scripts/, any *.sh), a task
// runner's file (Taskfile.yml, justfile), tox.ini or noxfile.py. package.json is code and program at once: only its
// "scripts" are program (see CIScriptsOf).
func ProgramFile(p string) bool {
	dir, base := path.Dir(p), path.Base(p)
	switch {
	case workflowLoaded(p), isMakefile(p), path.Ext(p) == ".mk":
		return true
	case dir == "." && (base == "tox.ini" || base == "noxfile.py" || base == ".gitlab-ci.yml"):
		return true
	case base == "Taskfile.yml" || base == "Taskfile.yaml" || base == "justfile" || base == "Justfile" || base == ".justfile":
		return true // task and just read them without a path
	case dir == ".ci" || dir == "ci" || dir == "scripts", path.Ext(p) == ".sh":
		return true
	}
	return false
}

// ScriptsOf returns a package.json's "scripts" object as written, nil
// when it has none or does not parse.
func ScriptsOf(data []byte) json.RawMessage {
	var pkg struct {
		Scripts json.RawMessage `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	return pkg.Scripts
}

// TestSteps reads, from one side's CI files (by path: workflows,
// Makefiles, package.json files, CI scripts), the workflow steps that run
// tests on a pull request: the workflow triggers on one, and neither the
// job nor the step is switched off for it or allowed to fail. Steps come
// in workflow, job and step order.
func TestSteps(files map[string][]byte) []Step {
	w := newCIWorld(files)
	var paths []string
	for p := range files {
		if workflowLoaded(p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var out []Step
	for _, p := range paths {
		out = append(out, workflowTestSteps(w, p, files[p])...)
	}
	return out
}

func workflowTestSteps(w *ciWorld, p string, data []byte) []Step {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	root := doc.Content[0]
	_, events := scriptsOf(&doc)
	onPR := false
	for _, e := range prEvents {
		onPR = onPR || events[e]
	}
	if !onPR {
		return nil
	}
	jobs := mapGet(root, "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return nil
	}
	wfEnv, wfEnvSkip := plainEnv(mapGet(root, "env"))
	defShell := scalar(mapGet(mapGet(mapGet(root, "defaults"), "run"), "shell"))
	defDir := scalar(mapGet(mapGet(mapGet(root, "defaults"), "run"), "working-directory"))
	var out []Step
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		id, job := jobs.Content[i].Value, jobs.Content[i+1]
		combos := matrixCombos(job)
		if combos == nil {
			out = append(out, jobTestSteps(w, p, id, job, wfEnv, wfEnvSkip, defShell, defDir, "")...)
			continue
		}
		// Each combination of the job's matrix is a job of its own: its
		// ${{ matrix.* }} filled in. Combinations that run the same step
		// the same way (they differ in a Go version setup-go installs,
		// which runs here as the local toolchain) are measured once.
		seen := map[string]bool{}
		for _, c := range combos {
			for _, st := range jobTestSteps(w, p, id, withMatrix(job, c.values), wfEnv, wfEnvSkip, defShell, defDir, c.name) {
				k := st.Shell + "\x00" + st.Dir + "\x00" + st.Script + "\x00" + envKey(st.Env) + "\x00" + st.Skip
				if st.Skip == "" && seen[k] {
					continue
				}
				seen[k] = true
				out = append(out, st)
			}
		}
	}
	return out
}

// jobTestSteps reads one job's test steps; combo names its matrix
// combination ("" for a job without one).
func jobTestSteps(w *ciWorld, p, id string, job *yaml.Node, wfEnv map[string]string, wfEnvSkip, defShell, defDir, combo string) []Step {
	if isFalse(mapGet(job, "if")) || offOnPullRequest(scalar(mapGet(job, "if"))) || isTrue(mapGet(job, "continue-on-error")) {
		return nil
	}
	jobSkip := ""
	switch {
	case mapGet(job, "services") != nil:
		jobSkip = "its job needs service containers"
	case mapGet(job, "container") != nil:
		jobSkip = "its job runs in a container"
	case mapGet(job, "uses") != nil:
		return nil // a reusable workflow: its steps are in another file
	}
	if ro := strings.ToLower(strings.Join(yamlStrings(mapGet(job, "runs-on"), nil), " ")); jobSkip == "" && ro != "" &&
		!strings.Contains(ro, "ubuntu") && !strings.Contains(ro, "linux") && !strings.Contains(ro, "${{") && !strings.Contains(ro, "self-hosted") {
		if combo != "" {
			return nil // this combination runs elsewhere; another may run here
		}
		jobSkip = "its job runs on " + ro
	}
	jobEnv, jobEnvSkip := plainEnv(mapGet(job, "env"))
	shell := scalar(mapGet(mapGet(mapGet(job, "defaults"), "run"), "shell"))
	if shell == "" {
		shell = defShell
	}
	dir := scalar(mapGet(mapGet(mapGet(job, "defaults"), "run"), "working-directory"))
	if dir == "" {
		dir = defDir
	}
	steps := mapGet(job, "steps")
	if steps == nil || steps.Kind != yaml.SequenceNode {
		return nil
	}
	var out []Step
	for si, st := range steps.Content {
		run := mapGet(st, "run")
		if run == nil || run.Kind != yaml.ScalarNode {
			continue
		}
		if isFalse(mapGet(st, "if")) || offOnPullRequest(scalar(mapGet(st, "if"))) || isTrue(mapGet(st, "continue-on-error")) {
			continue
		}
		stepDir := dir
		if d := scalar(mapGet(st, "working-directory")); d != "" {
			stepDir = d
		}
		keys := map[string]bool{}
		w.scriptKeys(cleanDir(stepDir), withoutExpressions(run.Value), keys)
		checks := SortedKeys(testKeys(keys))
		if len(checks) == 0 {
			continue
		}
		line := run.Line
		if run.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			line++
		}
		s := Step{Workflow: p, Job: id, Name: scalar(mapGet(st, "name")), Combo: combo, Index: si, Line: line,
			Script: run.Value, Dir: cleanDir(stepDir), Checks: checks, Skip: jobSkip,
			Files: namedFiles(cleanDir(stepDir), withoutExpressions(run.Value))}
		stepShell := scalar(mapGet(st, "shell"))
		if stepShell == "" {
			stepShell = shell
		}
		switch strings.TrimSpace(stepShell) {
		case "", "bash":
			s.Shell, s.Pipefail = "bash", stepShell == "bash"
		case "sh":
			s.Shell = "sh"
		default:
			if s.Skip == "" {
				s.Skip = "its shell is " + strings.TrimSpace(stepShell)
			}
		}
		stepEnv, stepEnvSkip := plainEnv(mapGet(st, "env"))
		s.Env = map[string]string{}
		for _, m := range []map[string]string{wfEnv, jobEnv, stepEnv} {
			for k, v := range m {
				s.Env[k] = v
			}
		}
		for _, why := range []string{wfEnvSkip, jobEnvSkip, stepEnvSkip} {
			if s.Skip == "" && why != "" {
				s.Skip = why
			}
		}
		if s.Skip == "" && strings.Contains(run.Value, "${{") {
			s.Skip = "its script holds ${{ }} expressions, which only the runner substitutes"
			if strings.Contains(run.Value, "secrets.") {
				s.Skip = "its script needs a secret"
			}
		}
		if s.Skip == "" && strings.Contains(stepDir, "${{") {
			s.Skip = "its working-directory is an expression"
		}
		if s.Skip == "" {
			s.Skip = needsOutside(withoutExpressions(run.Value))
		}
		out = append(out, s)
	}
	return out
}

func envKey(env map[string]string) string {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + env[k] + "\x00")
	}
	return b.String()
}

// maxCombos bounds the matrix combinations read of one job.
const maxCombos = 64

// matrixCombo is one combination of a job's matrix: its values by key,
// and its name ("go=1.26, os=ubuntu-latest").
type matrixCombo struct {
	values map[string]string
	name   string
}

// matrixCombos expands a job's strategy.matrix as GitHub does: the
// product of its keys' lists, less the exclude entries, with each include
// entry added to the combinations whose original values it does not
// change, or added as a combination of its own. nil when the job has no
// matrix, or one given by an expression (fromJSON) that only the runner
// can read. Values that are not scalars stay unset.
func matrixCombos(job *yaml.Node) []matrixCombo {
	m := mapGet(mapGet(job, "strategy"), "matrix")
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	combos := []map[string]string{{}}
	original := map[string]bool{}
	var include, exclude []map[string]string
	entries := func(n *yaml.Node) []map[string]string {
		var out []map[string]string
		if n == nil || n.Kind != yaml.SequenceNode {
			return nil
		}
		for _, e := range n.Content {
			if e.Kind != yaml.MappingNode {
				continue
			}
			vals := map[string]string{}
			for i := 0; i+1 < len(e.Content); i += 2 {
				if e.Content[i+1].Kind == yaml.ScalarNode {
					vals[e.Content[i].Value] = e.Content[i+1].Value
				}
			}
			out = append(out, vals)
		}
		return out
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i].Value, m.Content[i+1]
		switch k {
		case "include":
			include = entries(v)
			continue
		case "exclude":
			exclude = entries(v)
			continue
		}
		var vals []string
		switch v.Kind {
		case yaml.SequenceNode:
			for _, e := range v.Content {
				if e.Kind == yaml.ScalarNode {
					vals = append(vals, e.Value)
				} else {
					vals = append(vals, "")
				}
			}
		case yaml.ScalarNode:
			if strings.Contains(v.Value, "${{") {
				return nil // the list comes from an expression
			}
			vals = []string{v.Value}
		}
		original[k] = true
		var next []map[string]string
		for _, c := range combos {
			for _, val := range vals {
				if len(next) >= maxCombos {
					break
				}
				n := maps.Clone(c)
				n[k] = val
				next = append(next, n)
			}
		}
		combos = next
	}
	if len(original) == 0 {
		combos = nil
	}
	combos = slices.DeleteFunc(combos, func(c map[string]string) bool {
		for _, ex := range exclude {
			match := true
			for k, v := range ex {
				match = match && c[k] == v
			}
			if match && len(ex) > 0 {
				return true
			}
		}
		return false
	})
	for _, inc := range include {
		added := false
		for _, c := range combos {
			fits := true
			for k, v := range inc {
				fits = fits && (!original[k] || c[k] == v)
			}
			if fits {
				for k, v := range inc {
					c[k] = v
				}
				added = true
			}
		}
		if !added && len(combos) < maxCombos {
			combos = append(combos, maps.Clone(inc))
		}
	}
	out := make([]matrixCombo, 0, len(combos))
	for _, c := range combos {
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, k+"="+c[k])
		}
		out = append(out, matrixCombo{values: c, name: strings.Join(parts, ", ")})
	}
	return out
}

// matrixRef is a reference to a matrix value, or to the runner's OS.
var matrixRef = lazyre.New(`\$\{\{\s*(matrix\.([A-Za-z0-9_-]+)|runner\.os)\s*\}\}`)

// withMatrix returns a copy of a job with ${{ matrix.KEY }} (and ${{
// runner.os }}, Linux here) filled in from one combination; a key the
// combination lacks stays an expression.
func withMatrix(job *yaml.Node, values map[string]string) *yaml.Node {
	var cp func(n *yaml.Node) *yaml.Node
	cp = func(n *yaml.Node) *yaml.Node {
		if n == nil {
			return nil
		}
		c := *n
		if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "${{") {
			c.Value = matrixRef.ReplaceAllStringFunc(n.Value, func(ref string) string {
				sub := matrixRef.FindStringSubmatch(ref)
				if sub[1] == "runner.os" {
					return "Linux"
				}
				if v, ok := values[sub[2]]; ok {
					return v
				}
				return ref
			})
		}
		if len(n.Content) > 0 {
			c.Content = make([]*yaml.Node, len(n.Content))
			for i, e := range n.Content {
				c.Content[i] = cp(e)
			}
		}
		return &c
	}
	return cp(job)
}

// SameStep reports whether two versions of a step run the same tests
// the same way: the same shell, directory and env, and the same script,
// or scripts that are each one plain command (no list, pipe, redirect or
// assignment) differing only in flags that change neither which tests run
// nor how the run exits: go test's -v, -json, -count and -p (not
// -trimpath, which changes the file paths tests see),
// pytest's -v, -q, -r and --tb.
func SameStep(a, b Step) bool {
	if a.Dir != b.Dir || a.Shell != b.Shell || len(a.Env) != len(b.Env) {
		return false
	}
	for k, v := range a.Env {
		if w, ok := b.Env[k]; !ok || w != v {
			return false
		}
	}
	if a.Script == b.Script && a.Pipefail == b.Pipefail {
		return true
	}
	x, y := plainCommand(a.Script), plainCommand(b.Script)
	if x == nil || y == nil {
		return false
	}
	return slices.Equal(neutralFlagsOff(x), neutralFlagsOff(y))
}

// plainCommand returns the words of a script that is one simple command
// and nothing else, nil otherwise.
func plainCommand(src string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	st := f.Stmts[0]
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return nil
	}
	var out []string
	for _, w := range c.Args {
		lit := w.Lit()
		if lit == "" {
			if len(w.Parts) != 1 {
				return nil
			}
			q, ok := w.Parts[0].(*syntax.SglQuoted)
			if !ok {
				return nil
			}
			lit = q.Value
		}
		out = append(out, lit)
	}
	return out
}

// neutralFlagsOff drops, from a go test or pytest command, the flags that
// change only its output, its caching or its parallelism.
func neutralFlagsOff(args []string) []string {
	var drop func(a string) (bool, bool) // drop it, and the word after it
	switch {
	case len(args) > 1 && args[0] == "go" && args[1] == "test":
		drop = func(a string) (bool, bool) {
			switch a {
			case "-v", "-json", "-test.v":
				return true, false
			case "-count", "-p":
				return true, true
			}
			return strings.HasPrefix(a, "-count=") || strings.HasPrefix(a, "-p=") || strings.HasPrefix(a, "-v="), false
		}
	case len(args) > 0 && (args[0] == "pytest" || args[0] == "py.test") || len(args) > 2 && strings.HasPrefix(args[0], "python") && args[1] == "-m" && args[2] == "pytest":
		drop = func(a string) (bool, bool) {
			switch a {
			case "-v", "-vv", "-q", "-qq", "--verbose", "--quiet":
				return true, false
			}
			return strings.HasPrefix(a, "-r") || strings.HasPrefix(a, "--tb="), false
		}
	default:
		return args
	}
	var out []string
	for i := 0; i < len(args); i++ {
		d, next := drop(args[i])
		if !d {
			out = append(out, args[i])
		} else if next {
			i++
		}
	}
	return out
}

// NamedFiles are the files the run steps of a side's workflows name
// (see CIStep.Files), for reading them into CITestSteps' files: a step
// that runs ./build/test runs what that file runs.
func NamedFiles(files map[string][]byte) []string {
	seen := map[string]bool{}
	var out []string
	for p, data := range files {
		if !workflowLoaded(p) {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
			continue
		}
		jobs := mapGet(doc.Content[0], "jobs")
		if jobs == nil || jobs.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(jobs.Content); i += 2 {
			job := jobs.Content[i+1]
			dir := scalar(mapGet(mapGet(mapGet(job, "defaults"), "run"), "working-directory"))
			steps := mapGet(job, "steps")
			if steps == nil || steps.Kind != yaml.SequenceNode {
				continue
			}
			for _, st := range steps.Content {
				d := dir
				if sd := scalar(mapGet(st, "working-directory")); sd != "" {
					d = sd
				}
				for _, f := range namedFiles(cleanDir(d), withoutExpressions(scalar(mapGet(st, "run")))) {
					if !seen[f] {
						seen[f] = true
						out = append(out, f)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// namedFiles are the words of a script's commands that name files: a
// path with a slash or a script's extension, taken from dir.
func namedFiles(dir, src string) []string {
	seen := map[string]bool{}
	var out []string
	for _, args := range scriptCommands(src) {
		for _, a := range args {
			if strings.HasPrefix(a, "-") || strings.Contains(a, "=") || strings.Contains(a, "$") || strings.HasSuffix(a, "/...") {
				continue
			}
			switch path.Ext(a) {
			case ".sh", ".bash", ".py", ".mk", ".js", ".mjs", ".ts", ".pl", ".rb":
			default:
				if !strings.Contains(a, "/") {
					continue
				}
			}
			p := path.Clean(path.Join(dir, a))
			if strings.HasPrefix(p, "../") || path.IsAbs(a) || seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// outsiders are commands that need a daemon or the network: a step that
// runs one cannot be measured here.
var outsiders = map[string]string{
	"docker": "a Docker daemon", "docker-compose": "a Docker daemon", "podman": "a container engine", "kind": "a Kubernetes cluster",
	"kubectl": "a Kubernetes cluster", "helm": "a Kubernetes cluster", "ssh": "the network", "scp": "the network",
	"curl": "the network", "wget": "the network", "gcloud": "a cloud account", "aws": "a cloud account", "az": "a cloud account",
}

// needsOutside says why a script cannot run here when one of its commands
// needs a daemon or the network, "" otherwise.
func needsOutside(src string) string {
	for _, args := range scriptCommands(src) {
		if what, ok := outsiders[path.Base(args[0])]; ok {
			return "it runs " + path.Base(args[0]) + ", which needs " + what
		}
	}
	return ""
}

// plainEnv reads an env: mapping; why says why a step cannot run here
// when a value is a secret or an expression only the runner knows.
func plainEnv(n *yaml.Node) (env map[string]string, why string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, ""
	}
	env = map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		val := scalar(v)
		switch {
		case strings.Contains(val, "secrets."):
			if why == "" {
				why = "its env " + k + " is a secret"
			}
		case strings.Contains(val, "${{"):
			if why == "" {
				why = "its env " + k + " is an expression only the runner substitutes"
			}
		default:
			env[k] = val
		}
	}
	return env, why
}

func cleanDir(d string) string {
	d = strings.TrimSpace(d)
	if d == "" {
		return "."
	}
	return path.Clean(strings.TrimPrefix(d, "./"))
}
