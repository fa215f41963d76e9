package collectors

import (
	"errors"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"io"
	"strconv"
)

// TSC parses the diagnostics of the TypeScript compiler, `tsc --noEmit`, in
// both of its forms. Plain (--pretty false, and what tsc prints when its
// output is not a terminal):
//
//	src/sum.ts(5,14): error TS2322: Type 'string' is not assignable to type 'number'.
//	error TS18003: No inputs were found in config file 'tsconfig.json'.
//
// and pretty (--pretty, the default on a terminal), with ANSI colours, code
// frames and a summary:
//
//	src/sum.ts:5:14 - error TS2322: Type 'string' is not assignable to type 'number'.
//
//	5 export const total: number = "three";
//	               ~~~~~
//
//	Found 1 error in src/sum.ts:5
//
// Spec: TypeScript's formatDiagnostic and formatDiagnosticsWithColorAndContext
// (https://github.com/microsoft/TypeScript/blob/main/src/compiler/program.ts).
//
// Category error counts as an error and warning as a warning, under the rule
// "TS<code>"; message and suggestion are not counted. Continuation lines of
// a message chain, code frames and the per-file table are not diagnostics.
// Every "Found N errors" summary is checked against the errors read since the
// previous summary, and a disagreement is an error: the log was cut or mixed
// with something else. Input with no diagnostic at all is zero errors, since
// that is what a successful tsc prints: the caller must know that tsc ran.
// Logs of --watch, which re-reports every error on each rebuild, are not
// supported.
type TSC struct{}

// Format returns "tsc".
func (TSC) Format() string { return FormatTSC }

var (
	tscPlain   = lazyre.New(`^(.+)\((\d+),(\d+)\): (error|warning|message|suggestion) TS(\d+): `)
	tscPretty  = lazyre.New(`^(.+):(\d+):(\d+) - (error|warning|message|suggestion) TS(\d+): `)
	tscGlobal  = lazyre.New(`^(error|warning|message|suggestion) TS(\d+): `)
	tscSummary = lazyre.New(`^Found (\d+) errors?\b`)
	ansiEscape = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]`)
)

// Parse reads tsc's output.
func (TSC) Parse(name string, r io.Reader) (*Result, error) {
	diags := &Diagnostics{}
	lr := newLineReader(r)
	sinceSummary := 0
	for {
		raw, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, lineError(FormatTSC, name, lr.line+1, err)
		}
		line := ansiEscape.ReplaceAll(raw, nil)
		var cat, code []byte
		if m := tscPlain.FindSubmatch(line); m != nil {
			cat, code = m[4], m[5]
		} else if m := tscPretty.FindSubmatch(line); m != nil {
			cat, code = m[4], m[5]
		} else if m := tscGlobal.FindSubmatch(line); m != nil {
			cat, code = m[1], m[2]
		} else if m := tscSummary.FindSubmatch(line); m != nil {
			n, err := strconv.Atoi(string(m[1]))
			if err != nil {
				return nil, lineError(FormatTSC, name, lr.line, fmt.Errorf("bad summary %q", line))
			}
			if n != sinceSummary {
				return nil, lineError(FormatTSC, name, lr.line,
					fmt.Errorf("summary says %d errors but %d error diagnostics precede it (truncated or mixed output?)", n, sinceSummary))
			}
			sinceSummary = 0
			continue
		} else {
			continue
		}
		rule := "TS" + string(code)
		switch string(cat) {
		case "error":
			diags.add(rule, levelError)
			sinceSummary++
		case "warning":
			diags.add(rule, levelWarning)
		}
	}
	return &Result{Sources: []string{name}, TypeCheck: diags}, nil
}
