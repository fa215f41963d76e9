package gitrange

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
)

// TestHelpersInUntouchedFiles: in a real repository, a test that moves its
// Close check into a call of a constructor defined in a test file the commit
// did not touch raises nothing, while a test that stops calling a checking
// helper of that file is reported; both for the single commit and for the
// range, whose commits share parses.
func TestHelpersInUntouchedFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required")
	}
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write := func(p, content string) {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) string {
		gitT(t, dir, "add", "-A")
		gitT(t, dir, "commit", "-q", "-m", msg)
		return gitT(t, dir, "rev-parse", "HEAD")
	}
	write("store/helpers_test.go", `package store

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func newTestDB(t *testing.T) *DB {
	db, err := Open(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

func checkLen(t *testing.T, db *DB, want int) {
	t.Helper()
	require.Equal(t, want, db.Len())
}
`)
	write("store/db_test.go", `package store

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPut(t *testing.T) {
	db, err := Open(t.TempDir())
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	db.Put("a")
	checkLen(t, db, 1)
}
`)
	base := commit("base")
	write("store/db_test.go", `package store

import "testing"

func TestPut(t *testing.T) {
	db := newTestDB(t)
	db.Put("a")
	checkLen(t, db, 1)
}
`)
	moved := commit("use newTestDB")
	write("store/db_test.go", `package store

import "testing"

func TestPut(t *testing.T) {
	db := newTestDB(t)
	db.Put("a")
}
`)
	dropped := commit("drop the length check")

	r, err := gitrepo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	hash := func(s string) plumbing.Hash {
		h, err := r.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	res, err := Analyze(context.Background(), r, hash(base), hash(moved), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Severity >= gate.SeverityMedium {
			t.Errorf("moved Close check reported: %s %s: %s", f.Severity, f.Rule, f.Message)
		}
	}
	for _, from := range []string{moved, base} {
		res, err := Analyze(context.Background(), r, hash(from), hash(dropped), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range res.Findings {
			if f.Rule == "helper-call-removed" && f.Severity == gate.SeverityHigh && f.Net && strings.Contains(f.Message, "checkLen") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s..%s: want a high helper-call-removed naming checkLen; got %+v", from[:7], dropped[:7], res.Findings)
		}
	}
}
