package collectors

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// GoTest parses the event stream of `go test -json` (test2json), with or
// without gotestsum in front of it:
//
//	{"Action":"start","Package":"example.com/m/calc"}
//	{"Action":"run","Package":"example.com/m/calc","Test":"TestAdd"}
//	{"Action":"output","Package":"example.com/m/calc","Test":"TestAdd","Output":"    calc_test.go:9: got 3, want 4\n"}
//	{"Action":"fail","Package":"example.com/m/calc","Test":"TestAdd","Elapsed":0}
//	{"ImportPath":"example.com/m/broken [example.com/m/broken.test]","Action":"build-fail"}
//	{"Action":"fail","Package":"example.com/m/broken","FailedBuild":"example.com/m/broken [example.com/m/broken.test]"}
//
// Spec: `go doc cmd/test2json` and `go help buildjson`
// (https://pkg.go.dev/cmd/test2json).
//
// Test ids are "package.TestName/subtest", as gotestsum's JUnit writes them.
// A package that fails with no failed test to explain it (a build failure,
// a panic in TestMain or init, a timeout outside a test) is recorded as a
// failed test "package.TestMain", as gotestsum does, so a package that does
// not build counts as failed and never as "zero tests"; build failures are
// also listed in Result.BuildFailures with the compiler's output (from the
// build-output events of Go 1.24 and later, or from plain-text lines).
//
// Lines that are not JSON (go test prints early errors as text on stderr,
// which CI logs often mix in) are kept as build output, not rejected; a line
// that starts with '{' must be a valid event. A test that started and never
// finished inside a finished package (the binary crashed) is failed, with
// "test did not finish" in its message, unless it is a subtest of a passed
// test (golang/go#40771). A stream that ends before a started package
// finished is truncated and an error, as is a stream with no event at all.
// Unknown actions (attr, and future ones) are ignored.
type GoTest struct{}

// Format returns "gotest".
func (GoTest) Format() string { return FormatGoTest }

// testEvent holds the fields of test2json's TestEvent and the go command's
// BuildEvent that the parser uses.
type testEvent struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
	ImportPath  string
}

type goPackage struct {
	name    string
	done    bool
	failed  int // tests of the package that failed
	passed  map[string]bool
	running map[string]*messageBuf
	order   []string // running tests in start order, for stable results
	last    string   // the test that started last
	output  messageBuf
}

type goTestParser struct {
	name      string
	res       *Result
	pkgs      map[string]*goPackage
	pkgOrder  []string
	buildOut  map[string]*messageBuf
	buildFail map[string]bool
	claimed   map[string]bool
	stray     messageBuf
	events    int
	lastLine  int
	full      bool
}

// Parse reads a go test -json stream.
func (g GoTest) Parse(name string, r io.Reader) (*Result, error) {
	p := &goTestParser{
		name:      name,
		res:       &Result{Sources: []string{name}, Tests: &Tests{}},
		pkgs:      map[string]*goPackage{},
		buildOut:  map[string]*messageBuf{},
		buildFail: map[string]bool{},
		claimed:   map[string]bool{},
	}
	lr := newLineReader(r)
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, lineError(FormatGoTest, name, lr.line+1, err)
		}
		p.lastLine = lr.line
		trimmed := strings.TrimSpace(string(line))
		if !strings.HasPrefix(trimmed, "{") {
			if trimmed != "" {
				p.stray.write(trimmed + "\n")
			}
			continue
		}
		var ev testEvent
		if err := json.Unmarshal([]byte(trimmed), &ev); err != nil {
			if lr.unterminated {
				err = fmt.Errorf("truncated event: %w", err)
			}
			return nil, lineError(FormatGoTest, name, lr.line, fmt.Errorf("bad event: %w", err))
		}
		if ev.Action == "" {
			return nil, lineError(FormatGoTest, name, lr.line, errors.New("event without an Action"))
		}
		p.events++
		if err := p.event(&ev); err != nil {
			return nil, lineError(FormatGoTest, name, lr.line, err)
		}
	}
	if p.events == 0 {
		msg := "no test events"
		if s := p.stray.String(); s != "" {
			msg += "; output: " + firstLine(s)
		}
		return nil, lineError(FormatGoTest, name, 0, errors.New(msg))
	}
	for _, n := range p.pkgOrder {
		if pk := p.pkgs[n]; !pk.done {
			p.endedEarly(pk)
		}
	}
	p.unclaimedBuildFailures()
	if p.full {
		return nil, lineError(FormatGoTest, name, 0, errTooManyTests)
	}
	return p.res, nil
}

func (p *goTestParser) pkg(name string) *goPackage {
	pk := p.pkgs[name]
	if pk == nil {
		pk = &goPackage{name: name, running: map[string]*messageBuf{}, passed: map[string]bool{}}
		p.pkgs[name] = pk
		p.pkgOrder = append(p.pkgOrder, name)
	}
	return pk
}

func (p *goTestParser) event(ev *testEvent) error {
	switch ev.Action {
	case "build-output":
		b := p.buildOut[ev.ImportPath]
		if b == nil {
			b = &messageBuf{}
			p.buildOut[ev.ImportPath] = b
		}
		b.write(ev.Output)
		return nil
	case "build-fail":
		p.buildFail[ev.ImportPath] = true
		return nil
	}
	pk := p.pkg(ev.Package)
	if ev.Action == "start" && ev.Test == "" && pk.done {
		// Another run of the package: several streams concatenated.
		*pk = goPackage{name: pk.name, running: map[string]*messageBuf{}, passed: map[string]bool{}}
		return nil
	}
	if pk.done && ev.Action != "output" {
		return fmt.Errorf("%s event after package %s finished", ev.Action, ev.Package)
	}
	if ev.Test == "" {
		return p.packageEvent(pk, ev)
	}
	switch ev.Action {
	case "run":
		pk.last = ev.Test
		if _, ok := pk.running[ev.Test]; !ok {
			pk.running[ev.Test] = &messageBuf{}
			pk.order = append(pk.order, ev.Test)
		}
	case "output":
		if b := pk.running[ev.Test]; b != nil && !isFraming(ev.Output) {
			b.write(ev.Output)
		}
	case "pass", "bench":
		p.finish(pk, ev.Test, Passed)
	case "fail":
		p.finish(pk, ev.Test, Failed)
	case "skip":
		p.finish(pk, ev.Test, Skipped)
	}
	return nil
}

func (p *goTestParser) packageEvent(pk *goPackage, ev *testEvent) error {
	switch ev.Action {
	case "output":
		pk.output.write(ev.Output)
	case "pass", "skip":
		p.endPackage(pk)
	case "fail":
		p.endPackage(pk)
		if ev.FailedBuild != "" {
			p.claimed[ev.FailedBuild] = true
			out := pk.output.String()
			if b := p.buildOut[ev.FailedBuild]; b != nil {
				out = b.String()
			} else if s := p.stray.String(); s != "" {
				out = s
			}
			p.res.BuildFailures = append(p.res.BuildFailures, BuildFailure{
				Package: pk.name, ImportPath: ev.FailedBuild, Output: out,
			})
			p.testMain(pk.name, "build failed: "+ev.FailedBuild+"\n"+out)
		} else if pk.failed == 0 {
			p.testMain(pk.name, pk.output.String())
		}
	}
	return nil
}

// endedEarly closes a package whose stream ends without its result: the
// test binary exited in the middle (syscall.Exit, os.Exit from a goroutine,
// a signal), and `go test` may still have printed "ok" for it, so the tests
// after the last one seen never ran. The tests still running fail (they
// did not finish), and the package's evidence is recorded as not adding
// up, naming the last test seen: a measurement, not unreadable input.
func (p *goTestParser) endedEarly(pk *goPackage) {
	last := pk.last
	p.endPackage(pk)
	problem := "its test binary exited early: the report ends with no result for the package"
	if last != "" {
		problem += ", and the last test seen was " + last
	}
	p.res.Integrity = append(p.res.Integrity, IntegrityProblem{Package: pk.name, Problem: problem})
}

// endPackage fails the tests that never finished: the binary crashed or
// timed out while they ran.
func (p *goTestParser) endPackage(pk *goPackage) {
	pk.done = true
	for _, t := range pk.order {
		b, ok := pk.running[t]
		if !ok {
			continue
		}
		if root, _, sub := strings.Cut(t, "/"); sub && pk.passed[root] {
			continue // golang/go#40771: the subtest's end event went missing
		}
		msg := "test did not finish (the test binary crashed, timed out or the report is truncated)"
		if s := b.String(); s != "" {
			msg += "\n" + s
		}
		p.add(pk, t, Failed, msg)
	}
	pk.running, pk.order = nil, nil
}

func (p *goTestParser) finish(pk *goPackage, test string, o Outcome) {
	msg := ""
	if b := pk.running[test]; b != nil && o != Passed {
		msg = b.String()
	}
	delete(pk.running, test)
	if o == Passed {
		pk.passed[test] = true
	}
	p.add(pk, test, o, msg)
}

func (p *goTestParser) add(pk *goPackage, test string, o Outcome, msg string) {
	if o == Failed {
		pk.failed++
	}
	p.record(pk.name, test, o, msg)
}

// record adds a test result; the set can only be full beyond 4 GiB of names.
func (p *goTestParser) record(pkg, test string, o Outcome, msg string) {
	sep := sepDot
	if pkg == "" {
		sep = sepNone
	}
	if !p.res.Tests.add(pkg, sep, test, Test{Outcome: o, Message: msg}) {
		p.full = true
	}
}

func (p *goTestParser) testMain(pkg, msg string) {
	p.record(pkg, "TestMain", Failed, strings.TrimSpace(msg))
}

// unclaimedBuildFailures records build-fail events that no package's fail
// event referred to, so that no build failure goes unreported.
func (p *goTestParser) unclaimedBuildFailures() {
	var paths []string
	for ip := range p.buildFail {
		if !p.claimed[ip] {
			paths = append(paths, ip)
		}
	}
	sort.Strings(paths)
	for _, ip := range paths {
		out := ""
		if b := p.buildOut[ip]; b != nil {
			out = b.String()
		}
		pkg, _, _ := strings.Cut(ip, " ")
		p.res.BuildFailures = append(p.res.BuildFailures, BuildFailure{Package: pkg, ImportPath: ip, Output: out})
		p.testMain(pkg, "build failed: "+ip+"\n"+out)
	}
}

// isFraming reports test2json's own framing lines, which say nothing about a
// failure: "=== RUN", "--- FAIL: TestX (0.00s)" and the like.
func isFraming(out string) bool {
	s := strings.TrimLeft(out, " \t")
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS:", "--- FAIL:", "--- SKIP:"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
