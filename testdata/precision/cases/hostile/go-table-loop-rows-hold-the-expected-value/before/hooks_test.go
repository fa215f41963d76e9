package hooks

import "testing"

func TestHooks(t *testing.T) {
	pre, run, post := Run([]string{"one", "two"})
	if pre != "one two" {
		t.Errorf("Expected pre %q, got %q", "one two", pre)
	}
	if run != "one two" {
		t.Errorf("Expected run %q, got %q", "one two", run)
	}
	if post != "one two" {
		t.Errorf("Expected post %q, got %q", "one two", post)
	}
}
