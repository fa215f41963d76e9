package loc

import "testing"

func TestLocation(t *testing.T) {
	if got := Location("/a", ""); got != "/a" {
		t.Errorf("Location = %q", got)
	}
}

func TestReferrerAlias(t *testing.T) {
	if got := Location("back", "/page"); got != "/page" {
		t.Errorf("Location = %q", got)
	}
	if got := Location("back", ""); got != "/" {
		t.Errorf("Location = %q", got)
	}
}
