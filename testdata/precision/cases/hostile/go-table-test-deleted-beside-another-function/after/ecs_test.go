package ecs

import "testing"

func TestServiceName(t *testing.T) {
	if got := ServiceName("service:web"); got != "web" {
		t.Fatalf("ServiceName = %q", got)
	}
}
