package ecs

import "strings"

// ServiceName returns the service a task group belongs to.
func ServiceName(group string) string {
	name, _ := strings.CutPrefix(group, "service:")
	if name == group {
		return ""
	}
	return name
}
