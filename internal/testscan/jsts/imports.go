package jsts

import (
	"path"
	"slices"
	"strings"
)

// maxImports bounds File.Imports.
const maxImports = 64

// relativeImports returns the module specifiers the file imports by a
// relative path ('./support/utils', '../helpers'), each once, in source
// order: `import ... from`, side-effect imports, `export ... from`,
// require() and import(). Package imports are left out: a project's test
// helpers are its own files.
func (t *tree) relativeImports() []string {
	return t.imports(true, maxImports)
}

// imports returns the module specifiers the file imports (only relative
// ones when relative is set), each once, in source order, at most n.
func (t *tree) imports(relative bool, n int) []string {
	var out []string
	for i := range t.toks {
		if t.toks[i].Kind != tkString || len(out) >= n {
			continue
		}
		v := t.toks[i].val
		if relative && !strings.HasPrefix(v, "./") && !strings.HasPrefix(v, "../") {
			continue
		}
		imported := t.ident(i-1, "from") ||
			t.ident(i-1, "import") && !t.isMember(i-1) ||
			t.punct(i-1, "(") && (t.ident(i-2, "require") || t.ident(i-2, "import")) && !t.isMember(i-2)
		if imported && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// ImportSpecifiers returns every module specifier a JavaScript or
// TypeScript file imports ('./helpers', '@/test-utils', 'vitest'), each
// once, in source order: the import graph's edges, read with the
// tokenizer so that strings and comments that merely mention a module do
// not count.
func ImportSpecifiers(p string, src []byte) []string {
	return newTree(string(src), extensions[strings.ToLower(path.Ext(p))]).imports(false, 1024)
}

// UsesTestRunner reports whether a JavaScript or TypeScript file is written
// against a test runner or assertion library, the mark of test support as
// `import "testing"` is in Go: it imports one (vitest, jest, chai, node's
// assert, Testing Library, sinon, ...), or calls the runner's globals
// (`expect(...)`, `expect.extend`, `vi.fn`, `jest.mock`) without
// importing them.
func UsesTestRunner(p string, src []byte) bool {
	t := newTree(string(src), extensions[strings.ToLower(path.Ext(p))])
	for _, spec := range t.imports(false, 1024) {
		if testModule(spec) {
			return true
		}
	}
	for i := range t.toks {
		if t.kind(i) != tkIdent || t.isMember(i) {
			continue
		}
		switch t.toks[i].Text {
		case "expect":
			if t.punct(i+1, "(") || t.punct(i+1, ".") {
				return true
			}
		case "vi", "jest":
			if t.punct(i+1, ".") {
				return true
			}
		}
	}
	return false
}

// testModule reports a module specifier that names a test runner or an
// assertion library.
func testModule(spec string) bool {
	root, _, _ := strings.Cut(strings.TrimPrefix(spec, "node:"), "/")
	if strings.HasPrefix(spec, "@") {
		scope, rest, _ := strings.Cut(spec, "/")
		name, _, _ := strings.Cut(rest, "/")
		switch scope {
		case "@jest", "@vitest", "@testing-library", "@playwright":
			return true
		}
		root = name
	}
	switch root {
	case "vitest", "jest", "chai", "assert", "expect", "sinon", "mocha", "ava", "tap", "uvu", "node:test", "test", "power-assert", "should", "jasmine":
		return true
	}
	return strings.HasPrefix(root, "jest-") || strings.HasPrefix(root, "chai-") || strings.HasPrefix(root, "vitest-")
}
