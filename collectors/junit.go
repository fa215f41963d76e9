package collectors

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// JUnit parses JUnit XML as jest-junit, vitest, pytest --junitxml (xunit1
// and xunit2), maven surefire and gotestsum write it:
//
//	<testsuites tests="3" failures="1">
//	  <testsuite name="calc" tests="3" failures="1" skipped="1">
//	    <properties><property name="go.version" value="go1.26"/></properties>
//	    <testcase classname="example.com/m/calc" name="TestAdd" time="0.01"/>
//	    <testcase classname="example.com/m/calc" name="TestSub" file="calc_test.go">
//	      <failure message="Failed" type="">calc_test.go:9: got 3, want 4</failure>
//	    </testcase>
//	    <testcase classname="example.com/m/calc" name="TestMul"><skipped message="todo"/></testcase>
//	  </testsuite>
//	</testsuites>
//
// There is no single spec; the de facto schema is Ant's, documented with the
// producers' variations at https://github.com/testmoapp/junitxml.
//
// The root is <testsuites> or a bare <testsuite>; suites may nest, and
// node:test writes test cases directly under <testsuites>. A test
// case's outcome is, by precedence, error (<error>), failed (<failure>),
// skipped (<skipped>), else passed; surefire's <flakyFailure> and
// <flakyError> (failed, then passed on a rerun) mark the test Flaky and
// passed. The id is "classname.name", just "name" when the producer writes
// the same string in both (jest-junit's default), and "suite > name" for a
// case without a classname. Totals are what the test cases say, since
// producers disagree about the suites' tests/failures/skipped attributes
// (skipped counted or not); the test cases are the measurement. One
// cross-check holds for every producer: no suite declares more tests than it
// lists (nested suites included), so one that does lost test cases and is
// recorded in Result.Integrity. Unknown elements are skipped, so extensions
// (attachments, properties in test cases) do not break parsing.
type JUnit struct{}

// Format returns "junit".
func (JUnit) Format() string { return FormatJUnit }

// Parse reads one JUnit XML document.
func (JUnit) Parse(name string, r io.Reader) (*Result, error) {
	s := newXMLStream(FormatJUnit, name, r)
	root, err := s.root("testsuites", "testsuite")
	if err != nil {
		return nil, err
	}
	p := junitParser{s: s, res: &Result{Sources: []string{name}, Tests: &Tests{}}}
	if root.Name.Local == "testsuites" {
		err = p.suites()
	} else {
		err = p.suite(root)
	}
	if err != nil {
		return nil, err
	}
	if err := s.end(); err != nil {
		return nil, err
	}
	if p.full {
		return nil, lineError(FormatJUnit, name, 0, errTooManyTests)
	}
	return p.res, nil
}

type junitParser struct {
	s     *xmlStream
	res   *Result
	full  bool
	cases int // test cases read so far
}

// suites reads the children of <testsuites>.
func (p *junitParser) suites() error {
	for {
		tok, err := p.s.next()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuite":
				err = p.suite(t)
			case "testcase": // node:test's reporter writes cases at the top level
				err = p.testCase(t, "", "")
			default:
				err = p.s.skip()
			}
			if err != nil {
				return err
			}
		}
	}
}

// suite reads the children of a <testsuite> whose start was just read.
func (p *junitParser) suite(se xml.StartElement) error {
	name, _ := attr(se, "name")
	file, _ := attr(se, "file")
	first := p.cases
	for {
		tok, err := p.s.next()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			p.checkCount(se, name, p.cases-first)
			return nil
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuite":
				err = p.suite(t)
			case "testcase":
				err = p.testCase(t, name, file)
			default:
				err = p.s.skip()
			}
			if err != nil {
				return err
			}
		}
	}
}

// checkCount cross-checks a suite's tests attribute with the test cases it
// holds (nested suites included). Producers count differently in one
// direction only (some leave skipped or errored cases out of tests=, none
// declares a case it does not write), so a suite that declares more tests
// than it lists lost test cases: a truncated or edited report.
func (p *junitParser) checkCount(se xml.StartElement, name string, listed int) {
	v, ok := attr(se, "tests")
	if !ok {
		return
	}
	declared, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || declared <= listed {
		return
	}
	if name == "" {
		name = p.s.name
	}
	p.res.Integrity = append(p.res.Integrity, IntegrityProblem{
		Package: name,
		Problem: fmt.Sprintf("its JUnit report declares %d tests and lists %d: test cases are missing from the report", declared, listed),
	})
}

// testCase reads a <testcase> whose start was just read.
func (p *junitParser) testCase(se xml.StartElement, suite, suiteFile string) error {
	p.cases++
	name, ok := attr(se, "name")
	if !ok {
		return p.s.errorf("<testcase> without a name attribute")
	}
	class, _ := attr(se, "classname")
	file, ok := attr(se, "file")
	if !ok {
		file = suiteFile
	}
	if file == "" && isSourcePath(class) {
		file = class // vitest's classname is the test file's path
	}
	t := Test{Outcome: Passed, File: file}
	var id testID
	switch {
	case class == "" && suite == "":
		id = testID{"", sepNone, name}
	case class == "":
		id = testID{suite, sepArrow, name}
	case class == name:
		id = testID{"", sepNone, name}
	default:
		id = testID{class, sepDot, name}
	}
	for {
		tok, err := p.s.next()
		if err != nil {
			return err
		}
		switch c := tok.(type) {
		case xml.EndElement:
			if !p.res.Tests.add(id.suite, id.sep, id.name, t) {
				p.full = true
			}
			return nil
		case xml.StartElement:
			var o Outcome
			switch c.Name.Local {
			case "error":
				o = Errored
			case "failure":
				o = Failed
			case "skipped":
				o = Skipped
			case "flakyFailure", "flakyError":
				t.Flaky = true
			}
			if o == 0 || o.rank() <= t.Outcome.rank() && t.Outcome != Passed {
				if err := p.s.skip(); err != nil {
					return err
				}
				continue
			}
			msg, _ := attr(c, "message")
			body, err := p.s.text()
			if err != nil {
				return err
			}
			if body != "" && !strings.Contains(body, msg) {
				msg = strings.TrimSpace(msg + "\n" + body)
			} else if body != "" {
				msg = body
			}
			t.Outcome, t.Message = o, truncate(msg, MaxMessageBytes)
		}
	}
}

// testID is a test id in parts: suite, separator, name.
type testID struct {
	suite string
	sep   uint8
	name  string
}

// isSourcePath reports whether a classname is a path to a source file, as
// vitest writes it ("src/calc.test.js"), rather than a class or a describe
// title.
func isSourcePath(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t>") {
		return false
	}
	switch path.Ext(s) {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte", ".py":
		return true
	}
	return false
}
