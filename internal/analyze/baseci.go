package analyze

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// baseCI is what the CI of a change's base runs, read once on first use:
// the questions about the project's gate that the change's own files cannot
// answer.
type baseCI struct {
	load func() []Source
	once sync.Once
	// goRuns are the `go test` commands CI runs whose failure fails it,
	// with the file that runs each.
	goRuns []ciRun
	files  []Source
}

// ciRun is one check command CI runs, and where.
type ciRun struct {
	file, text string
	// shortEnv says the file sets GOFLAGS with -short.
	shortEnv bool
}

// goflagsShort finds GOFLAGS given -short (an env block, an export).
var goflagsShort = regexp.MustCompile(`GOFLAGS\W[^\n]*-short`)

func ciRuns(load func() []Source) *baseCI { return &baseCI{load: load} }

func (c *baseCI) read() {
	c.once.Do(func() {
		if c.load == nil {
			return
		}
		c.files = c.load()
		for _, src := range c.files {
			kind := classify(src.Path)
			if kind == notConfig && shellShebang(src.Data) {
				kind = buildScript // .ci/run, scripts/test
			}
			f := readCI(src.Path, src.Data, kind)
			if f == nil || f.err != nil {
				continue
			}
			// GOFLAGS set to -short in the file reaches every go test in it;
			// in a Makefile a variable may carry -short into any recipe.
			shortEnv := goflagsShort.Match(src.Data) || kind == buildScript && !shellShebang(src.Data) && bytes.Contains(src.Data, []byte("-short"))
			for _, r := range f.runs {
				if r.key == "go test" && f.reached[r] {
					c.goRuns = append(c.goRuns, ciRun{file: src.Path, text: r.text, shortEnv: shortEnv})
				}
			}
		}
	})
}

// goFull returns the CI file that runs Go's tests without -short (a run
// that gates, whatever testing.Short() guards), or "" when CI runs them
// only in short mode, not at all, or the base's CI is unknown: then a
// short guard skips what gates.
func (c *baseCI) goFull() string {
	if c == nil {
		return ""
	}
	c.read()
	for _, r := range c.goRuns {
		if r.shortEnv || strings.Contains(r.text, "-short") || strings.Contains(r.text, "$") {
			continue
		}
		return r.file
	}
	return ""
}

// sources returns the base's CI files (none when unknown).
func (c *baseCI) sources() []Source {
	if c == nil {
		return nil
	}
	c.read()
	return c.files
}
