package ecs

import "testing"

func TestServiceName(t *testing.T) {
	if got := serviceName(prefix() + "web"); got != "web" {
		t.Errorf("serviceName = %q, want web", got)
	}
}

func TestServiceNameEmpty(t *testing.T) {
	if got := serviceName("family:batch"); got != "" {
		t.Errorf("serviceName = %q, want empty", got)
	}
}
