package ecs

import "testing"

func TestServiceName(t *testing.T) {
	if got := serviceName("service:web"); got != "web" {
		t.Errorf("serviceName = %q, want web", got)
	}
	if got := serviceName("family:batch"); got != "" {
		t.Errorf("serviceName = %q, want empty", got)
	}
	if got := serviceName("service:my:service:name"); got != "my:service:name" {
		t.Errorf("serviceName = %q, want my:service:name", got)
	}
}
