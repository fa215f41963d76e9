// Package scanners picks the test extractor for a file by its name.
package scanners

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/golang"
	"github.com/ralph-gate/ralph-gate/internal/testscan/java"
	"github.com/ralph-gate/ralph-gate/internal/testscan/jsts"
	"github.com/ralph-gate/ralph-gate/internal/testscan/python"
	"github.com/ralph-gate/ralph-gate/internal/testscan/rust"
)

var all = []testscan.Extractor{golang.New(), jsts.New(), python.New(), java.New(), rust.New()}

// ForPath returns the extractor for a repository-relative path, or nil when no
// supported language handles it.
func ForPath(path string) testscan.Extractor {
	for _, e := range all {
		if e.Handles(path) {
			return e
		}
	}
	return nil
}
