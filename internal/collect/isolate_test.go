package collect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/config"
)

// TestIsolatedRunsDoNotShareHome: what one isolated run writes to its HOME
// and TMPDIR, the next does not see, while Go's caches stay the user's.
func TestIsolatedRunsDoNotShareHome(t *testing.T) {
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	dir := t.TempDir()
	write := config.Collector{Name: "plant", Shell: true, Argv: []string{`echo planted > "$HOME/marker" && echo "$GOCACHE" > "$TMPDIR/gocache" && cp "$TMPDIR/gocache" ` + filepath.Join(dir, "gocache")}}
	if _, err := Run(context.Background(), dir, []config.Collector{write}, RunOptions{Environ: env, Isolate: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, "marker")); err == nil {
		t.Error("the run wrote into the user's HOME")
	}
	read := config.Collector{Name: "look", Shell: true, Argv: []string{`test ! -e "$HOME/marker"`}}
	if _, err := Run(context.Background(), dir, []config.Collector{read}, RunOptions{Environ: env, Isolate: true}); err != nil {
		t.Errorf("the second run saw the first one's HOME: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "gocache"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(b)); got != filepath.Join(home, ".cache", "go-build") {
		t.Errorf("GOCACHE = %q, want the user's", got)
	}
}
