package collect

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultMaxReportBytes caps one report file; RALPH_GATE_MAX_REPORT_BYTES
// (set by the workflow, never by the change) overrides it.
const DefaultMaxReportBytes = 256 << 20

// MaxReportBytes is the cap in force.
func MaxReportBytes() int64 {
	if v := os.Getenv("RALPH_GATE_MAX_REPORT_BYTES"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return DefaultMaxReportBytes
}

// OpenReport opens a report file the change may have planted: after every
// symbolic link is resolved it must lie inside one of roots (the checkout,
// the collectors' output directory), be a regular file (not a FIFO,
// device or /dev/zero), and hold at most MaxReportBytes. The reader stops at
// the cap and when ctx is cancelled. Errors name the file and the rule,
// never its contents.
func OpenReport(ctx context.Context, name, path string, roots ...string) (io.ReadCloser, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", name, unwrapPath(err))
	}
	inside := false
	for _, r := range roots {
		if r == "" {
			continue
		}
		rr, err := filepath.EvalSymlinks(r)
		if err != nil {
			rr = filepath.Clean(r)
		}
		if abs, err := filepath.Abs(rr); err == nil {
			rr = abs
		}
		if real == rr || strings.HasPrefix(real, rr+string(filepath.Separator)) {
			inside = true
			break
		}
	}
	if !inside {
		return nil, fmt.Errorf("report %s: a symbolic link to %s, outside the directory it is read from: refused", name, real)
	}
	f, err := os.OpenFile(real, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", name, unwrapPath(err))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("report %s: %w", name, unwrapPath(err))
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("report %s: not a regular file (%s): refused", name, fi.Mode().Type())
	}
	max := MaxReportBytes()
	if fi.Size() > max {
		f.Close()
		return nil, fmt.Errorf("report %s: %d bytes, over the cap of %d (RALPH_GATE_MAX_REPORT_BYTES)", name, fi.Size(), max)
	}
	return &cappedReader{ctx: ctx, f: f, name: name, left: max + 1, max: max}, nil
}

// cappedReader reads at most max bytes and stops when ctx is done.
type cappedReader struct {
	ctx  context.Context
	f    *os.File
	name string
	left int64
	max  int64
}

func (r *cappedReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, fmt.Errorf("report %s: %w", r.name, err)
	}
	if r.left <= 0 {
		return 0, fmt.Errorf("report %s: grew over the cap of %d bytes while read (RALPH_GATE_MAX_REPORT_BYTES)", r.name, r.max)
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.f.Read(p)
	r.left -= int64(n)
	if r.left <= 0 && err == nil {
		return n, fmt.Errorf("report %s: grew over the cap of %d bytes while read (RALPH_GATE_MAX_REPORT_BYTES)", r.name, r.max)
	}
	return n, err
}

func (r *cappedReader) Close() error { return r.f.Close() }

// unwrapPath drops the path an *os.PathError repeats (the caller names the
// file already).
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
