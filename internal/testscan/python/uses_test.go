package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUses(t *testing.T) {
	src := `import faulthandler
import os.path
from app import make
from tests.helpers import check


def test_a(runner):
    def cli():
        faulthandler.enable()
    p = os.path.join("a", "b")
    make(p).run()
    check(p)
    faulthandler.enable()
    assert p
`
	f, err := New().Extract("tests/test_a.py", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("Extract: %v, %d tests", err, len(f.Tests))
	}
	want := []string{"faulthandler.enable", "os.path.join", "make"}
	if d := cmp.Diff(want, f.Tests[0].Uses); d != "" {
		t.Errorf("Uses (-want +got)\n%s", d)
	}
}
