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

// DefaultMaxReportBytes caps one report file, and DefaultMaxReportsBytes all
// the report files one end reads; RALPH_GATE_MAX_REPORT_BYTES and
// RALPH_GATE_MAX_REPORTS_BYTES (set by the workflow, never by the change)
// override them.
const (
	DefaultMaxReportBytes  = 256 << 20
	DefaultMaxReportsBytes = 1 << 30
)

// MaxReportBytes is the cap in force for one file.
func MaxReportBytes() int64 { return envBytes("RALPH_GATE_MAX_REPORT_BYTES", DefaultMaxReportBytes) }

func envBytes(name string, def int64) int64 {
	if v := os.Getenv(name); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return def
}

// ReportBudget bounds the bytes of all the report files one end reads.
type ReportBudget struct {
	left, max int64
}

// NewReportBudget is the budget in force (RALPH_GATE_MAX_REPORTS_BYTES).
func NewReportBudget() *ReportBudget {
	m := envBytes("RALPH_GATE_MAX_REPORTS_BYTES", DefaultMaxReportsBytes)
	return &ReportBudget{left: m, max: m}
}

// Spend takes a file's size from the budget; over it, the error names the
// file and the cap.
func (b *ReportBudget) Spend(name string, size int64) error {
	if b == nil {
		return nil
	}
	b.left -= size
	if b.left < 0 {
		return fmt.Errorf("report %s: the report files read so far total more than the cap of %d bytes (RALPH_GATE_MAX_REPORTS_BYTES)", name, b.max)
	}
	return nil
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
	return &cappedReader{ctx: ctx, f: f, name: name, left: max + 1, max: max, size: fi.Size()}, nil
}

// ReportSize is the size an opened report had when it was opened.
func ReportSize(r io.Reader) int64 {
	if c, ok := r.(*cappedReader); ok {
		return c.size
	}
	return 0
}

// cappedReader reads at most max bytes and stops when ctx is done.
type cappedReader struct {
	ctx  context.Context
	f    *os.File
	name string
	left int64
	max  int64
	size int64
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
