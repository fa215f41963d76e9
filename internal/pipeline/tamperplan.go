package pipeline

import (
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/runner"
)

// TamperFiles is collect.TamperFiles: the tamper check replaces it with the
// edited test files, so the rerun covers only them.
const TamperFiles = collect.TamperFiles

// runnerOf is the test runner a collector drives (runner.Of).
func runnerOf(s config.Collector) runner.Runner { return runner.Of(s.Runner, s.Argv) }

// tamperPlan is what the tamper check runs: the setup steps and the test
// collectors of the edited files' languages, narrowed to those files.
type tamperPlan struct {
	specs     []config.Collector
	files     []string // edited files a collector runs
	uncovered []string // edited files no collector runs
	looked    []string // the test collectors there were, for the message
}

func (p *tamperPlan) names() []string {
	var out []string
	for _, s := range p.specs {
		out = append(out, s.Name)
	}
	return out
}

func (p *tamperPlan) why(file string) string {
	if len(p.looked) == 0 {
		return "no collector runs tests (none detected from BASE's tree, none in " + config.FileName + ")"
	}
	return "none of the test collectors (" + strings.Join(p.looked, ", ") + ") runs " + path.Ext(file) + " files; a custom collector with tests: true and " + TamperFiles + " in its command can"
}

// planTamper picks and narrows the collectors for the edited test files.
// Setup steps (collectors without reports, like npm install) are kept in
// order: a test runner needs them. Other collectors that measure but run no
// tests (linters, coverage conversion) are dropped.
//
// support maps the Go test support files among files to the directories of
// the packages whose tests use them: go test runs those packages whole.
func planTamper(specs []config.Collector, files []string, overlay map[string][]byte, support map[string][]string) *tamperPlan {
	p := &tamperPlan{}
	covered := map[string]bool{}
	for _, s := range specs {
		if !s.Tests {
			if len(s.Reports) == 0 {
				p.specs = append(p.specs, s)
			}
			continue
		}
		p.looked = append(p.looked, s.Name)
		r := runnerOf(s)
		var mine []string
		for _, f := range files {
			if r.Collects(f) || r == runner.Go && support[f] != nil {
				mine = append(mine, f)
			}
		}
		if len(mine) == 0 {
			continue
		}
		for _, f := range mine {
			covered[f] = true
		}
		p.specs = append(p.specs, narrow(s, r, mine, overlay, support))
	}
	for _, f := range files {
		if covered[f] {
			p.files = append(p.files, f)
		} else {
			p.uncovered = append(p.uncovered, f)
		}
	}
	if len(p.files) == 0 {
		p.specs = nil
	}
	return p
}

// narrow rewrites a test collector to run only the edited files' tests and to
// skip coverage, which the tamper check does not read.
func narrow(s config.Collector, r runner.Runner, files []string, overlay map[string][]byte, support map[string][]string) config.Collector {
	out := s
	out.Argv = nil
	out.Env = s.Env
	var reports []config.ReportSpec
	for _, rep := range s.Reports {
		if rep.Format == "gotest" || rep.Format == "junit" {
			reports = append(reports, rep)
		}
	}
	out.Reports = reports
	if r != runner.Go {
		// Test support runs what uses it (a setup file: the whole suite).
		var targets []string
		for _, f := range files {
			if t, ok := support[f]; ok {
				targets = append(targets, t...)
			} else {
				targets = append(targets, f)
			}
		}
		files = slices.Compact(targets)
	}
	if strings.Contains(strings.Join(s.Argv, "\x00"), TamperFiles) {
		quoted := make([]string, len(files))
		for i, f := range files {
			quoted[i] = shellQuote(f)
		}
		for _, a := range s.Argv {
			switch {
			case a == TamperFiles && !s.Shell:
				out.Argv = append(out.Argv, files...)
			case s.Shell:
				out.Argv = append(out.Argv, strings.ReplaceAll(a, TamperFiles, strings.Join(quoted, " ")))
			default:
				out.Argv = append(out.Argv, strings.ReplaceAll(a, TamperFiles, strings.Join(files, " ")))
			}
		}
		return out
	}
	if r == runner.Maven {
		return narrowMaven(s, files)
	}
	if r == runner.Gradle {
		return narrowGradle(s, files)
	}
	if s.Shell || r == runner.None {
		out.Argv = s.Argv
		out.Reports = s.Reports
		return out
	}
	switch r {
	case runner.Go:
		dirs := map[string]bool{}
		var names []string
		all := true
		for _, f := range files {
			if users, ok := support[f]; ok {
				for _, d := range users {
					dirs[goDirArg(d)] = true
				}
				all = false // every test of its users may use it
				continue
			}
			dirs["./"+path.Dir(f)] = true
			n := goTestNames(f, overlay[f])
			all = all && n != nil
			names = append(names, n...)
		}
		for _, a := range s.Argv {
			switch {
			case strings.HasPrefix(a, "-coverprofile") || strings.HasPrefix(a, "-cover") || strings.HasPrefix(a, "-run"):
				continue
			case a == "./..." || strings.HasSuffix(a, "/..."):
				continue
			}
			out.Argv = append(out.Argv, a)
		}
		if all && len(names) > 0 {
			sort.Strings(names)
			out.Argv = append(out.Argv, "-run", "^("+strings.Join(names, "|")+")$")
		}
		var ds []string
		for d := range dirs {
			ds = append(ds, d)
		}
		sort.Strings(ds)
		out.Argv = append(out.Argv, ds...)
	case runner.Pytest, runner.Vitest, runner.Jest:
		for _, a := range s.Argv {
			if strings.HasPrefix(a, "--cov") || strings.HasPrefix(a, "--coverage") {
				continue
			}
			out.Argv = append(out.Argv, a)
		}
		out.Argv = append(out.Argv, runTargets(files)...)
	}
	return out
}

// runTargets are the paths pytest, vitest or jest run for the edited files:
// a test module itself, and for a file of test support beside the tests
// (tests/helpers.py, conftest.py, test/setup.ts) its directory, whose tests
// are the ones that use it. Each path once, in order.
func runTargets(files []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		base := path.Base(f)
		module := strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") ||
			strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
		if !module {
			f = path.Dir(f)
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// goTestNames lists the top-level Test, Fuzz and Example functions of a Go
// test file, for go test's -run; nil when it does not parse (then the whole
// package runs).
func goTestNames(name string, src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil {
			continue
		}
		n := fn.Name.Name
		for _, prefix := range []string{"Test", "Fuzz", "Example"} {
			if strings.HasPrefix(n, prefix) && n != "TestMain" && goIdent.MatchString(n) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

var goIdent = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// jvmClasses are the simple class names of edited JVM test sources, sorted
// and each once; nil when a file is no JVM source (a test resource), which
// leaves the run whole.
func jvmClasses(files []string) []string {
	var classes []string
	for _, f := range files {
		c := runner.JVMClass(f)
		if c == "" {
			return nil
		}
		classes = append(classes, c)
	}
	sort.Strings(classes)
	return slices.Compact(classes)
}

// withEnv is a collector with one more environment variable (its own Env
// copied, never shared).
func withEnv(s config.Collector, k, v string) config.Collector {
	env := make(map[string]string, len(s.Env)+1)
	for name, val := range s.Env {
		env[name] = val
	}
	env[k] = v
	s.Env = env
	return s
}

// narrowGradle runs only the edited test classes through the gradle test
// collector's init script (collect.GradleTestsEnv); a configured Gradle
// command without that script runs whole, as it would anyway.
func narrowGradle(s config.Collector, files []string) config.Collector {
	classes := jvmClasses(files)
	if classes == nil {
		return s
	}
	return withEnv(s, collect.GradleTestsEnv, strings.Join(classes, ","))
}

// narrowMaven runs only the edited test classes through Surefire's test
// property, given in MAVEN_OPTS so that any command that runs mvn takes it
// (the caller's MAVEN_OPTS kept before it); a module with none of them
// passes (failIfNoTests, and its 3.x spelling). Files that are not JVM test
// sources (a resource) leave the run whole.
func narrowMaven(s config.Collector, files []string) config.Collector {
	classes := jvmClasses(files)
	if classes == nil {
		return s
	}
	opts := strings.TrimSpace(s.Env["MAVEN_OPTS"])
	if opts == "" {
		opts = strings.TrimSpace(os.Getenv("MAVEN_OPTS"))
	}
	return withEnv(s, "MAVEN_OPTS", strings.TrimSpace(opts+" -Dtest="+strings.Join(classes, ",")+" -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false"))
}
