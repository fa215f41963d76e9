package ecs

import "strings"

func isStandaloneTask(group string) bool {
	return !strings.HasPrefix(group, "service:")
}

// ServiceName returns the service a task group belongs to.
func ServiceName(group string) string {
	if isStandaloneTask(group) {
		return ""
	}
	return strings.TrimPrefix(group, "service:")
}
