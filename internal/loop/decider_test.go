package loop

import (
	"strings"
	"testing"
)

// TestDecider: a decision is the user's at a terminal, the --by name's
// anywhere, and nobody's from a script without one.
func TestDecider(t *testing.T) {
	for _, tc := range []struct {
		by         string
		atTerminal bool
		want, err  string
	}{
		{"", true, "alice", ""},
		{"  bob ", true, "bob", ""},
		{"bob", false, "bob", ""},
		{"", false, "", "standard input is not a terminal"},
		{"   ", false, "", "standard input is not a terminal"},
		{"bob\nroot", true, "", "--by: a name on one line"},
	} {
		got, err := Decider(tc.by, tc.atTerminal, "alice")
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Decider(%q, %v) = %q, %v; want %q, %q", tc.by, tc.atTerminal, got, err, tc.want, tc.err)
		}
	}
}
