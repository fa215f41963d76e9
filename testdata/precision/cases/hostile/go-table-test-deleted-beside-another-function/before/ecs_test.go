package ecs

import "testing"

func TestIsStandaloneTask(t *testing.T) {
	for _, tc := range []struct {
		name  string
		group string
		want  bool
	}{
		{name: "StandaloneTask", group: "family:web", want: true},
		{name: "ServiceTask", group: "service:web", want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := isStandaloneTask(tc.group); got != tc.want {
				t.Fatalf("isStandaloneTask(%q) = %v", tc.group, got)
			}
		})
	}
}

func TestServiceName(t *testing.T) {
	if got := ServiceName("service:web"); got != "web" {
		t.Fatalf("ServiceName = %q", got)
	}
}
