package terminal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIsNot: what a script or an agent gives a command is never a terminal,
// /dev/null (a character device) included.
func TestIsNot(t *testing.T) {
	t.Parallel()
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	regular, err := os.Create(filepath.Join(t.TempDir(), "input"))
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	closed, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	var nilFile *os.File
	for _, tc := range []struct {
		name string
		v    any
	}{
		{"null device", devNull},
		{"pipe read end", pr},
		{"pipe write end", pw},
		{"regular file", regular},
		{"closed file", closed},
		{"nil file", nilFile},
		{"nil", nil},
		{"strings.Reader", strings.NewReader("a\n")},
		{"bytes.Buffer", &bytes.Buffer{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if Is(tc.v) {
				t.Errorf("Is(%s) = true, want false", tc.name)
			}
		})
	}
	if fi, err := devNull.Stat(); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("%s is not a character device here: the case it stands for is not tested", os.DevNull)
	}
}

// TestIsKeepsNonBlocking: asking does not switch a pipe to blocking mode (as
// (*os.File).Fd would), so a read deadline still ends a read on it: the
// guard and the hook read their standard input after asking.
func TestIsKeepsNonBlocking(t *testing.T) {
	t.Parallel()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	Is(pr)
	if err := pr.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := pr.Read(make([]byte, 1))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("read after the deadline: %v, want %v", err, os.ErrDeadlineExceeded)
		}
	case <-time.After(30 * time.Second):
		pw.Close() // ends the read
		t.Error("a read on the pipe outlived its deadline: Is switched it to blocking mode")
	}
}
