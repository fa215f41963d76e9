package ecs

import "testing"

func TestServiceNameEmpty(t *testing.T) {
	if got := serviceName("family:batch"); got != "" {
		t.Errorf("serviceName = %q, want empty", got)
	}
}
