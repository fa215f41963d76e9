package collectors

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// LCOV parses LCOV tracefiles, as lcov/geninfo, c8, nyc, jest and vitest
// write them:
//
//	TN:
//	SF:src/sum.js
//	FN:1,sum
//	FNDA:3,sum
//	FNF:1
//	FNH:1
//	DA:1,3
//	DA:2,0
//	BRDA:2,0,0,1
//	BRF:1
//	BRH:1
//	LF:2
//	LH:1
//	end_of_record
//
// Spec: geninfo(1), "FILES" section
// (https://github.com/linux-test-project/lcov/blob/master/man/geninfo.1).
//
// Line coverage is computed from DA records: lines with a DA record are
// found, those with a count above zero are hit; the LF/LH summary lines are
// checked for syntax, not trusted. Branch coverage is computed the same way
// from BRDA records (a taken count of "-", a block that never ran, is 0),
// and BRF/BRH are checked for syntax, not trusted: a tracefile without BRDA
// records has no branch data, whatever its BRF says. A file that appears in
// several records (one per test name) has its counts summed, as lcov merges
// them. FN, FNDA, FNL, FNA and the other summary records are checked for
// syntax and not kept. Unknown upper-case records (newer lcov versions) are
// ignored; any other line, a record outside SF ... end_of_record, or a
// record left open at the end of input is an error.
type LCOV struct{}

// Format returns "lcov".
func (LCOV) Format() string { return FormatLCOV }

// Parse reads an LCOV tracefile.
func (LCOV) Parse(name string, r io.Reader) (*Result, error) {
	cov := &Coverage{Files: map[string]*FileCoverage{}}
	lr := newLineReader(r)
	fail := func(format string, args ...any) (*Result, error) {
		return nil, lineError(FormatLCOV, name, lr.line, fmt.Errorf(format, args...))
	}
	var cur *FileCoverage
	var branches []branchRec // the open record's BRDA records
	curLine := 0
	records := 0
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, lineError(FormatLCOV, name, lr.line+1, err)
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if string(line) == "end_of_record" {
			if cur == nil {
				return fail("end_of_record without SF")
			}
			cur.lines.compact()
			cur.branches.addRecs(branches)
			branches = branches[:0]
			cur = nil
			records++
			continue
		}
		key, val, ok := bytes.Cut(line, []byte(":"))
		if !ok || !isRecordKey(key) {
			return fail("unexpected line %q (want KEY:value or end_of_record)", clip(line))
		}
		switch string(key) {
		case "TN", "VER":
			continue
		case "SF":
			if cur != nil {
				return fail("SF:%s inside the record of %s opened on line %d (missing end_of_record)", val, cur.Path, curLine)
			}
			if len(val) == 0 {
				return fail("SF without a file name")
			}
			cur, curLine = cov.file(string(val)), lr.line
			continue
		}
		if cur == nil {
			return fail("%s record outside SF ... end_of_record", key)
		}
		if string(key) == "BRDA" {
			r, err := lcovBranch(cur, val)
			if err != nil {
				return fail("BRDA: %v", err)
			}
			branches = append(branches, r)
			continue
		}
		if err := lcovRecord(cur, string(key), val); err != nil {
			return fail("%s: %v", key, err)
		}
	}
	if cur != nil {
		return nil, lineError(FormatLCOV, name, lr.line, fmt.Errorf("input ends inside the record of %s opened on line %d (missing end_of_record; truncated?)", cur.Path, curLine))
	}
	if records == 0 {
		return nil, lineError(FormatLCOV, name, lr.line, errors.New("no SF ... end_of_record records"))
	}
	return &Result{Sources: []string{name}, Coverage: cov}, nil
}

// lcovRecord checks one record and keeps what line and branch coverage need.
func lcovRecord(f *FileCoverage, key string, val []byte) error {
	switch key {
	case "DA": // DA:<line>,<count>[,<checksum>]
		l, rest, ok := bytes.Cut(val, []byte(","))
		if !ok {
			return errors.New("want line,count")
		}
		c, _, _ := bytes.Cut(rest, []byte(","))
		line, err := atoiPos(l, "line")
		if err != nil {
			return err
		}
		if line < 1 {
			return fmt.Errorf("line %d is not positive", line)
		}
		n, err := atoiPos(c, "count")
		if err != nil {
			return err
		}
		f.lines.add(int(line), n, true)
	case "LF", "LH", "FNF", "FNH", "BRF", "BRH":
		_, err := atoiPos(val, "count")
		return err
	case "FN": // FN:<line>[,<end line>],<name>
		l, n, ok := bytes.Cut(val, []byte(","))
		if !ok || len(n) == 0 {
			return errors.New("want line,name")
		}
		_, err := atoiPos(l, "line")
		return err
	case "FNDA": // FNDA:<count>,<name>
		c, n, ok := bytes.Cut(val, []byte(","))
		if !ok || len(n) == 0 {
			return errors.New("want count,name")
		}
		_, err := atoiPos(c, "count")
		return err
	}
	return nil
}

// lcovBranch reads a BRDA record: BRDA:<line>,[<exception>]<block>,<branch>,<taken>.
func lcovBranch(f *FileCoverage, val []byte) (branchRec, error) {
	// lcov 2 writes an expression for <branch>, which may hold commas: the
	// block ends at the second comma, the count follows the last.
	l, rest, ok := bytes.Cut(val, []byte(","))
	if !ok || bytes.Count(rest, []byte(",")) < 2 {
		return branchRec{}, errors.New("want line,block,branch,taken")
	}
	// Line 0 is kept: coverage.py writes it for a branch that leaves the
	// function (its arc's destination, clamped at 0).
	line, err := atoiPos(l, "line")
	if err != nil {
		return branchRec{}, err
	}
	block, rest, _ := bytes.Cut(rest, []byte(","))
	last := bytes.LastIndexByte(rest, ',')
	branch, taken := rest[:last], rest[last+1:]
	var n int64
	if string(taken) != "-" {
		if n, err = atoiPos(taken, "taken"); err != nil {
			return branchRec{}, err
		}
	}
	return f.branches.rec(line, block, branch, n), nil
}

// isRecordKey accepts LCOV record names: upper-case letters.
func isRecordKey(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	for _, c := range k {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// atoiPos parses a non-negative decimal count.
func atoiPos(b []byte, what string) (int64, error) {
	if len(b) == 0 {
		return 0, fmt.Errorf("missing %s", what)
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%s %q is not a non-negative integer", what, clip(b))
		}
		if n > (1<<62)/10 {
			// Saturate: hit counts beyond 2^62 carry no more information.
			n = 1 << 62
			continue
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// clip shortens an offending input for an error message.
func clip(b []byte) string {
	const n = 80
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}
