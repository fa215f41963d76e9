//go:build unix

package collect

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ralph-gate/ralph-gate/collectors"
)

func TestOpenReport(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("secret"), 0o600)
	os.WriteFile(filepath.Join(root, "ok.xml"), []byte("<x/>"), 0o644)
	os.Symlink(outside, filepath.Join(root, "leak.xml"))
	os.Symlink("ok.xml", filepath.Join(root, "inner.xml"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, want := range map[string]string{
		"leak.xml": "outside the directory", "fifo.xml": "not a regular file", "missing.xml": "no such file",
	} {
		if _, err := OpenReport(ctx, name, filepath.Join(root, name), root); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "secret\n") {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	for _, name := range []string{"ok.xml", "inner.xml"} {
		f, err := OpenReport(ctx, name, filepath.Join(root, name), root)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(data) != "<x/>" {
			t.Errorf("%s: %q %v", name, data, err)
		}
	}
	// Over the cap; cancelled.
	os.WriteFile(filepath.Join(root, "big.xml"), make([]byte, 5000), 0o644)
	t.Setenv("RALPH_GATE_MAX_REPORT_BYTES", "4096")
	if _, err := OpenReport(ctx, "big.xml", filepath.Join(root, "big.xml"), root); err == nil || !strings.Contains(err.Error(), "over the cap of 4096") {
		t.Errorf("big: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	f, err := OpenReport(cctx, "ok.xml", filepath.Join(root, "ok.xml"), root)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := io.ReadAll(f); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("read after cancel: %v", err)
	}
	f.Close()
}

// FuzzOpenReport: any bytes, read through OpenReport's caps by a report
// parser, give a result or an error, never a panic, and never more than the
// cap.
func FuzzOpenReport(f *testing.F) {
	f.Add([]byte(`<testsuite name="s" tests="1"><testcase classname="c" name="t"/></testsuite>`))
	f.Add([]byte(`<testsuite><testcase name="`))
	f.Add(make([]byte, 5000))
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		t.Setenv("RALPH_GATE_MAX_REPORT_BYTES", "4096")
		path := filepath.Join(root, "r.xml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := OpenReport(context.Background(), "r.xml", path, root)
		if err != nil {
			if len(data) <= 4096 {
				t.Fatalf("a %d-byte report refused: %v", len(data), err)
			}
			return
		}
		defer r.Close()
		if len(data) > 4096 {
			t.Fatalf("a %d-byte report opened over the cap", len(data))
		}
		p, _ := collectors.New("junit")
		_, _ = p.Parse("r.xml", r)
	})
}
