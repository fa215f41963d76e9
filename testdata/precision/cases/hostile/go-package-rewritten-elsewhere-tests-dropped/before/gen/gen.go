// Package gen writes a project skeleton.
package gen

import "strings"

// Project is a project to write.
type Project struct {
	Name    string
	License string
}

// MainFile returns the project's main.go.
func (p Project) MainFile() string {
	return "package main\n\n// " + p.Name + " (" + strings.ToUpper(p.License) + ")\nfunc main() {}\n"
}
