package analyze

import (
	"fmt"
	"go/build/constraint"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// compareConstraints reports a Go test file that `go test` built at BASE and
// no longer builds by default at HEAD: a build constraint only a custom tag
// satisfies (//go:build ignore, //go:build integration) takes every test of
// the file out of the runner's reach without deleting a line of them. A
// platform constraint (//go:build linux, !windows) keeps it built somewhere
// and stays quiet.
func (a *Analyzer) compareConstraints(pairs []*pair) []gate.Finding {
	var out []gate.Finding
	for _, pr := range pairs {
		if pr.old == nil || pr.new == nil || pr.old.facts == nil || pr.new.facts == nil || !pr.new.isTest ||
			!strings.HasSuffix(pr.new.path, "_test.go") {
			continue
		}
		oc, nc := pr.old.facts.Constraint, pr.new.facts.Constraint
		if oc == nc || !builtByDefault(oc) || builtByDefault(nc) {
			continue
		}
		// The message names the file, not its tests: a masked analysis
		// (MaskUnchanged) does not read the unchanged test functions.
		msg := fmt.Sprintf("%s now builds only under //go:build %s, which no default go test run sets: none of its tests runs any more", pr.new.path, nc)
		out = append(out, gate.NewFinding(gate.RuleBuildConstraint, gate.SeverityHigh, pr.new.path, 1, "", "", "go:build "+nc, msg+"."))
	}
	return out
}

// builtByDefault reports whether `go test` builds a file with this
// constraint on some common platform without extra tags.
func builtByDefault(expr string) bool {
	if expr == "" {
		return true
	}
	x, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return true // unreadable: not this rule's to judge
	}
	for _, p := range [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"freebsd", "amd64"}} {
		goos, goarch := p[0], p[1]
		ok := x.Eval(func(tag string) bool {
			switch {
			case tag == goos || tag == goarch || tag == "gc" || tag == "cgo":
				return true
			case tag == "unix":
				return goos != "windows"
			case strings.HasPrefix(tag, "go1."):
				return true
			}
			return false
		})
		if ok {
			return true
		}
	}
	return false
}
