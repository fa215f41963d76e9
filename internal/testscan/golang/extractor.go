package golang

import (
	"bytes"
	"go/ast"
	"go/build/constraint"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Extractor reads Go source files. It holds no state; one value serves any
// number of goroutines.
type Extractor struct{}

var _ testscan.Extractor = (*Extractor)(nil)

// New returns a Go extractor.
func New() *Extractor { return &Extractor{} }

// Lang is testscan.Go.
func (*Extractor) Lang() testscan.Lang { return testscan.Go }

// Handles reports whether path names a Go source file.
func (*Extractor) Handles(path string) bool { return strings.HasSuffix(path, ".go") }

// IsTestFile reports whether path names a Go test file (foo_test.go).
func (*Extractor) IsTestFile(path string) bool { return strings.HasSuffix(path, "_test.go") }

// Package families that assertions and guards are recognized by.
const (
	famAssert  = "assert"  // github.com/stretchr/testify/assert
	famRequire = "require" // github.com/stretchr/testify/require
	famGotest  = "gotest"  // gotest.tools/v3/assert
	famIs      = "is"      // github.com/matryer/is
	famQt      = "qt"      // github.com/frankban/quicktest, github.com/go-quicktest/qt
	famCheck   = "check"   // gopkg.in/check.v1
	famCmp     = "cmp"     // github.com/google/go-cmp/cmp
	famErrors  = "errors"
	famTesting = "testing"
	famOS      = "os"
)

// importFamilies maps import paths to families.
var importFamilies = map[string]string{
	"github.com/stretchr/testify/assert":  famAssert,
	"github.com/stretchr/testify/require": famRequire,
	"gotest.tools/v3/assert":              famGotest,
	"gotest.tools/assert":                 famGotest,
	"github.com/matryer/is":               famIs,
	"github.com/frankban/quicktest":       famQt,
	"github.com/go-quicktest/qt":          famQt,
	"gopkg.in/check.v1":                   famCheck,
	"github.com/google/go-cmp/cmp":        famCmp,
	"errors":                              famErrors,
	"testing":                             famTesting,
	"os":                                  famOS,
}

// defaultFamilies name packages by their usual import name, for fragments whose
// import block was not part of the diff.
var defaultFamilies = map[string]string{
	"assert": famAssert, "require": famRequire, "is": famIs, "qt": famQt,
	"check": famCheck, "cmp": famCmp, "errors": famErrors, "testing": famTesting, "os": famOS,
}

// fileCtx is what one extraction knows about the whole file.
type fileCtx struct {
	isTest bool
	// support is set for a non-test file that imports "testing": a test
	// support package (testutil), whose assertion helpers the project's
	// tests call, so their checks are read as helper checks.
	support bool
	out     *testscan.File
	units   []*unit
	roots   []*node           // the test functions read, in source order
	pkgs    map[string]string // import name -> family ("" for other imports)
	// walked holds the code markers of the test functions, found as they were
	// read (see markerWalk).
	walked  map[*ast.FuncDecl]markerList
	tables  map[string]tableDef
	structs map[string]*ast.StructType
	suites  map[string]bool // suite types of a test file (see suiteTypes)
	names   namer
	pkgName string
	hash    hasher       // shared by all fingerprints of the file
	stacks  [][]ast.Node // spare node stacks (see env.newStack)
}

// tableDef is a package-level variable bound to a composite literal.
type tableDef struct {
	u   *unit
	lit *ast.CompositeLit
}

// family is the family of the package imported as name.
func (ctx *fileCtx) family(name string) string {
	if f, ok := ctx.pkgs[name]; ok {
		return f
	}
	return defaultFamilies[name]
}

// Extract reads one Go file. A file that does not parse is read piece by piece
// and the result is marked Partial.
func (x *Extractor) Extract(path string, src []byte) (*testscan.File, error) {
	return x.extract(path, src, nil)
}

// ExtractMasked implements testscan.Masker: Extract on the lines of the
// file m was masked from.
func (x *Extractor) ExtractMasked(path string, m testscan.Masked) (*testscan.File, error) {
	return x.extract(path, m.Src, m.Lines)
}

func (x *Extractor) extract(path string, src []byte, lines testscan.LineMap) (*testscan.File, error) {
	ctx := &fileCtx{
		isTest:  x.IsTestFile(path),
		out:     &testscan.File{Lang: testscan.Go},
		pkgs:    map[string]string{},
		tables:  map[string]tableDef{},
		structs: map[string]*ast.StructType{},
	}
	sc := getScratch(len(src))
	ctx.hash.buf = sc.hasherBuf[:0]
	if u := parseWhole(src); u != nil {
		ctx.units = []*unit{u}
	} else {
		ctx.out.Partial = true
		ctx.units = parseFragment(src)
	}
	for _, u := range ctx.units {
		u.scratch = sc
		u.lines = lines
	}
	for _, u := range ctx.units {
		ctx.declarations(u)
	}
	for _, u := range ctx.units {
		if !u.loose {
			ctx.tests(u)
			ctx.exports(u)
		}
		ctx.markers(u)
		ctx.funcs(u)
	}
	ctx.flattenAll()
	ctx.out.Constraint = buildConstraint(src)
	sc.hasherBuf = ctx.hash.buf[:0]
	putScratch(sc)
	sortMarkers(ctx.out.Suppressions)
	sortMarkers(ctx.out.Bypasses)
	sortMarkers(ctx.out.Comparisons)
	return ctx.out, nil
}

func sortMarkers(m []testscan.Marker) {
	sort.SliceStable(m, func(i, j int) bool { return m[i].Line < m[j].Line })
}

// declarations records imports, package-level tables and struct types.
func (ctx *fileCtx) declarations(u *unit) {
	if u.loose {
		return
	}
	if !u.synthetic && u.file.Name != nil {
		ctx.pkgName = u.file.Name.Name
	}
	if ctx.isTest {
		ctx.suiteTypes(u)
	}
	for name, fam := range importedFamilies(u.file) {
		ctx.pkgs[name] = fam
	}
	for _, imp := range u.file.Imports {
		if !ctx.isTest && imp.Path != nil && imp.Path.Value == `"testing"` {
			ctx.support = true
		}
	}
	for _, d := range u.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			switch sp := s.(type) {
			case *ast.ValueSpec:
				for i, n := range sp.Names {
					if i < len(sp.Values) {
						if cl := compositeOf(sp.Values[i]); cl != nil {
							ctx.tables[n.Name] = tableDef{u: u, lit: cl}
						}
					}
				}
			case *ast.TypeSpec:
				if st, ok := sp.Type.(*ast.StructType); ok {
					ctx.structs[sp.Name.Name] = st
				}
			}
		}
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// importedFamilies maps the names a file imports packages under to the
// families of those packages ("" for a package of no known family).
func importedFamilies(f *ast.File) map[string]string {
	pkgs := map[string]string{}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := p[strings.LastIndexByte(p, '/')+1:]
		if strings.HasPrefix(name, "v") && isDigits(name[1:]) && strings.Contains(p, "/") {
			trimmed := p[:strings.LastIndexByte(p, '/')]
			name = trimmed[strings.LastIndexByte(trimmed, '/')+1:]
		}
		if i := strings.IndexByte(name, '.'); i > 0 {
			name = name[:i]
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		pkgs[name] = importFamilies[p]
	}
	return pkgs
}

// isTestName reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter, as `go test` requires.
func isTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	rest := name[len(prefix):]
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// deprecated reports whether a doc comment marks its declaration
// deprecated ("Deprecated:" or a line "Deprecated"): a function kept for
// compatibility whose body became a no-op says so.
func deprecated(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, l := range strings.Split(doc.Text(), "\n") {
		if l = strings.TrimSpace(l); l == "Deprecated" || strings.HasPrefix(l, "Deprecated:") || strings.HasPrefix(l, "Deprecated ") {
			return true
		}
	}
	return false
}

// exports records the exported top-level names of a non-test, non-main file.
func (ctx *fileCtx) exports(u *unit) {
	if ctx.isTest || ctx.pkgName == "main" {
		return
	}
	add := func(id *ast.Ident, name, kind string) {
		ctx.out.Exports = append(ctx.out.Exports, testscan.Symbol{Name: name, Kind: kind, Line: u.line(id.Pos())})
	}
	for _, d := range u.file.Decls {
		switch v := d.(type) {
		case *ast.FuncDecl:
			if !v.Name.IsExported() {
				continue
			}
			name := ""
			if v.Recv == nil {
				name = v.Name.Name
				add(v.Name, name, "func")
			} else if len(v.Recv.List) == 1 {
				if recv := recvTypeName(v.Recv.List[0].Type); ast.IsExported(recv) {
					name = recv + "." + v.Name.Name
					add(v.Name, name, "method")
				}
			}
			// A body that only returns constants: where the function did
			// more before, the code is stubbed out (the analyzer compares).
			if name != "" && v.Body != nil && len(v.Body.List) == 1 && cannedReturn(v.Body) && !deprecated(v.Doc) {
				ctx.out.Placeholders = append(ctx.out.Placeholders, testscan.Marker{
					Line: u.line(v.Body.List[0].Pos()), Kind: "constant-body", Text: name, Value: u.text(v.Body.List[0]),
				})
			}
		case *ast.GenDecl:
			kind := ""
			switch v.Tok {
			case token.TYPE:
				kind = "type"
			case token.CONST:
				kind = "const"
			case token.VAR:
				kind = "var"
			default:
				continue
			}
			for _, s := range v.Specs {
				switch sp := s.(type) {
				case *ast.TypeSpec:
					if sp.Name.IsExported() {
						add(sp.Name, sp.Name.Name, kind)
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.IsExported() {
							add(n, n.Name, kind)
						}
					}
				}
			}
		}
	}
}

// recvTypeName is the type name of a method receiver: T, *T, T[K], *T[K, V].
func recvTypeName(x ast.Expr) string {
	for i := 0; i < 8; i++ {
		switch v := x.(type) {
		case *ast.StarExpr:
			x = v.X
		case *ast.ParenExpr:
			x = v.X
		case *ast.IndexExpr:
			x = v.X
		case *ast.IndexListExpr:
			x = v.X
		case *ast.Ident:
			return v.Name
		default:
			return ""
		}
	}
	return ""
}

// buildConstraint returns the expression of the file's //go:build line,
// which must come before the package clause ("" when there is none).
func buildConstraint(src []byte) string {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		t := strings.TrimSpace(string(line))
		switch {
		case t == "" || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*"):
		case constraint.IsGoBuild(t):
			if expr, err := constraint.Parse(t); err == nil {
				return expr.String()
			}
			return strings.TrimSpace(strings.TrimPrefix(t, "//go:build"))
		case strings.HasPrefix(t, "//"):
		default:
			return "" // the package clause, or code: no constraint after it
		}
	}
	return ""
}
