package collectors

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// CoverProfile parses Go cover profiles, as `go test -coverprofile` writes
// them:
//
//	mode: set
//	example.com/m/calc/calc.go:3.24,5.2 1 1
//	example.com/m/calc/calc.go:7.24,9.2 1 0
//
// Each block line is "file:startLine.startCol,endLine.endCol numStmt count".
// The format is defined by golang.org/x/tools/cover (ParseProfiles) and
// cmd/cover (https://pkg.go.dev/golang.org/x/tools/cover).
//
// Mode is set, count or atomic. Several profiles may be concatenated, each
// starting with its own mode line (as scripts that run go test per package
// write them); their modes must agree. Duplicate blocks are merged as
// x/tools/cover merges them (set: OR, count and atomic: sum); a duplicate
// with a different statement count is an error. Overall coverage is
// statement coverage exactly as `go tool cover -func` prints it on its
// "total:" line: statements of blocks with a count above zero over all
// statements. The parser reads line by line with positions in errors, which
// x/tools/cover's reader (bufio.Scanner, no line numbers, one mode line)
// cannot give; its ProfileBlock is the type FileCoverage.Blocks returns.
type CoverProfile struct{}

// Format returns "coverprofile".
func (CoverProfile) Format() string { return FormatCoverProfile }

// Parse reads a cover profile.
func (CoverProfile) Parse(name string, r io.Reader) (*Result, error) {
	cov := &Coverage{Files: map[string]*FileCoverage{}}
	lr := newLineReader(r)
	fail := func(format string, args ...any) (*Result, error) {
		return nil, lineError(FormatCoverProfile, name, lr.line, fmt.Errorf(format, args...))
	}
	var last *FileCoverage
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, lineError(FormatCoverProfile, name, lr.line+1, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if mode, ok := bytes.CutPrefix(line, []byte("mode: ")); ok {
			m := string(mode)
			switch {
			case m != "set" && m != "count" && m != "atomic":
				return fail("unknown mode %q (want set, count or atomic)", m)
			case cov.Mode != "" && cov.Mode != m:
				return fail("mode %s differs from the earlier mode %s", m, cov.Mode)
			}
			cov.Mode = m
			continue
		}
		if cov.Mode == "" {
			return fail("missing mode line before the first block (want \"mode: set|count|atomic\")")
		}
		file, k, numStmt, count, err := parseProfileLine(line)
		if err != nil {
			if lr.unterminated {
				return fail("truncated block %q: %v", line, err)
			}
			return fail("bad block %q: %v", line, err)
		}
		if last == nil || last.Path != string(file) {
			last = cov.file(string(file))
		}
		if !last.addBlock(k, numStmt, count, cov.Mode == "set") {
			return fail("inconsistent statement count for block %s:%d.%d,%d.%d", file, k.startLine, k.startCol, k.endLine, k.endCol)
		}
	}
	if cov.Mode == "" {
		return nil, lineError(FormatCoverProfile, name, lr.line, errors.New("empty profile, want a \"mode:\" line"))
	}
	return &Result{Sources: []string{name}, Coverage: cov}, nil
}

// parseProfileLine reads "file:l.c,l.c n count" from the right, since file
// names may contain colons.
func parseProfileLine(l []byte) (file []byte, k blockKey, numStmt int32, count int64, err error) {
	sp := bytes.LastIndexByte(l, ' ')
	if sp < 0 {
		return nil, k, 0, 0, errors.New("want file:line.col,line.col statements count")
	}
	if count, err = strconv.ParseInt(string(l[sp+1:]), 10, 64); err != nil || count < 0 {
		return nil, k, 0, 0, fmt.Errorf("count %q is not a non-negative integer", l[sp+1:])
	}
	l = l[:sp]
	sp = bytes.LastIndexByte(l, ' ')
	if sp < 0 {
		return nil, k, 0, 0, errors.New("missing statement count")
	}
	n, err := strconv.ParseInt(string(l[sp+1:]), 10, 32)
	if err != nil || n < 0 {
		return nil, k, 0, 0, fmt.Errorf("statement count %q is not a non-negative integer", l[sp+1:])
	}
	numStmt = int32(n)
	l = l[:sp]
	colon := bytes.LastIndexByte(l, ':')
	if colon <= 0 {
		return nil, k, 0, 0, errors.New("missing file name")
	}
	file, pos := l[:colon], l[colon+1:]
	start, end, ok := bytes.Cut(pos, []byte(","))
	if !ok {
		return nil, k, 0, 0, fmt.Errorf("position %q is not line.col,line.col", pos)
	}
	if k.startLine, k.startCol, err = lineCol(start); err == nil {
		k.endLine, k.endCol, err = lineCol(end)
	}
	if err != nil {
		return nil, k, 0, 0, fmt.Errorf("position %q is not line.col,line.col", pos)
	}
	return file, k, numStmt, count, nil
}

func lineCol(b []byte) (line, col int32, err error) {
	l, c, ok := bytes.Cut(b, []byte("."))
	if !ok {
		return 0, 0, errors.New("no column")
	}
	ln, err := strconv.ParseInt(string(l), 10, 32)
	if err != nil || ln < 0 {
		return 0, 0, errors.New("bad line")
	}
	cn, err := strconv.ParseInt(string(c), 10, 32)
	if err != nil || cn < 0 {
		return 0, 0, errors.New("bad column")
	}
	return int32(ln), int32(cn), nil
}
