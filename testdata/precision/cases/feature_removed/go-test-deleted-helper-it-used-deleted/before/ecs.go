package ecs

import "strings"

// prefix is the prefix of a service's task group.
func prefix() string { return "service:" }

// serviceName returns the service a task group belongs to.
func serviceName(group string) string {
	if !strings.HasPrefix(group, prefix()) {
		return ""
	}
	return strings.TrimPrefix(group, prefix())
}
