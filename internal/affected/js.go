package affected

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Files reads one commit's tree (BASE's).
type Files interface {
	// Read returns a file's content; ok is false when it is absent.
	Read(name string) (b []byte, ok bool, err error)
	// Dirs lists the directories directly inside dir ("." for the root),
	// as slash paths from the root.
	Dirs(dir string) ([]string, error)
	// Walk calls fn with the path of every file below dir, skipping
	// node_modules directories.
	Walk(dir string, fn func(name string) error) error
}

// Workspace is one package of a JavaScript workspace.
type Workspace struct {
	Name string
	Dir  string
	// Deps are the names of the workspace's dependencies of every kind, and
	// of the other workspaces its files name in quotes (an undeclared
	// dependency, which a hoisted node_modules resolves all the same).
	Deps []string
	// ReachesOut is set when a file of the workspace names a parent
	// directory ("../"): it may import or read any file of the repository,
	// so it is affected by every change.
	ReachesOut bool
}

type workspacePackageJSON struct {
	Name       string          `json:"name"`
	Workspaces json.RawMessage `json:"workspaces"`
	// Every dependency kind: a workspace can be any of them.
	Dependencies         map[string]any `json:"dependencies"`
	DevDependencies      map[string]any `json:"devDependencies"`
	PeerDependencies     map[string]any `json:"peerDependencies"`
	OptionalDependencies map[string]any `json:"optionalDependencies"`
}

// maxWorkspaceDepth bounds a "**" pattern's walk.
const maxWorkspaceDepth = 6

// Workspaces reads the workspaces of a JavaScript project: package.json's
// "workspaces" (an array, or {"packages": [...]}) and pnpm-workspace.yaml's
// "packages". None (nil, nil) when the project declares none.
func Workspaces(fs Files) ([]Workspace, error) {
	var patterns []string
	b, ok, err := fs.Read("package.json")
	if err != nil {
		return nil, err
	}
	if ok {
		var root workspacePackageJSON
		if err := json.Unmarshal(b, &root); err != nil {
			return nil, fmt.Errorf("package.json: %w", err)
		}
		if len(root.Workspaces) > 0 && string(root.Workspaces) != "null" {
			var list []string
			var obj struct {
				Packages []string `json:"packages"`
			}
			if err := json.Unmarshal(root.Workspaces, &list); err != nil {
				if err := json.Unmarshal(root.Workspaces, &obj); err != nil {
					return nil, fmt.Errorf("package.json: workspaces is neither a list nor {\"packages\": [...]}")
				}
				list = obj.Packages
			}
			patterns = append(patterns, list...)
		}
	}
	if b, ok, err := fs.Read("pnpm-workspace.yaml"); err != nil {
		return nil, err
	} else if ok {
		var y struct {
			Packages []string `yaml:"packages"`
		}
		if err := yaml.Unmarshal(b, &y); err != nil {
			return nil, fmt.Errorf("pnpm-workspace.yaml: %w", err)
		}
		patterns = append(patterns, y.Packages...)
	}
	if len(patterns) == 0 {
		return nil, nil
	}
	dirs := map[string]bool{}
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.Trim(strings.TrimPrefix(strings.TrimPrefix(p, "!"), "./"), "/")
		if p == "" || strings.HasPrefix(p, "..") {
			continue
		}
		matched, err := globDirs(fs, ".", strings.Split(p, "/"), 0)
		if err != nil {
			return nil, err
		}
		for _, d := range matched {
			if neg {
				delete(dirs, d)
			} else {
				dirs[d] = true
			}
		}
	}
	var out []Workspace
	for d := range dirs {
		b, ok, err := fs.Read(d + "/package.json")
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		var pj workspacePackageJSON
		if err := json.Unmarshal(b, &pj); err != nil {
			return nil, fmt.Errorf("%s/package.json: %w", d, err)
		}
		w := Workspace{Name: pj.Name, Dir: d}
		for _, m := range []map[string]any{pj.Dependencies, pj.DevDependencies, pj.PeerDependencies, pj.OptionalDependencies} {
			for name := range m {
				w.Deps = append(w.Deps, name)
			}
		}
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	if err := readReferences(fs, out); err != nil {
		return nil, err
	}
	for i := range out {
		sort.Strings(out[i].Deps)
		out[i].Deps = slices.Compact(out[i].Deps)
	}
	return out, nil
}

// sourceExts are the files whose references readReferences looks for.
var sourceExts = map[string]bool{".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".mjs": true, ".cjs": true,
	".mts": true, ".cts": true, ".vue": true, ".svelte": true, ".json": true}

// maxReferenceBytes bounds a file read for references; a larger one counts
// as reaching out.
const maxReferenceBytes = 4 << 20

// readReferences reads every source file of each workspace for what its
// package.json does not declare: a parent directory ("../", which a relative
// import out of the workspace needs) and another workspace's name in quotes
// ('a', "a/sub"). It over-approximates on purpose (a comment counts): a
// reference too many costs a run, one too few a missed regression.
func readReferences(fs Files, ws []Workspace) error {
	var names []string
	for _, w := range ws {
		if w.Name != "" {
			names = append(names, w.Name)
		}
	}
	for i := range ws {
		w := &ws[i]
		err := fs.Walk(w.Dir, func(name string) error {
			if !sourceExts[path.Ext(name)] || path.Base(name) == "package.json" {
				return nil
			}
			b, ok, err := fs.Read(name)
			if err != nil || !ok || len(b) > maxReferenceBytes {
				w.ReachesOut = true
				return err
			}
			if bytes.Contains(b, []byte("../")) || bytes.Contains(b, []byte(`..\`)) {
				w.ReachesOut = true
			}
			for _, n := range names {
				if n != w.Name && quotesName(b, n) {
					w.Deps = append(w.Deps, n)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// quotesName reports whether b holds name in quotes, alone or as the first
// part of a path: 'a', "a/x", `a`.
func quotesName(b []byte, name string) bool {
	for _, q := range []string{"'", `"`, "`"} {
		for _, end := range []string{q, "/"} {
			if bytes.Contains(b, []byte(q+name+end)) {
				return true
			}
		}
	}
	return false
}

// globDirs matches the directories of a workspace pattern's segments under
// dir.
func globDirs(fs Files, dir string, segs []string, depth int) ([]string, error) {
	if len(segs) == 0 {
		return []string{dir}, nil
	}
	if depth > maxWorkspaceDepth {
		return nil, nil
	}
	seg := segs[0]
	if seg == "**" {
		out, err := globDirs(fs, dir, segs[1:], depth)
		if err != nil {
			return nil, err
		}
		subs, err := fs.Dirs(dir)
		if err != nil {
			return nil, err
		}
		for _, s := range subs {
			if path.Base(s) == "node_modules" {
				continue
			}
			more, err := globDirs(fs, s, segs, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		}
		return out, nil
	}
	subs, err := fs.Dirs(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range subs {
		if ok, _ := path.Match(seg, path.Base(s)); !ok || path.Base(s) == "node_modules" {
			continue
		}
		more, err := globDirs(fs, s, segs[1:], depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// AffectedWorkspaces returns the workspaces changed can affect: the ones a
// changed file is in, and every workspace that depends on one of those,
// directly or not. A file outside every workspace (the root package.json,
// a lockfile, a shared configuration) affects everything.
func AffectedWorkspaces(ws []Workspace, changed []string) Scope {
	hit := map[int]bool{}
	for _, f := range changed {
		owner := -1
		for i, w := range ws {
			if strings.HasPrefix(f, w.Dir+"/") && (owner < 0 || len(w.Dir) > len(ws[owner].Dir)) {
				owner = i
			}
		}
		if owner < 0 {
			return Scope{All: true, Why: f + " changed outside every workspace"}
		}
		hit[owner] = true
	}
	byName := map[string]int{}
	for i, w := range ws {
		if w.Name != "" {
			byName[w.Name] = i
		}
	}
	rdeps := map[int][]int{}
	for i, w := range ws {
		for _, d := range w.Deps {
			if j, ok := byName[d]; ok {
				rdeps[j] = append(rdeps[j], i)
			}
		}
	}
	spread(hit, rdeps)
	var s Scope
	for i, w := range ws {
		if hit[i] || w.ReachesOut {
			s.Dirs = append(s.Dirs, w.Dir)
			s.Units = append(s.Units, orName(w))
		}
	}
	sort.Strings(s.Units)
	return s
}

func orName(w Workspace) string {
	if w.Name != "" {
		return w.Name
	}
	return w.Dir
}

// AffectedPython returns the Python tests changed can affect, by path: a
// changed test file (test_*.py, *_test.py) is run itself, a changed
// conftest.py runs the tests of its directory; any other change (the code
// under test, which any test may import, a configuration, a data file)
// affects everything, and so does a changed test file whose module name
// another Python file of BASE's tree mentions (a test importing another's
// helpers).
func AffectedPython(fs Files, changed []string) (Scope, error) {
	var s Scope
	seen := map[string]bool{}
	var stems []string
	for _, f := range changed {
		base := path.Base(f)
		switch {
		case base == "conftest.py" && path.Dir(f) != ".":
			if !seen[path.Dir(f)] {
				seen[path.Dir(f)] = true
				s.Dirs = append(s.Dirs, path.Dir(f))
			}
		case strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")):
			if !seen[f] {
				seen[f] = true
				s.Dirs = append(s.Dirs, f)
				stems = append(stems, strings.TrimSuffix(base, ".py"))
			}
		default:
			return Scope{All: true, Why: f + " changed, and any test may import or read it"}, nil
		}
	}
	if len(stems) > 0 {
		var why string
		err := fs.Walk(".", func(name string) error {
			if why != "" || !strings.HasSuffix(name, ".py") {
				return nil
			}
			b, ok, err := fs.Read(name)
			if err != nil || !ok {
				return err
			}
			for _, stem := range stems {
				if strings.TrimSuffix(path.Base(name), ".py") != stem && containsWord(b, stem) {
					why = name + " mentions " + stem + ", a changed test module"
				}
			}
			return nil
		})
		if err != nil {
			return Scope{}, err
		}
		if why != "" {
			return Scope{All: true, Why: why}, nil
		}
	}
	// A directory covers the files below it.
	sort.Strings(s.Dirs)
	var kept []string
	for _, d := range s.Dirs {
		covered := false
		for _, k := range kept {
			if strings.HasPrefix(d, k+"/") {
				covered = true
			}
		}
		if !covered {
			kept = append(kept, d)
		}
	}
	s.Dirs = kept
	s.Units = kept
	return s, nil
}

// containsWord reports whether b holds w with no identifier byte on either
// side.
func containsWord(b []byte, w string) bool {
	ident := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(w))
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(w)
		if (at == 0 || !ident(b[at-1])) && (end == len(b) || !ident(b[end])) {
			return true
		}
		i = at + 1
	}
}
