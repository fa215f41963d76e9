package ecs

import "testing"

func TestIsStandaloneTask(t *testing.T) {
	for _, c := range []struct {
		group string
		want  bool
	}{{"service:web", false}, {"family:batch", true}, {"", true}} {
		if got := isStandaloneTask(c.group); got != c.want {
			t.Errorf("isStandaloneTask(%q) = %v, want %v", c.group, got, c.want)
		}
	}
}

func TestServiceName(t *testing.T) {
	if got := serviceName("service:web"); got != "web" {
		t.Errorf("serviceName = %q, want web", got)
	}
	if got := serviceName("family:batch"); got != "" {
		t.Errorf("serviceName = %q, want empty", got)
	}
}
