package ecs

import "strings"

func isStandaloneTask(group string) bool {
	return !strings.HasPrefix(group, "service:")
}

// ServiceName returns the service a task group belongs to.
func ServiceName(group string) string {
	name, _ := strings.CutPrefix(group, "service:")
	if name == group {
		return ""
	}
	return name
}
