package ecs

import "strings"

// serviceName returns the service a task group belongs to.
func serviceName(group string) string {
	name, ok := strings.CutPrefix(group, "service:")
	if !ok {
		return ""
	}
	return name
}
