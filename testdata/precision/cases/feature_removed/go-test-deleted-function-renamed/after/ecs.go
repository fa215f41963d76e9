package ecs

import "strings"

// standalone reports whether a task group names a standalone task.
func standalone(group string) bool {
	return !strings.HasPrefix(group, "service:")
}

// serviceName returns the service a task group belongs to.
func serviceName(group string) string {
	if standalone(group) {
		return ""
	}
	return strings.Split(group, ":")[1]
}
