package pipeline

import (
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/jsts"

	"github.com/BurntSushi/toml"

	"golang.org/x/mod/modfile"

	"github.com/ralph-gate/ralph-gate/collectors"
	"github.com/ralph-gate/ralph-gate/internal/affected"
	"github.com/ralph-gate/ralph-gate/internal/analyze"
	"github.com/ralph-gate/ralph-gate/internal/collect"
	"github.com/ralph-gate/ralph-gate/internal/config"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/gitrepo"
	"github.com/ralph-gate/ralph-gate/internal/runner"
	"github.com/ralph-gate/ralph-gate/internal/testscan/rust"
	"github.com/ralph-gate/ralph-gate/internal/testscan/scanners"
)

// tamperCheck runs BASE's versions of the test files the range modified or
// deleted against HEAD's code. A test that passed at BASE and fails there, while
// HEAD's own run passes (or no longer has it), shows that the test edit covers a
// behaviour change: intended by the task, or a regression the edit hid. Either
// way a person decides, with both outcomes and the failure in front of them.
//
// It runs whenever the range edits existing tests, whether the ends were
// measured or read from reports: it needs only the collectors of the edited
// files' languages, narrowed to those files. When it cannot run, the status
// says why, and a reason that leaves the edit unchecked (no collector for the
// files, a failed run, BASE's tests not building against HEAD) is an
// unverified finding: never a silent pass.
func (c *comparison) tamperCheck(baseM, headM *collect.Measurement, static []gate.Finding) ([]gate.Finding, gate.TamperCheck, error) {
	opt := c.p.opt
	overlay, files, goChanged, err := c.tamperOverlay()
	if err != nil {
		return nil, gate.TamperCheck{}, err
	}
	if len(files) == 0 && len(goChanged) == 0 && len(c.jsSupport) == 0 {
		return nil, gate.TamperCheck{Reason: "the range modifies or deletes no existing test file"}, nil
	}
	switch {
	case opt.NoTamper:
		return nil, gate.TamperCheck{Reason: "switched off by --no-tamper-check", Files: files}, nil
	case opt.Config.Compare.TamperCheck != nil && !*opt.Config.Compare.TamperCheck:
		return nil, gate.TamperCheck{Reason: "switched off by compare.tamper_check: false in the configuration", Files: files}, nil
	case opt.Collect == "none":
		return nil, gate.TamperCheck{Reason: "collect is none: the tamper check runs tests, and nothing may run", Files: files}, nil
	}
	specs, err := c.collectorSpecs()
	if err != nil {
		return nil, gate.TamperCheck{}, err
	}
	support := c.goSupport(specs, goChanged, overlay)
	for f, targets := range c.jsSupport {
		if support == nil {
			support = map[string][]string{}
		}
		support[f] = targets
	}
	for f := range support {
		files = append(files, f)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, gate.TamperCheck{Reason: "the range modifies or deletes no existing test file or test support"}, nil
	}
	plan := planTamper(specs, files, overlay, support)
	var out []gate.Finding
	for _, f := range plan.uncovered {
		out = append(out, unverifiedTamper(f, "", "no collector runs it: "+plan.why(f)))
	}
	status := gate.TamperCheck{Files: plan.files, Collectors: plan.names()}
	if len(plan.files) == 0 {
		status.Reason = "no collector runs the edited test files (" + strings.Join(files, ", ") + ")"
		return out, status, nil
	}
	if len(plan.uncovered) > 0 {
		status.Reason = "not covered: " + strings.Join(plan.uncovered, ", ")
	}
	m, _, err := collect.MeasureOverlay(c.ctx, opt.Repo, opt.RepoDir, c.head, overlay, plan.specs, opt.Cache, c.runOptions("tamper"))
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, status, err
		}
		status.Reason = "the run failed: " + firstLine(err.Error())
		for _, f := range plan.files {
			out = append(out, unverifiedTamper(f, "", "the tamper check could not run: "+firstLine(err.Error())))
		}
		return out, status, nil
	}
	status.Ran = true
	if m.Result == nil || m.Result.Tests == nil || m.Result.Tests.Len() == 0 {
		for _, f := range plan.files {
			out = append(out, unverifiedTamper(f, "", "the tamper check ran but reported no test results"))
		}
		return out, status, nil
	}
	for _, b := range m.Result.BuildFailures {
		file := fileInPackage(plan.files, b.Package)
		out = append(out, unverifiedTamper(file, b.Package,
			fmt.Sprintf("BASE's version of the tests of %s does not build against HEAD's code, so the edit could not be checked: %s", b.Package, orText(buildError(b.Output), "no compiler output"))))
	}
	withSupport := ""
	if len(support) > 0 {
		names := make([]string, 0, len(support))
		for f := range support {
			names = append(names, f)
		}
		sort.Strings(names)
		withSupport = " (with BASE's test support: " + strings.Join(names, ", ") + ")"
	}
	var found []gate.Finding
	pins := &pinCheck{c: c}
	for t := range m.Result.Tests.All() {
		if t.Outcome != collectors.Failed && t.Outcome != collectors.Errored {
			continue
		}
		bt, inBase := baseM.Result.Tests.Get(t.ID)
		if !inBase || bt.Outcome != collectors.Passed {
			continue
		}
		ht, inHead := headM.Result.Tests.Get(t.ID)
		if inHead && ht.Outcome != collectors.Passed && ht.Outcome != collectors.Skipped {
			continue // failing at HEAD anyway: a test_regression, not hidden
		}
		file := t.File
		if file == "" {
			file = bt.File
		}
		if file == "" && len(plan.files) == 1 {
			file = plan.files[0]
		}
		why := orText(analyze.FailureLines(t.Message, 3), "no message")
		typ, headSays := gate.RuleTamperCheck.Type, "HEAD's edited version passes"
		if !inHead {
			typ, headSays = gate.TestDeletion, "HEAD no longer has it"
		} else if ht.Outcome == collectors.Skipped {
			headSays = "HEAD skips it"
		}
		sev, grade := gradeTamper(t, typ, headSays, static, baseM, headM, pins.pinned)
		msg := fmt.Sprintf("test %s passed at BASE; BASE's version of it%s fails against HEAD's code (%s), and %s: %s", t.ID, withSupport, clipText(why, 200), headSays, grade)
		found = append(found, gate.Finding{
			ID:       gate.MakeID(typ, gate.RuleTamperCheck.ID, file, t.ID, ""),
			Type:     typ,
			Severity: sev,
			File:     file,
			Test:     t.ID,
			Net:      true,
			Message:  msg + ".",
			Evidence: gate.EvidenceMeasured,
			Rule:     gate.RuleTamperCheck.ID,
		})
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Test < found[j].Test })
	return append(out, found...), status, nil
}

// unverifiedTamper is a tamper check that could not check a file: medium,
// since the edit may be innocent, but never nothing.
func unverifiedTamper(file, pkg, why string) gate.Finding {
	return gate.Finding{
		ID:       gate.MakeID(gate.RuleTamperCheckUnverified.Type, gate.RuleTamperCheckUnverified.ID, file, pkg, ""),
		Type:     gate.RuleTamperCheckUnverified.Type,
		Severity: gate.SeverityMedium,
		File:     file,
		Net:      true,
		Message:  fmt.Sprintf("the edit of %s was not checked against HEAD's code: %s.", orText(file, pkg), strings.TrimSuffix(why, ".")),
		Evidence: gate.EvidenceMeasured,
		Rule:     gate.RuleTamperCheckUnverified.ID,
	}
}

// tamperOverlay maps each test file BASE..HEAD modified, renamed or deleted to
// its BASE content (a renamed file's new path is removed, so no test is defined
// twice). goChanged are the other Go files it modified, renamed or deleted:
// test support, when only tests use them (goSupport).
func (c *comparison) tamperOverlay() (overlay map[string][]byte, files []string, goChanged []gitrepo.Change, err error) {
	opt := c.p.opt
	diff, err := c.rangeDiff()
	if err != nil {
		return nil, nil, nil, err
	}
	overlay = map[string][]byte{}
	var setup map[string]bool // BASE's JavaScript setup files, once needed
	for _, d := range diff {
		if d.From.Path == "" {
			continue // added files change nothing BASE had
		}
		ext := scanners.ForPath(d.From.Path)
		if ext == nil || opt.Config.Ignored(d.From.Path) {
			continue
		}
		if !ext.IsTestFile(d.From.Path) && jsSource(d.From.Path) {
			if setup == nil {
				setup = c.jsSetupFiles()
			}
			// A runner's setup file (custom matchers, global hooks) is
			// test support every test runs: BASE's version, the whole
			// suite.
			targets := []string{"."}
			if !setup[d.From.Path] {
				targets = c.jsTestOnly(d)
			}
			// tamperCheck adds the support files to the files it runs.
			if len(targets) > 0 && c.overlayBase(d, overlay) {
				if c.jsSupport == nil {
					c.jsSupport = map[string][]string{}
				}
				c.jsSupport[d.From.Path] = targets
				continue
			}
		}
		if !ext.IsTestFile(d.From.Path) {
			// A Rust source file whose unit tests changed: HEAD's code
			// with BASE's test modules spliced in.
			if spliced := c.rustTests(d); spliced != nil {
				overlay[d.To.Path] = spliced
				files = append(files, d.To.Path)
			} else if strings.HasSuffix(d.From.Path, ".rs") && c.rustDevSupport(d.From.Path) && c.overlayBase(d, overlay) {
				// A crate only tests depend on (a dev-dependency by path):
				// BASE's version, under the whole cargo test run.
				files = append(files, d.From.Path)
				continue
			}
			if strings.HasSuffix(d.From.Path, ".go") {
				goChanged = append(goChanged, d)
			}
			continue
		}
		if c.overlayBase(d, overlay) {
			files = append(files, d.From.Path)
		}
	}
	sort.Strings(files)
	return overlay, files, goChanged, nil
}

func jsSource(p string) bool {
	switch path.Ext(p) {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// maxJSFiles bounds the JavaScript files read at BASE for its imports.
const maxJSFiles = 20000

// jsImports is BASE's JavaScript import graph, read once: for each file,
// the files of the repository it imports by a relative path, and the
// specifiers it imports otherwise (packages, path aliases).
type jsImports struct {
	files   map[string]bool
	by      map[string][]string // imported file -> importers
	bare    map[string][]string // importer -> non-relative specifiers
	partial bool                // more files than maxJSFiles
}

// jsTestOnly returns, for a JavaScript or TypeScript source file that is
// test support at BASE, the test files that import it: the tamper check
// runs them with its BASE version. Test support is written against a test
// runner or assertion library (jsts.UsesTestRunner: the mark `import
// "testing"` is in Go) and only test files import it (a helper or matcher
// module under src/). nil when production code imports it, nothing does,
// or an import that may name it cannot be resolved (a path alias such as
// '@/test-utils/x').
func (c *comparison) jsTestOnly(d gitrepo.Change) []string {
	file := d.From.Path
	if b, err := c.p.opt.Repo.Blob(d.From.Hash); err != nil || !jsts.UsesTestRunner(file, b) {
		return nil
	}
	g := c.jsGraph()
	if g == nil || g.partial {
		return nil
	}
	stem := strings.TrimSuffix(path.Base(file), path.Ext(file))
	if stem == "index" {
		stem = path.Base(path.Dir(file))
	}
	for _, specs := range g.bare {
		for _, spec := range specs {
			if strings.Contains(spec, stem) {
				return nil // an alias or package path that may name it
			}
		}
	}
	ext := scanners.ForPath(file)
	users := g.by[file]
	for _, u := range users {
		if ext == nil || !ext.IsTestFile(u) {
			return nil // production code imports it
		}
	}
	return users
}

func (c *comparison) jsGraph() *jsImports {
	if c.jsImports != nil {
		return c.jsImports
	}
	g := &jsImports{files: map[string]bool{}, by: map[string][]string{}, bare: map[string][]string{}}
	c.jsImports = g
	all, err := c.tree(c.base)
	if err != nil {
		g.partial = true
		return g
	}
	var srcs []gitrepo.Entry
	for _, d := range all {
		if p := d.To.Path; jsSource(p) && !strings.Contains(p, "node_modules/") {
			if len(srcs) == maxJSFiles {
				g.partial = true
				return g
			}
			srcs = append(srcs, d.To)
			g.files[p] = true
		}
	}
	for _, e := range srcs {
		b, err := c.p.opt.Repo.Blob(e.Hash)
		if err != nil {
			g.partial = true
			return g
		}
		for _, spec := range jsts.ImportSpecifiers(e.Path, b) {
			if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
				g.bare[e.Path] = append(g.bare[e.Path], spec)
				continue
			}
			if to := jsResolve(path.Join(path.Dir(e.Path), spec), g.files); to != "" && !slices.Contains(g.by[to], e.Path) {
				g.by[to] = append(g.by[to], e.Path)
			}
		}
	}
	for _, us := range g.by {
		sort.Strings(us)
	}
	return g
}

// jsResolve names the file of the repository an import of spec (joined
// to the importer's directory) loads, as Node and bundlers resolve it: the
// path itself, with an extension added, TypeScript's './x.js' for x.ts, or
// a directory's index; "" when none.
func jsResolve(spec string, files map[string]bool) string {
	spec = path.Clean(spec)
	if files[spec] {
		return spec
	}
	exts := []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}
	for _, base := range []string{spec, strings.TrimSuffix(spec, path.Ext(spec))} {
		for _, x := range exts {
			if files[base+x] {
				return base + x
			}
		}
	}
	for _, x := range exts {
		if files[spec+"/index"+x] {
			return spec + "/index" + x
		}
	}
	return ""
}

// jsSetupFiles reads the setup files BASE's JavaScript runner
// configurations at the repository's root name (analyze.JSSetupFiles).
func (c *comparison) jsSetupFiles() map[string]bool {
	out := map[string]bool{}
	entries, err := c.p.opt.Repo.ListDir(c.base, "")
	if err != nil {
		return out
	}
	for _, e := range entries {
		b := path.Base(e.Path)
		if b != "package.json" && !strings.HasPrefix(b, "vitest.config.") && !strings.HasPrefix(b, "vite.config.") &&
			!strings.HasPrefix(b, "vitest.workspace.") && !strings.HasPrefix(b, "jest.config.") {
			continue
		}
		data, err := c.p.opt.Repo.Blob(e.Hash)
		if err != nil {
			continue
		}
		for _, f := range analyze.JSSetupFiles(e.Path, data) {
			out[f] = true
		}
	}
	return out
}

// overlayBase lays the BASE version of a changed file over HEAD (and
// removes a renamed file's new path, so nothing is defined twice); false,
// with a note, when BASE's version cannot be read.
func (c *comparison) overlayBase(d gitrepo.Change, overlay map[string][]byte) bool {
	b, err := c.p.opt.Repo.Blob(d.From.Hash)
	if err != nil {
		c.note(d.From.Path, "tamper check: BASE's version could not be read: "+err.Error())
		return false
	}
	overlay[d.From.Path] = b
	if d.To.Path != "" && d.To.Path != d.From.Path {
		overlay[d.To.Path] = nil
	}
	return true
}

// goSupport finds the Go test support among the Go files the range changed
// (see tamperOverlay): the files of a package of the repository that
// imports "testing" and that no non-test code of the repository imports at
// BASE (an assertion or helper package only tests use). Their BASE versions
// join the overlay, and the result maps each to the directories of the
// packages whose tests import it, which the tamper check runs whole. A
// package that imports "testing" but that production code imports too is
// production code: HEAD's version stays, and a note says so.
func (c *comparison) goSupport(specs []config.Collector, changed []gitrepo.Change, overlay map[string][]byte) map[string][]string {
	var spec *config.Collector
	for i := range specs {
		if specs[i].Tests && runnerOf(specs[i]) == runner.Go {
			spec = &specs[i]
			break
		}
	}
	if spec == nil {
		return nil
	}
	// Only a directory with non-test code that imports "testing" at BASE
	// can be test support: the import graph is read only then.
	changed = slices.DeleteFunc(slices.Clone(changed), func(d gitrepo.Change) bool { return !c.importsTesting(path.Dir(d.From.Path)) })
	if len(changed) == 0 {
		return nil
	}
	g, err := c.baseGraph(collect.ToolVersions(c.ctx, []config.Collector{*spec}))
	if err != nil {
		c.note("", "tamper check: BASE's Go import graph could not be read, so changed test support is not checked: "+firstLine(err.Error()))
		return nil
	}
	byDir := map[string]*affected.GoPackage{}
	for i := range g.Packages {
		if p := &g.Packages[i]; p.Dir != "" {
			byDir[p.Dir] = p
		}
	}
	replaced := c.localReplaces()
	out := map[string][]string{}
	for _, d := range changed {
		p := byDir[path.Dir(d.From.Path)]
		if p == nil {
			// A package of a module go.mod replaces with a directory of
			// the repository (replace example.com/assert => ./assert):
			// what only tests import is not in the build graph of ./...,
			// but its importers name it.
			p = replacedPackage(replaced, path.Dir(d.From.Path))
		}
		if p == nil || !slices.Contains(p.Imports, "testing") {
			continue
		}
		var users, prod []string
		for _, q := range g.Packages {
			if q.Dir == "" {
				continue
			}
			if slices.Contains(q.Imports, p.ImportPath) {
				prod = append(prod, q.ImportPath)
			}
			if slices.Contains(q.TestImports, p.ImportPath) || slices.Contains(q.XTestImports, p.ImportPath) {
				users = append(users, q.Dir)
			}
		}
		if len(prod) > 0 {
			c.note(d.From.Path, fmt.Sprintf("tamper check: %s is test support that production code imports too (%s): HEAD's version runs", d.From.Path, prod[0]))
			continue
		}
		if len(users) == 0 {
			continue
		}
		if !c.overlayBase(d, overlay) {
			continue
		}
		sort.Strings(users)
		out[d.From.Path] = users
	}
	return out
}

// rustTests returns, for a Rust source file both ends have whose inline
// test modules (`#[cfg(test)] mod tests { .. }`) the change edited, HEAD's
// file with BASE's test modules in their place; nil for any other file.
func (c *comparison) rustTests(d gitrepo.Change) []byte {
	if !strings.HasSuffix(d.From.Path, ".rs") || d.To.Path == "" {
		return nil
	}
	base, err := c.p.opt.Repo.Blob(d.From.Hash)
	if err != nil {
		return nil
	}
	head, err := c.p.opt.Repo.Blob(d.To.Hash)
	if err != nil || !rust.TestModulesDiffer(base, head) {
		return nil
	}
	spliced, ok := rust.SpliceTestModules(head, base)
	if !ok {
		c.note(d.To.Path, "tamper check: BASE's test modules could not be put into HEAD's version")
		return nil
	}
	return spliced
}

// rustDevSupport reports whether a Rust source file belongs, at BASE, to
// a crate that the repository's crates use only as a dev-dependency by
// path ([dev-dependencies] testkit = { path = "../testkit" }, or one
// inherited from [workspace.dependencies]): test support, like an
// assertion package only tests import. A crate some crate also depends on
// for its code is production code.
func (c *comparison) rustDevSupport(file string) bool {
	if c.rustDev == nil {
		c.rustDev = map[string]bool{}
		all, err := c.tree(c.base)
		if err != nil {
			return false
		}
		manifests := map[string]map[string]any{} // by directory
		for _, d := range all {
			if path.Base(d.To.Path) != "Cargo.toml" {
				continue
			}
			b, err := c.p.opt.Repo.Blob(d.To.Hash)
			if err != nil {
				continue
			}
			var m map[string]any
			if _, err := toml.Decode(string(b), &m); err == nil {
				manifests[path.Dir(d.To.Path)] = m
			}
		}
		// [workspace.dependencies] name the paths members inherit.
		inherited := map[string]string{}
		for dir, m := range manifests {
			ws, _ := m["workspace"].(map[string]any)
			for name, p := range cargoPathDeps(ws["dependencies"], dir, nil) {
				inherited[name] = p
			}
		}
		prod := map[string]bool{}
		for dir, m := range manifests {
			tables := []map[string]any{m}
			if targets, ok := m["target"].(map[string]any); ok {
				for _, t := range targets {
					if tm, ok := t.(map[string]any); ok {
						tables = append(tables, tm)
					}
				}
			}
			for _, t := range tables {
				for _, p := range cargoPathDeps(t["dev-dependencies"], dir, inherited) {
					c.rustDev[p] = true
				}
				for _, k := range []string{"dependencies", "build-dependencies"} {
					for _, p := range cargoPathDeps(t[k], dir, inherited) {
						prod[p] = true
					}
				}
			}
		}
		for d := range prod {
			delete(c.rustDev, d)
		}
	}
	for d := range c.rustDev {
		if d != "." && !strings.HasPrefix(d, "../") && strings.HasPrefix(file, d+"/") {
			return true
		}
	}
	return false
}

// cargoPathDeps reads a Cargo.toml dependency table's crates given by
// path, by name, as directories of the repository (the manifest is in
// dir); one inherited from the workspace (`workspace = true`) resolves
// through inherited.
func cargoPathDeps(table any, dir string, inherited map[string]string) map[string]string {
	deps, _ := table.(map[string]any)
	out := map[string]string{}
	for name, v := range deps {
		spec, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if p, ok := spec["path"].(string); ok && p != "" {
			out[name] = path.Clean(path.Join(dir, p))
		} else if ws, _ := spec["workspace"].(bool); ws && inherited[name] != "" {
			out[name] = inherited[name]
		}
	}
	return out
}

// localReplaces reads BASE's go.mod for modules replaced with a directory
// inside the repository: directory to module path.
func (c *comparison) localReplaces() map[string]string {
	b, err := c.p.opt.Repo.ReadFile(c.base, "go.mod")
	if err != nil {
		return nil
	}
	f, err := modfile.Parse("go.mod", b, nil)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, r := range f.Replace {
		if dir := r.New.Path; modfile.IsDirectoryPath(dir) && !path.IsAbs(dir) {
			if d := path.Clean(dir); d != ".." && !strings.HasPrefix(d, "../") {
				out[d] = r.Old.Path
			}
		}
	}
	return out
}

// replacedPackage names the package in dir when dir lies in a module
// that go.mod replaces with a directory of the repository (replaced:
// directory to module path), nil otherwise. It imports "testing" as
// importsTesting found.
func replacedPackage(replaced map[string]string, dir string) *affected.GoPackage {
	for root, mod := range replaced {
		if dir == root || strings.HasPrefix(dir, root+"/") {
			return &affected.GoPackage{Dir: dir, ImportPath: mod + strings.TrimPrefix(dir, root), Imports: []string{"testing"}}
		}
	}
	return nil
}

// importsTesting reports whether a non-test Go file of dir imports
// "testing" at BASE.
func (c *comparison) importsTesting(dir string) bool {
	if c.testingDirs == nil {
		c.testingDirs = map[string]bool{}
	}
	if v, ok := c.testingDirs[dir]; ok {
		return v
	}
	found := false
	entries, _ := c.p.opt.Repo.ListDir(c.base, dir)
	for _, e := range entries {
		if found || !strings.HasSuffix(e.Path, ".go") || strings.HasSuffix(e.Path, "_test.go") {
			continue
		}
		b, err := c.p.opt.Repo.Blob(e.Hash)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), e.Path, b, parser.ImportsOnly)
		if err != nil || f == nil {
			continue
		}
		for _, imp := range f.Imports {
			found = found || imp.Path.Value == `"testing"`
		}
	}
	c.testingDirs[dir] = found
	return found
}

// fileInPackage picks the edited file of a Go package ("example.com/m/calc"
// holds calc/x_test.go), or the only file.
func fileInPackage(files []string, pkg string) string {
	for _, f := range files {
		dir := f
		if i := strings.LastIndex(f, "/"); i >= 0 {
			dir = f[:i]
		} else {
			dir = ""
		}
		if dir != "" && (strings.HasSuffix(pkg, "/"+dir) || pkg == dir) {
			return f
		}
	}
	if len(files) == 1 {
		return files[0]
	}
	return ""
}

// buildError is the first compiler error of go's build output, without the
// "# pkg" header lines.
func buildError(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && l != "FAIL" {
			return l
		}
	}
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func orText(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// gradeTamper grades a tamper result by what the change did, so a person
// sees at once which ones need a look. High when the edit took the test
// away or made it weaker (HEAD deletes or skips it, or the static analysis
// saw its checks removed or loosened: a high finding on the same test), or
// when the range added no test beside it: an expectation rewritten to what
// HEAD's code now returns, with nothing new pinning the new behaviour, is the
// shape of a hidden regression. Medium when the edited test checks as much
// as before and the range added tests to its suite: the shape of a requested
// behaviour change, shown with both outcomes for a person to confirm.
func gradeTamper(t collectors.Test, typ gate.FindingType, headSays string, static []gate.Finding, baseM, headM *collect.Measurement, pinned func([]string) ([]string, string)) (gate.Severity, string) {
	if typ == gate.TestDeletion || strings.Contains(headSays, "skips") {
		return gate.SeverityHigh, "the edit took away a test that caught a behaviour change"
	}
	leaf := testLeaf(t.ID)
	for _, f := range static {
		if f.Net && f.Severity >= gate.SeverityHigh && f.Test != "" && testLeaf(f.Test) == leaf &&
			(f.Type == gate.AssertionWeakening || f.Type == gate.TestSkipping) {
			return gate.SeverityHigh, "the edit made the test weaker (" + f.Rule + ") where it caught a behaviour change"
		}
	}
	var added []string
	for h := range headM.Result.Tests.All() {
		if _, ok := baseM.Result.Tests.Get(h.ID); !ok && h.Suite == t.Suite && h.Outcome == collectors.Passed {
			added = append(added, h.ID)
		}
	}
	if len(added) == 0 {
		return gate.SeverityHigh, "the test edit hides a behaviour change and the range added no test for a new behaviour, the shape of a regression hidden by rewriting the expectation"
	}
	sort.Strings(added)
	// A new test pins a new behaviour only if BASE's code does not pass it:
	// one that passes there too (a trivial test added beside the edit) pins
	// nothing, and does not lower the grade.
	if pinned != nil {
		pins, why := pinned(added)
		if why != "" {
			return gate.SeverityHigh, "the range added " + plural(len(added), "test") + " beside it, but whether they pin a new behaviour could not be checked (" + why + ")"
		}
		if len(pins) == 0 {
			return gate.SeverityHigh, fmt.Sprintf("the range added %s beside it (%s), but BASE's code passes them too, so they pin no new behaviour: the shape of a regression hidden by rewriting the expectation",
				plural(len(added), "test"), clipText(strings.Join(added, ", "), 160))
		}
		added = pins
	}
	return gate.SeverityMedium, fmt.Sprintf("the edit replaced the expected behaviour, checking as much as before, and the range added %d %s beside it that BASE's code does not pass (%s): the shape of a requested behaviour change, for a person to confirm",
		len(added), map[bool]string{true: "test", false: "tests"}[len(added) == 1], clipText(strings.Join(added, ", "), 160))
}

// pinCheck runs HEAD's new and edited test files against BASE's code, once
// per comparison and only when a grade needs it, to tell which new tests pin
// a new behaviour (BASE's code fails them, or they do not build there).
type pinCheck struct {
	c    *comparison
	done bool
	m    *collect.Measurement
	why  string
}

// pinned returns the tests of added that BASE's code does not pass; why says
// what kept the check from running.
func (p *pinCheck) pinned(added []string) ([]string, string) {
	if !p.done {
		p.done = true
		p.m, p.why = p.run()
	}
	if p.why != "" {
		return nil, p.why
	}
	var out []string
	for _, id := range added {
		if t, ok := p.m.Result.Tests.Get(id); !ok || t.Outcome != collectors.Passed {
			out = append(out, id)
		}
	}
	return out, ""
}

// run is the witness's one run of HEAD's test files on BASE's code.
func (p *pinCheck) run() (*collect.Measurement, string) {
	h, err := p.c.loadHeadTests()
	if err != nil {
		return nil, "the range could not be read: " + firstLine(err.Error())
	}
	return h.onBase(p.c)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
