package analyze

import (
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/rust"
)

// maxCrateFiles bounds the Rust files (and Cargo.toml) of the repository
// read at the base to tell whether one of them compiles a module file.
const maxCrateFiles = 3000

// dropUncompiledRust takes the tests out of the base side of a Rust file
// under a crate's src/ that cargo did not compile at the base: no file of
// the repository there declares its module (`mod name`, also inside a
// macro) or names its file in a string (#[path = ".."], include!, also
// from another crate), and no Cargo.toml names it. Its tests did not run, so skipping, weakening or deleting them
// loses nothing that ran (a change that wires dead tests in and ignores the
// few that fail). A file the base declares keeps its tests: a change that
// also drops the declaration still loses them. It asks only when a test of
// the file no longer runs as it did, and a base it cannot read whole
// counts as compiling the file.
func (a *Analyzer) dropUncompiledRust(pairs []*pair, ch Change) {
	if ch.BaseFiles == nil {
		return
	}
	for _, pr := range pairs {
		o := pr.old
		if o == nil || o.facts == nil || o.facts.Lang != testscan.Rust || len(o.facts.Tests) == 0 || !rustTestsLost(pr) {
			continue
		}
		_, module := rustModuleOf(o.path, ch.Exists)
		if module == "" {
			continue
		}
		files, ok := ch.BaseFiles(".", func(p string) bool {
			return strings.HasSuffix(p, ".rs") || path.Base(p) == "Cargo.toml"
		}, maxCrateFiles)
		if !ok || mayCompile(files, module) {
			continue
		}
		f := *o.facts
		f.Tests, f.HelperAssertions = nil, nil
		o.facts = &f
		a.note(o.path, "no Rust file at the base declares module "+module+" or names its file: cargo did not compile its tests there, so none of them ran")
	}
}

// rustTestsLost reports whether a test of the base side of pr is gone,
// skipped or checks less on the new side.
func rustTestsLost(pr *pair) bool {
	if pr.new == nil || pr.new.facts == nil {
		return true
	}
	now := map[string]*testscan.TestCase{}
	for i := range pr.new.facts.Tests {
		now[pr.new.facts.Tests[i].ID] = &pr.new.facts.Tests[i]
	}
	for _, t := range pr.old.facts.Tests {
		n := now[t.ID]
		if n == nil || n.Skip != nil && t.Skip == nil || len(n.Assertions) < len(t.Assertions) {
			return true
		}
	}
	return false
}

// rustModuleOf returns the crate directory and the module name of a Rust
// file under the crate's src/ that a module declaration brings in: not the
// crate roots (src/lib.rs, src/main.rs, src/bin/..) nor a file outside
// src/ (tests/, benches/, examples/, build.rs are targets of their own).
// The crate is the directory above the nearest src/ that holds a
// Cargo.toml at the base; module is "" when there is none.
func rustModuleOf(p string, exists func(p string, head bool) bool) (crate, module string) {
	p = strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, "\\", "/")), "/")
	parts := strings.Split(p, "/")
	for k := len(parts) - 2; k >= 0; k-- {
		if parts[k] != "src" {
			continue
		}
		crate = strings.Join(parts[:k], "/")
		if exists != nil && !exists(path.Join(crate, "Cargo.toml"), false) {
			continue
		}
		rel := parts[k+1:]
		if rel[0] == "bin" || len(rel) == 1 && (rel[0] == "lib.rs" || rel[0] == "main.rs") {
			return "", ""
		}
		base := rel[len(rel)-1]
		switch {
		case base == "mod.rs" && len(rel) >= 2:
			module = rel[len(rel)-2]
		case base != "mod.rs" && strings.HasSuffix(base, ".rs"):
			module = strings.TrimSuffix(base, ".rs")
		}
		if crate == "" {
			crate = "."
		}
		return crate, module
	}
	return "", ""
}

// mayCompile reports whether a file of files may bring module into the
// crate (rust.MayInclude; a Cargo.toml naming its file, as a [[test]] or
// [lib] path, counts too).
func mayCompile(files []Source, module string) bool {
	for _, f := range files {
		if path.Base(f.Path) == "Cargo.toml" {
			if s := string(f.Data); strings.Contains(s, module+".rs") || strings.Contains(s, module+"/") {
				return true
			}
			continue
		}
		if rust.MayInclude(f.Data, module) {
			return true
		}
	}
	return false
}

// markUncompiledRust is dropUncompiledRust's mirror on the new side: a
// Rust file under a crate's src/ that gained tests (a test moved there, a
// new file) which no file of the new side declares as a module or names
// (mayCompile) is not compiled, so cargo never runs the tests moved into
// it: its side is out of the runner's reach. The new side's files are the
// base's (BaseFiles) with the change's files applied; a base it cannot read
// whole, or a changed version it was not handed, counts as compiling it.
func (a *Analyzer) markUncompiledRust(pairs []*pair, ch Change) {
	if ch.BaseFiles == nil {
		return
	}
	var head []Source // read once, when a pair asks
	read := false
	for _, pr := range pairs {
		n := pr.new
		// A file the base had under the same path is the base's to have
		// compiled (a declaration dropped is another question).
		if n == nil || n.facts == nil || n.facts.Lang != testscan.Rust || n.outOfReach != "" ||
			pr.fc.OldPath == pr.fc.NewPath || !rustTestsGained(pr) {
			continue
		}
		var exists func(p string, head bool) bool
		if ch.Exists != nil {
			exists = func(p string, _ bool) bool { return ch.Exists(p, true) }
		}
		_, module := rustModuleOf(n.path, exists)
		if module == "" || declaredByParent(n.path, module, ch) {
			continue
		}
		if !read {
			read = true
			head = headRustFiles(ch)
		}
		if head == nil || mayCompile(head, module) {
			continue
		}
		n.outOfReach = "no Rust file declares module " + module + " or names its file, so cargo does not compile it"
	}
}

// declaredByParent reports whether a module file's parent module on the
// new side declares it (src/lib.rs or src/main.rs for src/m.rs, src/a.rs
// or src/a/mod.rs for src/a/m.rs): the usual way in, read before the
// crate's files are listed.
func declaredByParent(p, module string, ch Change) bool {
	dir := path.Dir(p)
	if path.Base(p) == "mod.rs" {
		dir = path.Dir(dir)
	}
	var parents []string
	if path.Base(dir) == "src" {
		parents = []string{path.Join(dir, "lib.rs"), path.Join(dir, "main.rs")}
	} else {
		parents = []string{dir + ".rs", path.Join(dir, "mod.rs")}
	}
	for _, q := range parents {
		if src := headVersion(q, ch); src != nil && rust.MayInclude(src, module) {
			return true
		}
	}
	return false
}

// headVersion returns a file of the change's new side: its changed
// version, or the untouched one ReadHead reads.
func headVersion(p string, ch Change) []byte {
	for _, fc := range ch.Files {
		if fc.NewPath == p {
			return fc.New
		}
		if fc.OldPath == p {
			return nil // deleted or renamed away
		}
	}
	if ch.ReadHead != nil {
		return ch.ReadHead(p)
	}
	return nil
}

// rustTestsGained reports whether the new side of pr has a test id the old
// side did not.
func rustTestsGained(pr *pair) bool {
	had := map[string]bool{}
	if pr.old != nil && pr.old.facts != nil {
		for _, t := range pr.old.facts.Tests {
			had[t.ID] = true
		}
	}
	for _, t := range pr.new.facts.Tests {
		if !had[t.ID] {
			return true
		}
	}
	return false
}

// headRustFiles returns the Rust files and Cargo.toml files of the
// change's new side: the base's, less those the change deleted or
// changed, plus the change's new versions. It returns nil when the base
// cannot be read whole or a changed version is not at hand.
func headRustFiles(ch Change) []Source {
	want := func(p string) bool { return strings.HasSuffix(p, ".rs") || path.Base(p) == "Cargo.toml" }
	base, ok := ch.BaseFiles(".", want, maxCrateFiles)
	if !ok {
		return nil
	}
	gone := map[string]bool{}
	var out []Source
	for _, fc := range ch.Files {
		if fc.OldPath != "" {
			gone[fc.OldPath] = true
		}
		if fc.NewPath != "" && want(fc.NewPath) {
			if fc.New == nil {
				return nil
			}
			gone[fc.NewPath] = true
			out = append(out, Source{Path: fc.NewPath, Data: fc.New})
		}
	}
	for _, s := range base {
		if !gone[s.Path] {
			out = append(out, s)
		}
	}
	return out
}
