package collectors

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLineBytes bounds one line of a line-based report (go test -json, cover
// profiles, LCOV, tsc). There is no 64 KiB limit as with bufio.Scanner: go
// test -json writes a test's output line as one event, however long.
const MaxLineBytes = 64 << 20

// lineReader reads lines of any length up to MaxLineBytes, counting them.
type lineReader struct {
	r    *bufio.Reader
	buf  []byte
	line int
	// unterminated is set when the last line read had no newline.
	unterminated bool
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its line ending ("\n" or "\r\n"). The
// slice is valid until the following call. At the end of input it returns
// io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	frag, err := lr.r.ReadSlice('\n')
	if err == nil {
		lr.line++
		lr.unterminated = false
		return trimEOL(frag), nil
	}
	lr.buf = append(lr.buf[:0], frag...)
	for errors.Is(err, bufio.ErrBufferFull) {
		if len(lr.buf) > MaxLineBytes {
			return nil, fmt.Errorf("line %d is longer than %d bytes", lr.line+1, MaxLineBytes)
		}
		frag, err = lr.r.ReadSlice('\n')
		lr.buf = append(lr.buf, frag...)
	}
	switch {
	case err == nil:
		lr.line++
		lr.unterminated = false
		return trimEOL(lr.buf), nil
	case errors.Is(err, io.EOF):
		if len(lr.buf) == 0 {
			return nil, io.EOF
		}
		lr.line++
		lr.unterminated = true
		return trimEOL(lr.buf), nil
	default:
		return nil, err
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}
