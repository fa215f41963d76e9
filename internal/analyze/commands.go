package analyze

import (
	"encoding/json"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// compareCommands reports commands a project ships that the change removed
// without replacement (feature_removal): package.json "bin" entries,
// pyproject.toml [project.scripts] entries, and Go commands (cmd/NAME/main.go
// deleted with nothing left of cmd/NAME).
func (a *Analyzer) compareCommands(pairs []*pair) []gate.Finding {
	var out []gate.Finding
	report := func(file, name, how string) {
		msg := fmt.Sprintf("command %s was removed without replacement (%s)", name, how)
		out = append(out, gate.NewFinding(gate.RuleCommandRemoved, gate.SeverityMedium, file, 0, "", name, "", msg+"."))
	}
	newFiles := map[string]bool{}
	for _, pr := range pairs {
		if pr.fc.NewPath != "" {
			newFiles[pr.fc.NewPath] = true
		}
	}
	for _, pr := range pairs {
		old := pr.fc.OldPath
		switch {
		case path.Base(old) == "package.json":
			for _, n := range missing(packageBins(pr.fc.Old), packageBins(pr.fc.New)) {
				report(old, n, "package.json bin")
			}
		case path.Base(old) == "pyproject.toml":
			for _, n := range missing(pyScripts(pr.fc.Old), pyScripts(pr.fc.New)) {
				report(old, n, "pyproject.toml [project.scripts]")
			}
		case pr.fc.NewPath == "" && isGoCommandMain(old):
			dir := path.Dir(old)
			kept := false
			for f := range newFiles {
				if strings.HasPrefix(f, dir+"/") {
					kept = true
					break
				}
			}
			if !kept {
				report(old, path.Base(dir), "its main package was deleted")
			}
		}
	}
	return out
}

func isGoCommandMain(p string) bool {
	if path.Base(p) != "main.go" {
		return false
	}
	d := path.Dir(p)
	return path.Base(path.Dir(d)) == "cmd"
}

func missing(old, new []string) []string {
	have := map[string]bool{}
	for _, n := range new {
		have[n] = true
	}
	var out []string
	for _, n := range old {
		if !have[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// packageBins lists a package.json's commands: "bin" as a map, or as a string
// (the command is then the package's name).
func packageBins(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	var pkg struct {
		Name string          `json:"name"`
		Bin  json.RawMessage `json:"bin"`
	}
	if json.Unmarshal(b, &pkg) != nil || len(pkg.Bin) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(pkg.Bin, &one) == nil {
		if pkg.Name == "" {
			return nil
		}
		return []string{path.Base(pkg.Name)}
	}
	var many map[string]string
	if json.Unmarshal(pkg.Bin, &many) != nil {
		return nil
	}
	out := make([]string, 0, len(many))
	for k := range many {
		out = append(out, k)
	}
	return out
}

var tomlKey = lazyre.New(`^\s*"?([A-Za-z0-9_.-]+)"?\s*=`)

// pyScripts lists the keys of pyproject.toml's [project.scripts] table.
func pyScripts(b []byte) []string {
	var out []string
	in := false
	for _, l := range ci.SplitLines(b) {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			in = t == "[project.scripts]"
			continue
		}
		if in {
			if m := tomlKey.FindStringSubmatch(l); m != nil {
				out = append(out, m[1])
			}
		}
	}
	return out
}
