package loc

import "testing"

func TestLocation(t *testing.T) {
	if got := Location("/a", ""); got != "/a" {
		t.Errorf("Location = %q", got)
	}
}
