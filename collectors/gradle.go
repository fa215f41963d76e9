package collectors

import (
	"errors"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"io"
	"sort"
	"strings"
)

// Gradle parses what `gradle test --continue --console=plain` prints (stdout
// and stderr together), for what the JUnit XML reports Gradle writes
// (build/test-results/test/TEST-*.xml of each project, the junit format)
// cannot say: a project whose build failed.
//
//	:core:compileTestJava FAILED
//	FAILURE: Build failed with an exception.
//	* What went wrong:
//	Execution failed for task ':core:compileTestJava'.
//	> Compilation failed; see the compiler error output for details.
//	BUILD FAILED in 8s
//
// Spec: Gradle's console output in plain mode (BuildExceptionReporter); there
// is no machine-readable form of it.
//
// Each "What went wrong" of a task or a configuration of a project (a
// compilation failure, a dependency that cannot be resolved) is a build
// failure of that project ("core", or "root project") and a failed test
// "PROJECT > (build)", so that a project that does not build never reads as
// zero tests. A test task's own failure ("There were failing tests") is not:
// the reports hold those tests; one that failed outside its tests (its
// worker process exited with a status) is an integrity problem of the
// project. A failure outside any project (a build
// script that does not evaluate) is a build failure of the root project.
//
// Gradle says nothing when a test calls System.exit(0): the test task ends,
// the build succeeds and the classes from the exiting one on have no report.
// Run with the test events logged (testLogging events started, passed,
// skipped, failed: the collector's init script asks for them), a test that
// STARTED and never reported a result is an integrity problem naming its
// class; without the events, those classes show in the comparison as
// BASE's test classes with no result at HEAD.
//
// Output with neither a task nor a build outcome in it is an error.
type Gradle struct{}

// Format returns "gradle".
func (Gradle) Format() string { return FormatGradle }

var (
	gradleTask    = lazyre.New(`^:\S+`)
	gradleOutcome = lazyre.New(`^BUILD (SUCCESSFUL|FAILED)\b`)
	gradleTaskErr = lazyre.New(`^Execution failed for task '((?::[^:']+)*):([^:']+)'\.?$`)
	gradleConfErr = lazyre.New(`^Could not resolve all (?:files|dependencies|artifacts) for configuration '((?::[^:']+)*):([^:']+)'\.?$`)
	gradleProject = lazyre.New(`(?:root )?project '([^']*)'`)
	gradleEvent   = lazyre.New(`^(\S+) > (.+) (STARTED|PASSED|FAILED|SKIPPED)$`)
)

// gradleRoot names the root project, whose tasks' paths have no project part.
const gradleRoot = "root project"

// Parse reads gradle's output.
func (Gradle) Parse(name string, r io.Reader) (*Result, error) {
	res := &Result{Sources: []string{name}, Tests: &Tests{}}
	lr := newLineReader(r)
	var (
		seen     bool   // a task or an outcome was read
		wrong    bool   // the next non-empty line is a "What went wrong" headline
		project  string // the project whose failure's lines are being read
		testTask string // the project whose test task's failure is being read
		order    []string
		failures = map[string]*messageBuf{}
		running  = map[string]string{} // "class > test" that STARTED -> class
	)
	for {
		raw, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, lineError(FormatGradle, name, lr.line+1, err)
		}
		line := ansiEscape.ReplaceAllString(strings.TrimRight(string(raw), "\r"), "")
		text := strings.TrimSpace(line)
		if gradleTask.MatchString(text) || gradleOutcome.MatchString(text) {
			seen = true
		}
		if m := gradleEvent.FindStringSubmatch(text); m != nil && !wrong && project == "" {
			key := m[1] + " > " + m[2]
			if m[3] == "STARTED" {
				running[key] = m[1]
			} else {
				delete(running, key)
			}
			continue
		}
		switch {
		case text == "* What went wrong:":
			wrong, project, testTask = true, "", ""
			continue
		case strings.HasPrefix(text, "* ") || gradleOutcome.MatchString(text):
			project, testTask = "", ""
			continue
		case wrong && text == "":
			continue
		case wrong:
			wrong = false
			project = gradleRoot
			if m := gradleTaskErr.FindStringSubmatch(text); m != nil {
				if m[1] != "" {
					project = strings.TrimPrefix(m[1], ":")
				}
				if isTestTask(m[2]) {
					testTask, project = project, ""
					continue
				}
			} else if m := gradleConfErr.FindStringSubmatch(text); m != nil {
				if m[1] != "" {
					project = strings.TrimPrefix(m[1], ":")
				}
			} else if m := gradleProject.FindStringSubmatch(text); m != nil && !strings.HasPrefix(text, "A problem occurred evaluating root") {
				project = m[1]
			}
			if failures[project] == nil {
				failures[project] = &messageBuf{}
				order = append(order, project)
			}
			failures[project].write(text + "\n")
			continue
		}
		if testTask != "" {
			// A test task fails with its tests (read from the reports) or
			// outside them: its worker died (System.exit with a status
			// other than 0, a crash).
			if msg, ok := strings.CutPrefix(text, "> "); ok && !strings.HasPrefix(msg, "There were failing tests") {
				res.Integrity = append(res.Integrity, IntegrityProblem{Package: testTask,
					Problem: "its test task failed outside any test (" + strings.TrimSuffix(msg, ".") + "): the tests after the failure point have no report"})
			}
			testTask = ""
			continue
		}
		if project != "" && text != "" {
			failures[project].write(text + "\n")
		}
	}
	if !seen {
		return nil, lineError(FormatGradle, name, 0, errors.New("no Gradle task ran and no build outcome was printed (is this `gradle test --console=plain` output?)"))
	}
	cut := make([]string, 0, len(running))
	for key := range running {
		cut = append(cut, key)
	}
	sort.Strings(cut)
	for _, key := range cut {
		res.Integrity = append(res.Integrity, IntegrityProblem{Package: running[key], Tests: []string{key},
			Problem: "its test " + key + " STARTED and never reported a result: the test worker stopped (System.exit in a test, or a crash), and the tests after it have no report"})
	}
	for _, p := range order {
		msg := strings.TrimSpace(failures[p].String())
		res.BuildFailures = append(res.BuildFailures, BuildFailure{Package: p, ImportPath: p, Output: msg})
		if !res.Tests.add(p, sepArrow, "(build)", Test{Outcome: Failed, Message: strings.TrimSpace("does not build\n" + msg)}) {
			return nil, lineError(FormatGradle, name, 0, errors.New("too many test names"))
		}
	}
	return res, nil
}

// isTestTask reports whether a Gradle task runs tests (test, integrationTest,
// a Test task of another name): its failure is failing tests.
func isTestTask(task string) bool {
	return task == "test" || strings.HasSuffix(task, "Test") && !strings.HasPrefix(task, "compile") && !strings.HasPrefix(task, "process")
}
