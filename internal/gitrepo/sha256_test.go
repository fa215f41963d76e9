package gitrepo

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestSHA256Repository: a repository with SHA-256 object names is named as
// unsupported, not reported as missing HEAD.
func TestSHA256Repository(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "--object-format=sha256", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	_, err := Open(dir)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("Open: %v, want ErrUnsupported naming sha256", err)
	}
}
