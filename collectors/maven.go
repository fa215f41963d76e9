package collectors

import (
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"io"
	"sort"
	"strings"
)

// Maven parses what `mvn test` prints (stdout and stderr together, batch
// mode), for what the Surefire XML reports cannot say: a module that did
// not build, and a forked test JVM that died. The per-test results come
// from Surefire's reports (the junit format, target/surefire-reports/
// TEST-*.xml of each module); this format is read beside them:
//
//	[INFO] ------------------------------< ex:calc >-------------------------------
//	[INFO] --- maven-surefire-plugin:2.22.3:test (default-test) @ calc ---
//	[INFO] Running ex.ExitTest
//	[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.03 s - in ex.CalcTest
//	The forked VM terminated without properly saying goodbye. VM crash or System.exit called?
//	Crashed tests:
//	ex.ExitTest
//	[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:testCompile (default-testCompile) on project core: Compilation failure
//	[INFO] api ................................................ SKIPPED
//
// Spec: Maven's console output (maven-core's ExecutionEventLogger and
// DefaultExceptionHandler) and Surefire's console reporter; there is no
// machine-readable form of either.
//
//   - A goal that failed on a module ("Failed to execute goal ... on project
//     M: ...", a compilation failure, a dependency that cannot be resolved,
//     an enforcer rule) is a build failure of M and a failed test
//     "M > (build)", so that a module that does not build never reads as zero
//     tests. Surefire's own goal failing ("There are test failures") is not:
//     the reports hold those tests.
//   - A test class whose forked JVM terminated before the class finished
//     ("Crashed tests:", or a "Running C" with no "Tests run: ... - in C"
//     after it when a fork died) is an integrity problem naming the class:
//     System.exit in a test, which with testFailureIgnore leaves the build
//     successful and the class with no report.
//   - A module the reactor skipped (a module it depends on failed) is an
//     integrity problem naming the module: its tests did not run.
//   - Output that ends before Maven's "BUILD SUCCESS" or "BUILD FAILURE" is
//     an integrity problem naming the class that was running: Maven itself
//     stopped, as it does, with status 0, when a test run inside its JVM
//     (forkCount 0) calls System.exit.
//
// Output with no Maven project in it is an error.
type Maven struct{}

// Format returns "maven".
func (Maven) Format() string { return FormatMaven }

var (
	mavenLevel    = lazyre.New(`^\[(?:INFO|ERROR|WARNING|WARN|DEBUG)\] ?`)
	mavenModule   = lazyre.New(`^-+< ([^:\s]+):([^\s>]+) >-+$`)
	mavenSurefire = lazyre.New(`^--- maven-(?:surefire|failsafe)-plugin:\S+:\S+ \(\S+\) @ (\S+) ---$`)
	mavenRunning  = lazyre.New(`^Running (\S+)$`)
	mavenClassEnd = lazyre.New(`^Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+, Time elapsed: .* (?:- )?in (\S+)$`)
	mavenGoal     = lazyre.New(`^Failed to execute goal (?:(\S+) (?:\(\S+\) )?)?on project ([^\s:]+): (.*)$`)
	mavenSummary  = lazyre.New(`^(\S.*?) \.+ ?(SUCCESS|FAILURE|SKIPPED)(?: \[.*\])?$`)
	mavenForkDied = lazyre.New(`The forked VM terminated without properly saying goodbye|There was an error in the forked process|ExecutionException|SurefireBooterForkException`)
)

type mavenParser struct {
	res      *Result
	module   string            // the artifactId being built
	modules  int               // modules seen
	started  map[string]string // a test class that started -> its module
	finished map[string]bool
	crashed  map[string]string // a class named as crashed -> its module
	forkDied bool
	outcome  bool   // "BUILD SUCCESS" or "BUILD FAILURE" was read
	running  string // the test class that started last
	inCrash  bool   // reading the class names after "Crashed tests:"
	building string // the module whose build failure's lines are being read
	failures map[string]*messageBuf
	order    []string
	full     bool
}

// Parse reads mvn's output.
func (Maven) Parse(name string, r io.Reader) (*Result, error) {
	p := &mavenParser{
		res:     &Result{Sources: []string{name}, Tests: &Tests{}},
		started: map[string]string{}, finished: map[string]bool{}, crashed: map[string]string{},
		failures: map[string]*messageBuf{},
	}
	lr := newLineReader(r)
	for {
		raw, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, lineError(FormatMaven, name, lr.line+1, err)
		}
		p.line(string(raw))
	}
	if p.modules == 0 {
		return nil, lineError(FormatMaven, name, 0, errors.New("no Maven project was built (is this `mvn test` output?)"))
	}
	p.finish()
	if p.full {
		return nil, lineError(FormatMaven, name, 0, errors.New("too many test names"))
	}
	return p.res, nil
}

func (p *mavenParser) line(raw string) {
	line := ansiEscape.ReplaceAllString(strings.TrimRight(raw, "\r"), "")
	leveled := mavenLevel.MatchString(line)
	text := strings.TrimSpace(mavenLevel.ReplaceAllString(line, ""))
	if p.inCrash {
		// "Crashed tests:" lists one class a line, up to a line that is
		// not a class name.
		if !leveled && isJavaName(text) {
			p.crashed[text] = p.module
			return
		}
		p.inCrash = false
	}
	if p.building != "" {
		// A build failure's message goes on over the [ERROR] lines after it
		// up to Maven's advice ("-> [Help 1]", an empty line).
		if text == "" || strings.HasPrefix(text, "->") || strings.HasPrefix(text, "To see the full stack trace") {
			p.building = ""
		} else {
			p.failures[p.building].write(text + "\n")
			if strings.HasSuffix(text, "-> [Help 1]") {
				p.building = ""
			}
			return
		}
	}
	switch {
	case text == "Crashed tests:":
		p.inCrash, p.forkDied = true, true
	case mavenForkDied.MatchString(text):
		p.forkDied = true
	}
	if !leveled {
		return
	}
	if m := mavenModule.FindStringSubmatch(text); m != nil {
		p.module = m[2]
		p.modules++
		return
	}
	if m := mavenSurefire.FindStringSubmatch(text); m != nil {
		p.module = m[1]
		return
	}
	if m := mavenRunning.FindStringSubmatch(text); m != nil {
		p.started[m[1]] = p.module
		p.running = m[1]
		return
	}
	if text == "BUILD SUCCESS" || text == "BUILD FAILURE" {
		p.outcome = true
		return
	}
	if m := mavenClassEnd.FindStringSubmatch(text); m != nil {
		p.finished[m[1]] = true
		return
	}
	if m := mavenGoal.FindStringSubmatch(text); m != nil {
		goal, module, msg := m[1], m[2], strings.TrimSpace(strings.TrimSuffix(m[3], "-> [Help 1]"))
		if strings.Contains(goal, "maven-surefire-plugin") || strings.Contains(goal, "maven-failsafe-plugin") {
			return // test failures, or a fork that died: read from the reports and the crash
		}
		b := p.failures[module]
		if b == nil {
			b = &messageBuf{}
			p.failures[module] = b
			p.order = append(p.order, module)
		}
		b.write(msg + "\n")
		if !strings.HasSuffix(m[3], "-> [Help 1]") {
			p.building = module
		}
		return
	}
	if m := mavenSummary.FindStringSubmatch(text); m != nil && m[2] == "SKIPPED" {
		p.res.Integrity = append(p.res.Integrity, IntegrityProblem{Package: m[1], Problem: "the reactor skipped this module (a module it depends on failed): its tests did not run"})
	}
}

// finish records the build failures and the classes whose JVM died.
func (p *mavenParser) finish() {
	if !p.outcome {
		// Maven itself stopped: a test run inside its JVM (forkCount 0)
		// called System.exit, or it crashed or was killed.
		unit, problem := p.module, "mvn's output ends before the build's outcome (BUILD SUCCESS or BUILD FAILURE): Maven itself stopped"
		if c := p.running; c != "" && !p.finished[c] {
			unit = c
			problem += " while this class ran (System.exit in a test run inside Maven's JVM, forkCount 0, or a crash), so it has no report"
		}
		p.res.Integrity = append(p.res.Integrity, IntegrityProblem{Package: unit, Problem: problem + ": what it did not report was not measured"})
	}
	for _, module := range p.order {
		msg := strings.TrimSpace(p.failures[module].String())
		if first, rest, ok := strings.Cut(msg, "\n"); ok && strings.HasPrefix(first, "Compilation failure") {
			// The first compiler error says more than the goal's verdict.
			msg = strings.TrimSuffix(first, ":") + ": " + rest
		}
		p.res.BuildFailures = append(p.res.BuildFailures, BuildFailure{Package: module, ImportPath: module, Output: msg})
		if !p.res.Tests.add(module, sepArrow, "(build)", Test{Outcome: Failed, Message: strings.TrimSpace("does not build\n" + msg)}) {
			p.full = true
		}
	}
	if !p.forkDied {
		return
	}
	for class, module := range p.started {
		if !p.finished[class] {
			if _, ok := p.crashed[class]; !ok {
				p.crashed[class] = module
			}
		}
	}
	classes := make([]string, 0, len(p.crashed))
	for c := range p.crashed {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		where := ""
		if m := p.crashed[c]; m != "" {
			where = " of module " + m
		}
		p.res.Integrity = append(p.res.Integrity, IntegrityProblem{Package: c, Problem: fmt.Sprintf(
			"the forked test JVM%s terminated while this class ran (System.exit in a test, or a crash), so it has no report: its tests were not measured", where)})
	}
}

// isJavaName reports whether s looks like a (qualified) Java class name.
func isJavaName(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			ok := r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9'
			if !ok {
				return false
			}
		}
	}
	return true
}
