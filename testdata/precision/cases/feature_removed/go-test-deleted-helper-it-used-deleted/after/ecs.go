package ecs

import "strings"

// serviceName returns the service a task group belongs to.
func serviceName(group string) string {
	if !strings.HasPrefix(group, "service:") {
		return ""
	}
	return strings.TrimPrefix(group, "svc:")
}
