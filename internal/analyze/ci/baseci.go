package ci

import (
	"bytes"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Base is what the CI of a change's base runs, read on first use: the
// questions about the project's gate that the change's own files cannot
// answer.
type Base struct {
	load  func() []Source
	once  sync.Once
	files []Source
	// full is goFull's answer, found once: most changes that read the
	// base's CI files (ciWorlds) never ask it, and reading the checks of
	// every file for it was a fifth of a commit that edits a workflow.
	fullOnce sync.Once
	full     string
	// platforms is Platforms' answer, found once.
	platOnce  sync.Once
	platforms map[string]string
}

// ciRun is one check command CI runs, and where.
type ciRun struct {
	file, text string
	// shortEnv says the file sets GOFLAGS with -short.
	shortEnv bool
}

// goflagsShort finds GOFLAGS given -short (an env block, an export).
var goflagsShort = lazyre.New(`GOFLAGS\W[^\n]*-short`)

func BaseRuns(load func() []Source) *Base { return &Base{load: load} }

func (c *Base) read() {
	c.once.Do(func() {
		if c.load != nil {
			c.files = c.load()
		}
	})
}

// goTestRuns are the `go test` runs of a CI file that CI reaches, read once
// per path and text: the commits of a range that touch CI read their
// bases' CI files, mostly the same versions.
func goTestRuns(p string, data []byte) []ciRun {
	return goRunsMemo.getString(p+"\x00"+string(data), func() []ciRun {
		kind := Classify(p)
		if kind == NotConfig && shellShebang(data) {
			kind = BuildScript // .ci/run, scripts/test
		}
		f := readCI(p, data, kind)
		if f == nil || f.err != nil {
			return nil
		}
		// GOFLAGS set to -short in the file reaches every go test in it;
		// in a Makefile a variable may carry -short into any recipe.
		shortEnv := goflagsShort.Match(data) || kind == BuildScript && !shellShebang(data) && bytes.Contains(data, []byte("-short"))
		var out []ciRun
		for _, r := range f.runs {
			if r.key == "go test" && f.reached[r] {
				out = append(out, ciRun{file: p, text: r.text, shortEnv: shortEnv})
			}
		}
		return out
	})
}

// goRunsMemo holds goTestRuns by path and text.
var goRunsMemo textMemo[[]ciRun]

// GoFull returns the CI file that runs Go's tests without -short (a run
// that gates, whatever testing.Short() guards), or "" when CI runs them
// only in short mode, not at all, or the base's CI is unknown: then a
// short guard skips what gates.
func (c *Base) GoFull() string {
	if c == nil {
		return ""
	}
	c.fullOnce.Do(func() {
		for _, src := range c.sources() {
			for _, r := range goTestRuns(src.Path, src.Data) {
				if r.shortEnv || strings.Contains(r.text, "-short") || strings.Contains(r.text, "$") {
					continue
				}
				c.full = r.file
				return
			}
		}
	})
	return c.full
}

// Platforms returns the operating systems the base's GitHub workflows run
// their jobs on ("linux", "windows", "darwin"), each with the workflow that
// names it: each job's `runs-on:`, once per combination of its matrix when
// it has one. It is nil when no workflow names one, or when a job runs on
// a machine whose name does not tell its system (self-hosted, a label, an
// expression the matrix does not fill).
func (c *Base) Platforms() map[string]string {
	if c == nil {
		return nil
	}
	c.platOnce.Do(func() {
		out := map[string]string{}
		for _, src := range c.sources() {
			if !strings.HasPrefix(src.Path, ".github/workflows/") {
				continue
			}
			var doc yaml.Node
			if yaml.Unmarshal(src.Data, &doc) != nil || len(doc.Content) == 0 {
				return // unreadable: unknown
			}
			jobs := mapGet(doc.Content[0], "jobs")
			if jobs == nil || jobs.Kind != yaml.MappingNode {
				continue
			}
			for i := 1; i < len(jobs.Content); i += 2 {
				job := jobs.Content[i]
				variants := []*yaml.Node{job}
				if combos := matrixCombos(job); combos != nil {
					variants = variants[:0]
					for _, cb := range combos {
						variants = append(variants, withMatrix(job, cb.values))
					}
				}
				for _, v := range variants {
					if mapGet(v, "runs-on") == nil {
						continue // a reusable workflow's call
					}
					os := runnerSystem(strings.ToLower(strings.Join(yamlStrings(mapGet(v, "runs-on"), nil), " ")))
					if os == "" {
						return // a machine of no known system: unknown
					}
					out[os] = src.Path
				}
			}
		}
		if len(out) > 0 {
			c.platforms = out
		}
	})
	return c.platforms
}

// runnerSystem is the operating system of a GitHub runner's labels
// (ubuntu-latest, windows-2022, macos-14), "" when they do not say.
func runnerSystem(labels string) string {
	switch {
	case strings.Contains(labels, "${{"):
		return ""
	case strings.Contains(labels, "ubuntu") || strings.Contains(labels, "linux"):
		return "linux"
	case strings.Contains(labels, "windows"):
		return "windows"
	case strings.Contains(labels, "macos"):
		return "darwin"
	}
	return ""
}

// sources returns the base's CI files (none when unknown).
func (c *Base) sources() []Source {
	if c == nil {
		return nil
	}
	c.read()
	return c.files
}
