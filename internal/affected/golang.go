// Package affected works out which tests a change can affect: the Go
// packages that depend on what changed (from go list's import graph), the
// JavaScript workspaces that depend on a changed workspace, and the Python
// test files a change touches. Everything is affected when a file they all
// share changes (go.mod, a lockfile, a runner's configuration).
//
// The graph is always BASE's. A change edits import edges only in the
// packages whose files it changes, and those are affected themselves, so a
// package that depends on a changed package at HEAD already did at BASE,
// through a chain of edges ending in a changed package (see Go.Affected).
// The agent's tree never decides what is measured.
package affected

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// GoPackage is one package of the build as go list sees it at BASE.
type GoPackage struct {
	ImportPath string `json:"import_path"`
	// Dir is the package's directory, slash-separated and relative to the
	// repository root; "." for the root; empty when outside the repository
	// (the module cache, GOROOT).
	Dir string `json:"dir,omitempty"`
	// Module is the directory of the package's module, relative to the
	// repository root like Dir; empty outside the repository.
	Module       string   `json:"module,omitempty"`
	Imports      []string `json:"imports,omitempty"`
	TestImports  []string `json:"test_imports,omitempty"`
	XTestImports []string `json:"xtest_imports,omitempty"`
	// Embeds are the files the package's code embeds (go:embed), slash
	// paths from the repository root: a change to one changes what its
	// importers are built from.
	Embeds []string `json:"embeds,omitempty"`
	// HasTests is set when the package has test files.
	HasTests bool `json:"has_tests,omitempty"`
	// Target is set for the packages ./... matched (the ones go test runs);
	// the others are their dependencies.
	Target bool `json:"target,omitempty"`
	// ReachesOut is set when a string literal in the package's Go files names
	// a parent directory (".." as a path element), when they ask for the
	// working directory or their own file name (os.Getwd, runtime.Caller),
	// when the package uses cgo, or when its directory holds a symbolic link:
	// its tests may read files anywhere in the repository, so it is affected
	// by every change.
	ReachesOut bool `json:"reaches_out,omitempty"`
	// CodeReachesOut is ReachesOut for the package's own code (not its
	// tests), which its importers' tests run too: they are affected by
	// every change as well.
	CodeReachesOut bool `json:"code_reaches_out,omitempty"`
}

// Go is the import graph of a Go build at one commit.
type Go struct {
	// Packages is sorted by import path.
	Packages []GoPackage `json:"packages"`
	// ModulePath is the main module's path, and Module its directory (".").
	ModulePath string `json:"module_path"`
}

// goListFields are the fields LoadGo asks go list for.
const goListFields = "ImportPath,Dir,Module,Imports,TestImports,XTestImports,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,EmbedFiles,DepOnly,Standard"

type goListPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	DepOnly    bool
	Module     *struct {
		Path, Dir string
		Main      bool
	}
	Imports      []string
	TestImports  []string
	XTestImports []string
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	EmbedFiles   []string
}

// LoadGo runs `go list -deps -e -json ./...` with the go command goBin in
// root, a checkout of BASE, with env as the environment (nil: the
// process's), and reads the import graph of the repository's packages. It
// runs no code of the repository: go list only reads files (-compiled and
// -export, which would run cgo and the compiler, are not used).
func LoadGo(ctx context.Context, goBin, root string, env []string) (*Go, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	cmd := exec.CommandContext(ctx, goBin, "list", "-deps", "-e", "-json="+goListFields, "./...")
	cmd.Dir = root
	if env != nil {
		cmd.Env = env
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("go list -deps ./...: %v: %s", err, firstLine(stderr.String()))
	}
	return readGoList(root, &out)
}

func readGoList(root string, r io.Reader) (*Go, error) {
	g := &Go{}
	dec := json.NewDecoder(r)
	for {
		var p goListPackage
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("go list -deps ./...: read its output: %w", err)
		}
		if p.Standard {
			continue
		}
		gp := GoPackage{ImportPath: p.ImportPath, Dir: inRepo(root, p.Dir), Target: !p.DepOnly,
			Imports: p.Imports, TestImports: p.TestImports, XTestImports: p.XTestImports}
		if p.Module != nil {
			gp.Module = inRepo(root, p.Module.Dir)
			if p.Module.Main && gp.Module == "." && g.ModulePath == "" {
				g.ModulePath = p.Module.Path
			}
		}
		if gp.Dir != "" {
			join := func(lists ...[]string) []string {
				var files []string
				for _, list := range lists {
					for _, f := range list {
						files = append(files, filepath.Join(p.Dir, f))
					}
				}
				return files
			}
			// cgo's #cgo lines can name headers anywhere; a symbolic link
			// in the directory reads through to anywhere.
			gp.CodeReachesOut = len(p.CgoFiles) > 0 || hasSymlink(p.Dir) || reachesOut(join(p.GoFiles))
			gp.ReachesOut = gp.CodeReachesOut || reachesOut(join(p.TestGoFiles, p.XTestGoFiles))
			gp.HasTests = len(p.TestGoFiles)+len(p.XTestGoFiles) > 0
			for _, e := range p.EmbedFiles {
				gp.Embeds = append(gp.Embeds, path.Join(gp.Dir, filepath.ToSlash(e)))
			}
		}
		g.Packages = append(g.Packages, gp)
	}
	sort.Slice(g.Packages, func(i, j int) bool { return g.Packages[i].ImportPath < g.Packages[j].ImportPath })
	return g, nil
}

// inRepo makes dir relative to root, slash-separated; "" when it is not
// inside root.
func inRepo(root, dir string) string {
	if dir == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// reachesOut reports whether a string literal in the files names a parent
// directory: "..", "../x", "a/../../b". A file that does not parse counts as
// reaching out.
func reachesOut(files []string) bool {
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return true
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, src, parser.SkipObjectResolution)
		if err != nil || fileReachesOut(file) {
			return true
		}
	}
	return false
}

// locators are the calls that find files by where the code or the process
// is rather than by a path in the source: runtime.Caller's file name and
// the working directory.
var locators = map[string][]string{"runtime": {"Caller", "Callers"}, "os": {"Getwd"}}

// fileReachesOut reports whether a file names a parent directory in a
// string literal or calls a locator.
func fileReachesOut(file *ast.File) bool {
	local := map[string]string{} // local name -> import path, for the locators' packages
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return true
		}
		if _, ok := locators[p]; !ok {
			continue
		}
		name := p
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = p
	}
	found := false
	ast.Inspect(file, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				v, err := strconv.Unquote(n.Value)
				found = err != nil || namesParent(v)
			}
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				for _, fn := range locators[local[id.Name]] {
					found = found || n.Sel.Name == fn
				}
			}
		}
		return !found
	})
	return found
}

// hasSymlink reports whether dir or a directory below it holds a symbolic
// link (an unreadable directory counts as holding one).
func hasSymlink(dir string) bool {
	found := false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found || err != nil
}

func namesParent(s string) bool {
	for _, e := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if e == ".." {
			return true
		}
	}
	return false
}

// Scope is what a change affects for one test runner.
type Scope struct {
	// All is set when everything is affected; Why says which file made it so.
	All bool
	Why string
	// Dirs are the affected packages' (or workspaces', or test files')
	// paths, slash-separated from the repository root, sorted.
	Dirs []string
	// Units are the affected packages' import paths (Go), workspace names
	// (JavaScript) or test paths (Python), sorted.
	Units []string
}

// goShared are the files that change every package's build.
var goShared = map[string]bool{"go.mod": true, "go.sum": true, "go.work": true, "go.work.sum": true}

// Affected returns the target packages changed can affect: the packages
// that own a changed file (the file is in the package's directory or below
// it, as testdata is); when the file is one the package's importers are
// built from (a non-test source file, an embedded file), every package that
// imports it, directly or not, or whose tests do; and the packages that
// reach out of their directory. changed are slash paths from the repository root, old and new
// names of renames both. A changed go.mod, go.sum, go.work or vendored file
// affects everything. A .go file in a directory with no package at BASE is a
// new package: its directory is affected (the caller drops it at an end
// where it has no Go files).
func (g *Go) Affected(changed []string) Scope {
	byDir := map[string][]int{}
	byPath := map[string]int{}
	for i, p := range g.Packages {
		byPath[p.ImportPath] = i
		if p.Dir != "" {
			byDir[p.Dir] = append(byDir[p.Dir], i)
		}
	}
	// seed: what the package's importers are built from changed; read: a
	// file only the package's own tests can see (its test files, testdata,
	// a file below it).
	seed, read := map[int]bool{}, map[int]bool{}
	newDirs := map[string]bool{}
	for _, f := range changed {
		base := path.Base(f)
		if goShared[base] {
			return Scope{All: true, Why: f + " changed"}
		}
		if f == "vendor" || strings.HasPrefix(f, "vendor/") || strings.Contains(f, "/vendor/") {
			return Scope{All: true, Why: f + " (vendored) changed"}
		}
		owned := false
		for d := path.Dir(f); ; d = path.Dir(d) {
			for _, i := range byDir[d] {
				owned = true
				if builtFrom(g.Packages[i], f) {
					seed[i] = true
				} else {
					read[i] = true
				}
			}
			if d == "." || d == "/" {
				break
			}
		}
		if !owned && strings.HasSuffix(f, ".go") {
			newDirs[path.Dir(f)] = true
		}
	}
	// Everything that imports a seed package, directly or not.
	rdeps := map[int][]int{}
	for i, p := range g.Packages {
		for _, imp := range p.Imports {
			if j, ok := byPath[imp]; ok {
				rdeps[j] = append(rdeps[j], i)
			}
		}
	}
	hit := maps.Clone(seed)
	for i, p := range g.Packages {
		if p.CodeReachesOut {
			hit[i] = true
		}
	}
	spread(hit, rdeps)
	var s Scope
	dirs := map[string]bool{}
	for i, p := range g.Packages {
		if !p.Target || p.Dir == "" {
			continue
		}
		affected := hit[i] || read[i] || p.ReachesOut
		for _, imp := range append(append([]string(nil), p.TestImports...), p.XTestImports...) {
			if j, ok := byPath[imp]; ok && hit[j] {
				affected = true
			}
		}
		if affected {
			s.Units = append(s.Units, p.ImportPath)
			dirs[p.Dir] = true
		}
	}
	for d := range newDirs {
		if g.ModulePath == "" || strings.HasPrefix(d, "..") {
			continue
		}
		s.Units = append(s.Units, path.Join(g.ModulePath, d))
		dirs[d] = true
	}
	for d := range dirs {
		s.Dirs = append(s.Dirs, d)
	}
	sort.Strings(s.Dirs)
	sort.Strings(s.Units)
	return s
}

// Inputs lists what a target package's tests are built from inside the
// repository: the directories of the package and of every in-repository
// package its code and tests import, directly or not, and the modules'
// directories (for their go.mod and go.sum). A package that reaches out
// gets "." (the whole tree). ok is false for a package not in the graph.
func (g *Go) Inputs(importPath string) (dirs, modules []string, ok bool) {
	byPath := map[string]int{}
	for i, p := range g.Packages {
		byPath[p.ImportPath] = i
	}
	start, ok := byPath[importPath]
	if !ok {
		return nil, nil, false
	}
	if g.Packages[start].ReachesOut {
		return []string{"."}, []string{"."}, true
	}
	seen := map[int]bool{start: true}
	queue := []int{start}
	first := true
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		p := g.Packages[i]
		imps := p.Imports
		if first {
			imps = append(append(append([]string(nil), p.Imports...), p.TestImports...), p.XTestImports...)
			first = false
		}
		for _, imp := range imps {
			if j, ok := byPath[imp]; ok && !seen[j] && g.Packages[j].Dir != "" {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	dset, mset := map[string]bool{}, map[string]bool{}
	for i := range seen {
		p := g.Packages[i]
		dset[p.Dir] = true
		if p.Module != "" {
			mset[p.Module] = true
		}
		if p.ReachesOut {
			dset["."] = true
		}
	}
	for d := range dset {
		dirs = append(dirs, d)
	}
	for m := range mset {
		modules = append(modules, m)
	}
	sort.Strings(dirs)
	sort.Strings(modules)
	return dirs, modules, true
}

// goSourceExts are the files go build compiles or links into a package.
var goSourceExts = map[string]bool{".go": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true,
	".hh": true, ".hpp": true, ".hxx": true, ".m": true, ".s": true, ".S": true, ".sx": true, ".f": true, ".F": true,
	".for": true, ".f90": true, ".syso": true, ".swig": true, ".swigcxx": true}

// builtFrom reports whether a change to file f changes what package p's
// importers are built from: a source file of p's own directory that is not a
// test file, or a file p embeds, or one in a directory p embeds from (a new
// file there may match its pattern).
func builtFrom(p GoPackage, f string) bool {
	if path.Dir(f) == p.Dir && goSourceExts[path.Ext(f)] && !strings.HasSuffix(f, "_test.go") {
		return true
	}
	for _, e := range p.Embeds {
		if e == f || strings.HasPrefix(f, path.Dir(e)+"/") {
			return true
		}
	}
	return false
}

// spread adds to hit everything that depends on a hit node, directly or
// not; rdeps lists each node's dependents.
func spread(hit map[int]bool, rdeps map[int][]int) {
	queue := make([]int, 0, len(hit))
	for i := range hit {
		queue = append(queue, i)
	}
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, j := range rdeps[i] {
			if !hit[j] {
				hit[j] = true
				queue = append(queue, j)
			}
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
