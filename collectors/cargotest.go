package collectors

import (
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"io"
	"path"
	"strconv"
	"strings"
)

// CargoTest parses what `cargo test` prints: libtest's human output for each
// test binary, with cargo's own lines from stderr merged in (run it as
// `cargo test 2>&1`), which name the binary each block comes from:
//
//	     Running unittests src/lib.rs (target/debug/deps/calc-c6626fb655a8d231)
//	running 3 tests
//	test tests::adds ... ok
//	test tests::fetches ... ignored, needs the network
//	test tests::subtracts ... FAILED
//	test tests::overflows - should panic ... ok
//	---- tests::subtracts stdout ----
//	thread 'tests::subtracts' panicked at src/lib.rs:28:9:
//	test result: FAILED. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.33s
//	   Doc-tests calc
//	test src/lib.rs - add (line 5) ... ok
//	error: could not compile `broken` (lib test) due to 1 previous error
//
// Spec: the libtest pretty formatter (library/test/src/formatters/pretty.rs)
// and `cargo help test`; there is no stable machine-readable format.
//
// Test ids are "SUITE > NAME": the suite is the test binary's target name
// and source ("calc src/lib.rs", "api tests/api.rs") or "CRATE doc-tests";
// the name is libtest's path within it (tests::adds), without " - should
// panic" and, for a doctest, without its line (it moves with every edit
// above it). An ignored test is skipped, with its reason.
//
// A test binary that stops before its "test result:" line (a test called
// std::process::exit, which cargo then reports as success, or a crash) is
// an integrity problem naming the binary, the count it announced and the
// last test seen, and a test whose line was cut off is failed as "did not
// finish". A summary whose counts disagree with the lines read is an
// integrity problem too. A target that does not compile is a build failure
// and a failed test "CRATE > (build)", so that it never reads as zero
// tests; output with no test binary and no build failure is an error.
type CargoTest struct{}

// Format returns "cargotest".
func (CargoTest) Format() string { return FormatCargoTest }

var (
	cargoRunning  = lazyre.New(`^Running (?:unittests )?(\S+) \(([^)]*)\)$`)
	cargoDoc      = lazyre.New(`^Doc-tests (\S+)$`)
	cargoCount    = lazyre.New(`^running (\d+) tests?$`)
	cargoSummary  = lazyre.New(`^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;`)
	cargoNoBuild  = lazyre.New("^error: could not compile `([^`]+)`(?: \\(([^)]*)\\))?")
	cargoDocLine  = lazyre.New(` \(line \d+\)$`)
	cargoHashTail = lazyre.New(`-[0-9a-f]{8,}$`)
)

type cargoBinary struct {
	suite          string
	declared, seen int
	counts         [3]int // passed, failed, ignored lines read
	cut            string // a test whose result line was cut off
	last           string
	results        []cargoResult
}

type cargoResult struct {
	name    string
	outcome Outcome
	msg     string
}

type cargoParser struct {
	name    string
	res     *Result
	bin     *cargoBinary // the binary whose output is being read
	suite   string       // the suite the next "running N tests" starts
	failing string       // the test whose failure output is being read
	msgs    map[string]*messageBuf
	build   map[string]*messageBuf
	order   []string // build failures in order
	binary  int      // test binaries seen
	full    bool
}

// Parse reads cargo test's output.
func (CargoTest) Parse(name string, r io.Reader) (*Result, error) {
	p := &cargoParser{name: name, res: &Result{Sources: []string{name}, Tests: &Tests{}},
		msgs: map[string]*messageBuf{}, build: map[string]*messageBuf{}}
	lr := newLineReader(r)
	var building *messageBuf
	for {
		raw, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, lineError(FormatCargoTest, name, lr.line+1, err)
		}
		line := strings.TrimRight(string(raw), "\r")
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "error[") || strings.HasPrefix(trimmed, "error:") && !strings.HasPrefix(trimmed, "error: test failed"):
			if m := cargoNoBuild.FindStringSubmatch(trimmed); m != nil {
				target := m[1]
				if m[2] != "" {
					target += " (" + m[2] + ")"
				}
				p.noBuild(m[1], target, building)
				building = nil
				continue
			}
			if building == nil {
				building = &messageBuf{}
			}
			building.write(trimmed + "\n")
			continue
		case building != nil && p.bin == nil && trimmed != "" && !strings.HasPrefix(trimmed, "Running ") && !strings.HasPrefix(trimmed, "Compiling "):
			building.write(line + "\n")
			continue
		}
		if err := p.line(line, trimmed); err != nil {
			return nil, lineError(FormatCargoTest, name, lr.line, err)
		}
	}
	p.endBinary()
	if p.binary == 0 && len(p.order) == 0 {
		return nil, lineError(FormatCargoTest, name, 0, errors.New("no test binary ran and nothing failed to build (is this `cargo test 2>&1` output?)"))
	}
	if p.full {
		return nil, lineError(FormatCargoTest, name, 0, errors.New("too many test names"))
	}
	return p.res, nil
}

func (p *cargoParser) line(line, trimmed string) error {
	if m := cargoRunning.FindStringSubmatch(trimmed); m != nil {
		p.endBinary()
		bin := cargoHashTail.ReplaceAllString(path.Base(m[2]), "")
		p.suite = bin + " " + m[1]
		return nil
	}
	if m := cargoDoc.FindStringSubmatch(trimmed); m != nil {
		p.endBinary()
		p.suite = m[1] + " doc-tests"
		return nil
	}
	if m := cargoCount.FindStringSubmatch(trimmed); m != nil {
		p.endBinary()
		n, err := strconv.Atoi(m[1])
		if err != nil {
			return fmt.Errorf("test count %q: %w", m[1], err)
		}
		suite := p.suite
		if suite == "" {
			suite = "tests" // libtest's output without cargo's lines
		}
		p.bin = &cargoBinary{suite: suite, declared: n}
		p.binary++
		return nil
	}
	if p.bin == nil {
		return nil
	}
	if m := cargoSummary.FindStringSubmatch(trimmed); m != nil {
		p.summary(m)
		return nil
	}
	if strings.HasPrefix(line, "test ") {
		if rest := p.result(line[len("test "):]); rest != "" {
			// What cut the line off starts a line of its own.
			return p.line(rest, strings.TrimSpace(rest))
		}
		return nil
	}
	if strings.HasPrefix(trimmed, "---- ") && strings.HasSuffix(trimmed, " ----") {
		name := strings.TrimSuffix(strings.TrimPrefix(trimmed, "---- "), " ----")
		name = strings.TrimSuffix(strings.TrimSuffix(name, " stdout"), " stderr")
		p.failing = cargoName(name)
		return nil
	}
	if trimmed == "failures:" || trimmed == "successes:" {
		p.failing = ""
		return nil
	}
	if p.failing != "" {
		b := p.msgs[p.failing]
		if b == nil {
			b = &messageBuf{}
			p.msgs[p.failing] = b
		}
		b.write(line + "\n")
	}
	return nil
}

// result reads "NAME ... RESULT" (the part after "test "). It returns what
// follows the name when that is no result: the line was cut off there by
// the next output, which the caller reads as a line.
func (p *cargoParser) result(rest string) string {
	name, outcome, ok := strings.Cut(rest, " ... ")
	if !ok {
		name, ok = strings.CutSuffix(rest, " ...")
		if !ok {
			return "" // "test x has been running for over 60 seconds" and the like
		}
	}
	name = cargoName(name)
	word, reason, _ := strings.Cut(strings.TrimSpace(outcome), ",")
	b := p.bin
	switch word {
	case "ok":
		b.counts[0]++
		b.results = append(b.results, cargoResult{name, Passed, ""})
	case "FAILED":
		b.counts[1]++
		b.results = append(b.results, cargoResult{name, Failed, ""})
	case "ignored":
		b.counts[2]++
		b.results = append(b.results, cargoResult{name, Skipped, strings.TrimSpace(reason)})
	case "bench:":
		return "" // a benchmark's timing, counted as measured
	default:
		// The line was cut off: the binary stopped while the test ran.
		b.cut = name
		b.last, b.seen = name, b.seen+1
		return outcome
	}
	b.last, b.seen = name, b.seen+1
	return ""
}

// cargoName is a test's name without libtest's decorations.
func cargoName(name string) string {
	name = strings.TrimSuffix(strings.TrimSpace(name), " - should panic")
	return cargoDocLine.ReplaceAllString(name, "")
}

func (p *cargoParser) add(suite, name string, o Outcome, msg string) {
	if !p.res.Tests.add(suite, sepArrow, name, Test{Outcome: o, Message: msg}) {
		p.full = true
	}
}

func (p *cargoParser) summary(m []string) {
	b := p.bin
	want := [3]int{}
	for i := range want {
		want[i], _ = strconv.Atoi(m[i+2])
	}
	if want != b.counts {
		p.res.Integrity = append(p.res.Integrity, IntegrityProblem{Package: b.suite, Problem: fmt.Sprintf(
			"its summary says %d passed, %d failed and %d ignored, but the report lists %d, %d and %d",
			want[0], want[1], want[2], b.counts[0], b.counts[1], b.counts[2])})
	}
	p.close()
}

// endBinary closes the binary being read, which never printed its summary:
// it exited early.
func (p *cargoParser) endBinary() {
	b := p.bin
	if b == nil {
		return
	}
	problem := fmt.Sprintf("its test binary exited early: it announced %d %s and the report ends after %d, with no summary",
		b.declared, plural(b.declared, "test", "tests"), b.seen)
	if b.last != "" {
		problem += ", and the last test seen was " + b.last
	}
	p.res.Integrity = append(p.res.Integrity, IntegrityProblem{Package: b.suite, Problem: problem})
	if b.cut != "" {
		b.results = append(b.results, cargoResult{b.cut, Failed, "test did not finish (the test binary exited or crashed while it ran)"})
	}
	p.close()
}

// close records the binary's results, the failed ones with their output.
func (p *cargoParser) close() {
	for _, r := range p.bin.results {
		if m := p.msgs[r.name]; m != nil && r.outcome == Failed {
			r.msg = strings.TrimSpace(r.msg + "\n" + m.String())
		}
		p.add(p.bin.suite, r.name, r.outcome, r.msg)
	}
	p.msgs = map[string]*messageBuf{}
	p.bin = nil
	p.failing = ""
}

func (p *cargoParser) noBuild(crate, target string, out *messageBuf) {
	msg := ""
	if out != nil {
		msg = out.String()
	}
	if _, seen := p.build[crate]; !seen {
		p.order = append(p.order, crate)
		p.build[crate] = out
		p.res.BuildFailures = append(p.res.BuildFailures, BuildFailure{Package: crate, ImportPath: target, Output: msg})
		p.add(crate, "(build)", Failed, strings.TrimSpace("does not compile\n"+msg))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
