package jsts

import (
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
	var out []string
	for i := range t.toks {
		if t.toks[i].Kind != tkString || len(out) >= maxImports {
			continue
		}
		v := t.toks[i].val
		if !strings.HasPrefix(v, "./") && !strings.HasPrefix(v, "../") {
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
