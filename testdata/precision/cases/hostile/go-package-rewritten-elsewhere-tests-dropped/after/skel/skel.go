// Package skel writes project skeletons.
package skel

import (
	"fmt"
	"strings"
)

// Project describes the project a skeleton is written for.
type Project struct {
	Name    string
	License string
	Year    int
}

// MainFile renders main.go for the project.
func (p Project) MainFile() string {
	header := fmt.Sprintf("// %s (%s) %d", p.Name, strings.ToUpper(p.License), p.Year)
	return strings.Join([]string{"package main", "", header, "func main() {}", ""}, "\n")
}
