package cli

import "testing"

func TestValueSources(t *testing.T) {
	t.Setenv("APP_FOO", "a,b,c")
	got, _, found := flagFromEnvOrFile([]string{"APP_FOO"}, nil)
	if !found {
		t.Fatal("APP_FOO not found")
	}
	parts := splitValues(got)
	if len(parts) != 3 {
		t.Errorf("splitValues = %v, want 3 parts", parts)
	}
	if parts[0] != "a" {
		t.Errorf("first = %q, want a", parts[0])
	}
	if parts[2] != "c" {
		t.Errorf("last = %q, want c", parts[2])
	}
}

func TestSplitValues(t *testing.T) {
	if got := splitValues("a,b"); len(got) != 2 {
		t.Errorf("splitValues = %v", got)
	}
}
