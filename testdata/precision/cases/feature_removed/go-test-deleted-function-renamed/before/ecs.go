package ecs

import "strings"

// isStandaloneTask reports whether a task group names a standalone task.
func isStandaloneTask(group string) bool {
	return !strings.HasPrefix(group, "service:")
}

// serviceName returns the service a task group belongs to.
func serviceName(group string) string {
	if isStandaloneTask(group) {
		return ""
	}
	return strings.Split(group, ":")[1]
}
