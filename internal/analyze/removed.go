package analyze

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/par"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// orphanedCode lists the production names a change deleted (declared by
// an old side, by no new side: Go's top-level functions, methods as
// ".name", and types; the other languages' public names), less what may
// live on under another name: the names deleted from a directory (a Go
// package) to which the change added production names. ParseDate deleted and DateParse added beside it
// is a rename, whose tests must follow it; isStandaloneTask deleted and
// nothing added is code gone.
func orphanedCode(had, has map[string]string) map[string]bool {
	grew := map[string]bool{}
	for k, d := range has {
		if had[k] == "" {
			grew[d] = true
		}
	}
	out := map[string]bool{}
	for k, d := range had {
		if has[k] == "" && !grew[d] {
			out[k] = true
		}
	}
	return out
}

// productionNames maps the production names the old and the new sides of the
// change declare to the directory of the file declaring them.
func productionNames(pairs []*pair) (had, has map[string]string) {
	return declaredBy(pairs, func(v version, add func(string)) {
		for name := range v.names() {
			add(name)
		}
	})
}

// declaredBy maps the names each production side of the change declares
// (each passes them to add) to the directory of the file declaring them,
// the first such file's, old sides in had and new ones in has.
func declaredBy(pairs []*pair, each func(v version, add func(string))) (had, has map[string]string) {
	had, has = map[string]string{}, map[string]string{}
	for _, pr := range pairs {
		for _, v := range pr.versions() {
			m := has
			if v.old {
				m = had
			}
			each(v, func(n string) {
				if m[n] == "" {
					m[n] = dir(v.path)
				}
			})
		}
	}
	return had, has
}

// funcsGone lists the functions and methods, private ones too (a
// method also as ".name" and "name"), that old production sides of the
// change declared and no new side declares, less those of a directory that
// gained others (see orphanedCode): for the calls of deleted tests (see
// callsGone), which name private helpers and methods as much as a public
// API.
func funcsGone(pairs []*pair) map[string]bool {
	return orphanedCode(declaredBy(pairs, func(v version, add func(string)) {
		for _, f := range v.sd.facts.FuncNames {
			for _, k := range funcKeys(f) {
				add(k)
			}
		}
		for n := range v.names() {
			add(n)
		}
	}))
}

// version is one production side of a changed file, for reading the
// names it declares.
type version struct {
	sd   *side
	data []byte
	path string
	old  bool
	key  string    // the blob's, "" when unknown
	an   *Analyzer // nil: no cache
}

// versions are the production sides of pr.
func (pr *pair) versions() []version {
	var out []version
	for _, old := range []bool{true, false} {
		if v, ok := pr.version(old); ok {
			out = append(out, v)
		}
	}
	return out
}

// newProduction returns the texts of the change's new production
// versions.
func newProduction(pairs []*pair) [][]byte {
	out := [][]byte{}
	for _, pr := range pairs {
		if v, ok := pr.version(false); ok {
			out = append(out, v.data)
		}
	}
	return out
}

// version is pr's old or new side, when it is production code.
func (pr *pair) version(old bool) (version, bool) {
	v := version{pr.new, nil, pr.fc.NewPath, false, pr.fc.NewKey, pr.an}
	if old {
		v = version{pr.old, nil, pr.fc.OldPath, true, pr.fc.OldKey, pr.an}
	}
	if v.sd == nil || v.sd.isTest || v.sd.facts == nil {
		return v, false
	}
	v.data = pr.text(old)
	return v, true
}

// minParallelNames is the least number of production versions whose
// names warm reads on several cores.
const minParallelNames = 8

// warm reads the names of every production version of the change, on
// every core when there are many: a range's net change has hundreds, read
// one at a time in its single-threaded comparison otherwise (each text
// read from the repository, then scanned).
func (d *codeDecls) warm() {
	if d.warmed {
		return
	}
	d.warmed = true
	type job struct {
		pr  *pair
		old bool
	}
	var jobs []job
	for _, pr := range d.pairs {
		for _, s := range []struct {
			sd  *side
			old bool
		}{{pr.old, true}, {pr.new, false}} {
			if s.sd != nil && !s.sd.isTest && s.sd.facts != nil && s.sd.names == nil {
				jobs = append(jobs, job{pr, s.old})
			}
		}
	}
	// Each job touches its own side (and its own text of the pair): the
	// name cache locks itself.
	par.Each(len(jobs), minParallelNames, func(i int) {
		if v, ok := jobs[i].pr.version(jobs[i].old); ok {
			v.names()
		}
	})
}

// names are the functions, methods (".name" as well) and types a Go
// version declares (goFuncs), or another language's public names.
func (v version) names() map[string]bool {
	if v.sd.names != nil {
		return v.sd.names
	}
	// Go's names are read from the text, the same for a blob in any
	// change; other languages' come from the facts, which a masked parse
	// leaves partial, and cost nothing to read again.
	ck := ""
	if v.an != nil && v.key != "" && strings.HasSuffix(v.path, ".go") {
		ck = v.path + "\x00" + v.key
		if m, ok := v.an.prodNames.get(ck); ok {
			v.sd.names = m
			return m
		}
	}
	out := v.readNames()
	v.sd.names = out
	if ck != "" {
		v.an.prodNames.put(ck, out)
	}
	return out
}

// readNames reads names' set: from a Go version's text, from another
// language's facts.
func (v version) readNames() map[string]bool {
	out := map[string]bool{}
	add := func(name string) { out[name] = true }
	if strings.HasSuffix(v.path, ".go") {
		goFuncs(v.path, v.data, add)
		return out
	}
	for _, x := range v.sd.facts.Exports {
		name := x.Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			add("." + name[i+1:])
			name = name[i+1:]
		}
		add(name)
	}
	return out
}

// goFuncs passes the functions, methods and types a Go file declares to
// add, read with go/scanner at the top level of the file (a declaration
// needs no parse of the bodies, which are most of a file). A brace block
// at the top level (a function's body, a struct's fields, a composite
// literal) declares nothing it reads: it is stepped over by skipBlock,
// which only tells strings and comments from code, and the scan goes on
// from its closing brace (a net change's production files were 20% of
// its single-threaded comparison, most of it scanning bodies).
func goFuncs(p string, src []byte, add func(string)) { scanGoFuncs(p, src, add, true) }

// scanGoFuncs is goFuncs, stepping over the top-level brace blocks when
// skip is set and scanning every token otherwise (FuzzGoFuncs holds the
// two to the same names).
func scanGoFuncs(p string, src []byte, add func(string), skip bool) {
	fset := token.NewFileSet()
	var sc scanner.Scanner
	base := 0 // the offset in src of what sc scans
	file := fset.AddFile(p, -1, len(src))
	sc.Init(file, src, nil, 0)
	const (
		none      = iota
		afterFunc // func at the top level: a name or a receiver follows
		inRecv    // inside the receiver's parentheses
		afterRecv // the method's name follows
	)
	state, recvDepth := none, 0
	depth := 0 // nesting of (), [] and {}
	typeGroup := false
	prev := token.SEMICOLON
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return
		}
		if skip && tok == token.LBRACE && depth == 0 && state == none {
			// Resume at the closing bracket, which the scan reads as such.
			end := skipBlock(src, base+file.Offset(pos))
			base = end
			file = fset.AddFile(p, -1, len(src)-end)
			sc.Init(file, src[end:], nil, 0)
			depth++
			prev = tok
			continue
		}
		switch state {
		case afterFunc:
			state = none
			if tok == token.IDENT {
				add(lit)
			} else if tok == token.LPAREN {
				state, recvDepth = inRecv, 1
				prev = tok
				continue
			}
		case inRecv:
			if tok == token.LPAREN {
				recvDepth++
			} else if tok == token.RPAREN {
				recvDepth--
				if recvDepth == 0 {
					state = afterRecv
				}
			}
			prev = tok
			continue
		case afterRecv:
			state = none
			if tok == token.IDENT {
				add("." + lit)
			}
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			if tok == token.LPAREN && depth == 0 && prev == token.TYPE {
				typeGroup = true
			}
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
			if depth == 0 {
				typeGroup = false
			}
		case token.FUNC:
			if depth == 0 && prev == token.SEMICOLON {
				state = afterFunc // a declaration, not a func literal or type
			}
		case token.IDENT:
			if depth == 0 && prev == token.TYPE || typeGroup && depth == 1 && (prev == token.LPAREN || prev == token.SEMICOLON) {
				add(lit)
			}
		}
		prev = tok
	}
}

// skipBlock returns the offset of the bracket that closes the block opened
// at src[open] ('{'), len(src) when none does: brackets of every kind are
// counted, as the scan counts them, outside Go's comments, interpreted and
// raw strings and rune literals.
func skipBlock(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch c := src[i]; c {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			if depth--; depth == 0 {
				return i
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return len(src)
				}
				i += 2 + end + 1
			}
		case '"', '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '`':
			end := bytes.IndexByte(src[i+1:], '`')
			if end < 0 {
				return len(src)
			}
			i += 1 + end
		}
	}
	return len(src)
}

// codeUse finds, for deleted tests, the production code they used that the
// change deleted with them (orphanedCode): the identifiers on the test's
// lines in BASE's file, read with go/parser for Go (a table row's
// &Int64Flag{...} as much as a call) and the language's lexer elsewhere
// (testscan.Namer).
type codeUse struct {
	decls   *codeDecls
	apis    *[]retired      // retiredAPIs, once needed
	removed map[string]bool // orphanedCode, once needed
	files   map[*pair]*goFile
	names   map[*pair][]testscan.Name // a Namer's listing of a file, once for all its tests
	// exists is the change's Exists (nil: every path exists).
	exists func(p string, head bool) bool
	// recast is callReach.recastTest over the tests the change added, nil
	// when not asked.
	recast func(o *locTest) string
	// newData are the new production versions, texts the removed texts
	// of the production files read so far (see textSubject).
	newData [][]byte
	texts   map[*pair][]removedText
	// cases are the special cases the change removed (removedCases),
	// once needed.
	cases map[string]string
	funcs map[string]bool // funcsGone, once needed
	code  map[string]bool // productionCode, once needed (see inlined)
}

// codeDecls reads the production names of a change's sides once, when
// first needed (productionNames).
type codeDecls struct {
	pairs    []*pair
	had, has map[string]string
	warmed   bool // see warm
}

func (d *codeDecls) read() (had, has map[string]string) {
	if d.had == nil {
		d.warm()
		d.had, d.has = productionNames(d.pairs)
	}
	return d.had, d.has
}

// respelled reports whether the change deleted production name from and
// declared now, which spells the same name for another visibility
// (visibilityKey): withoutVariables moved to another package as
// WithoutVariables. Both are asked of every production side the change
// has, so that a name kept somewhere is not respelled.
func (d *codeDecls) respelled(from, now string) bool {
	had, has := d.read()
	return had[from] != "" && has[from] == "" && has[now] != "" && had[now] == ""
}

// removed reports whether the change deleted name (a call's "name" or
// ".name") from production code: declared by an old side and by no new
// side. Only the versions whose text holds the name are read, once each:
// a change's production files are many and large (prometheus's
// tsdb/db.go), the names asked about few.
func (d *codeDecls) removed(name string) bool {
	if d.had != nil {
		return d.had[name] != "" && d.has[name] == ""
	}
	d.warm()
	bare := []byte(strings.TrimPrefix(name, "."))
	had, has := false, false
	for _, pr := range d.pairs {
		for _, v := range pr.versions() {
			if v.old && had || !v.old && has || !bytes.Contains(v.data, bare) {
				continue
			}
			if v.names()[name] {
				if v.old {
					had = true
				} else {
					has = true
				}
			}
		}
	}
	return had && !has
}

// retired returns the APIs whose deprecation notices the change removed.
func (u *codeUse) retired() []retired {
	if u.apis == nil {
		apis := retiredAPIs(u.decls.pairs)
		u.apis = &apis
	}
	return *u.apis
}

// text returns the text removed from production code that deleted test o
// expected (see removedTexts), nil when none.
func (u *codeUse) text(o *locTest) *removedText {
	if u.texts == nil {
		u.texts = map[*pair][]removedText{}
	}
	return textSubject(o.tc, u.decls.pairs, u.newVersions(), u.texts)
}

// newVersions returns the new production versions of the change, read once.
func (u *codeUse) newVersions() [][]byte {
	if u.newData == nil {
		u.newData = newProduction(u.decls.pairs)
	}
	return u.newData
}

// packageGone returns the directory of a deleted test file when the change
// deleted the whole directory, production code included (a package or
// module removed, or moved out of the repository), "" otherwise. Code
// that lives on under another name is not gone: the production files
// must be deleted, not renamed, and none of the names they declared may
// be declared by a new side of the change.
func (u *codeUse) packageGone(o *locTest) string {
	d := dir(o.side.path)
	if o.pr.new != nil || u.exists == nil || d == "." || testSupportDir(d) || u.exists(d, true) {
		return ""
	}
	_, has := u.decls.read()
	prod := false
	for _, pr := range u.decls.pairs {
		if pr.fc.OldPath == "" || dir(pr.fc.OldPath) != d || pr.old == nil || pr.old.isTest {
			continue
		}
		if pr.fc.NewPath != "" {
			return "" // renamed or kept
		}
		if strings.Contains(path.Base(pr.fc.OldPath), ".config.") {
			continue // a runner's configuration is not code under test
		}
		for _, v := range pr.versions() {
			for name := range v.names() {
				if has[name] != "" && name != "main" && name != "init" {
					return ""
				}
			}
		}
		prod = true
	}
	if !prod {
		return ""
	}
	return d
}

// testSupportDir reports whether a directory holds test support rather
// than production code: fixtures, testdata, a test or spec tree.
func testSupportDir(d string) bool {
	for _, seg := range strings.Split(d, "/") {
		switch seg {
		case "test", "tests", "__tests__", "spec", "e2e", "fixtures", "fixture", "__fixtures__", "testdata", "testing":
			return true
		}
	}
	return false
}

type goFile struct {
	fset *token.FileSet
	f    *ast.File
}

// gone returns the deleted production names test o used, in order of use.
func (u *codeUse) gone(o *locTest) []string {
	if u.removed == nil {
		u.removed = u.withoutInlined(orphanedCode(u.decls.read()))
	}
	if len(u.removed) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if u.removed[name] && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	if o.side.facts == nil || o.side.facts.Lang != testscan.Go {
		for _, c := range o.tc.Calls {
			add(c.Name)
		}
		if nm, ok := o.side.ext.(testscan.Namer); ok {
			names, ok := u.names[o.pr]
			if !ok {
				if u.names == nil {
					u.names = map[*pair][]testscan.Name{}
				}
				names = nm.Names(o.side.path, o.pr.text(true))
				u.names[o.pr] = names
			}
			for _, n := range testscan.NamesIn(names, o.tc.Line, o.tc.EndLine) {
				add(n)
			}
		}
		return out
	}
	gf := u.goFile(o.pr)
	if gf == nil {
		return nil
	}
	lo, hi := o.tc.Line, o.tc.EndLine
	if strings.Contains(o.tc.ID, "/") {
		// A subtest's lines may be only its table row: the function
		// around it makes the calls.
		for _, d := range gf.f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && gf.fset.Position(fd.Pos()).Line <= lo && gf.fset.Position(fd.End()).Line >= hi {
				lo, hi = gf.fset.Position(fd.Pos()).Line, gf.fset.Position(fd.End()).Line
			}
		}
	}
	ast.Inspect(gf.f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		start, end := gf.fset.Position(n.Pos()).Line, gf.fset.Position(n.End()).Line
		if end < lo || start > hi {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			add("." + n.Sel.Name)
			add(n.Sel.Name) // pkg.Func from an external test package
		case *ast.Ident:
			if l := gf.fset.Position(n.Pos()).Line; l >= lo && l <= hi {
				add(n.Name)
			}
		}
		return true
	})
	return out
}

func (u *codeUse) goFile(pr *pair) *goFile {
	if gf, ok := u.files[pr]; ok {
		return gf
	}
	if u.files == nil {
		u.files = map[*pair]*goFile{}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, pr.fc.OldPath, pr.text(true), parser.SkipObjectResolution)
	var gf *goFile
	if err == nil && f != nil {
		gf = &goFile{fset, f}
	}
	u.files[pr] = gf
	return gf
}

// checkedCode returns the first of names (deleted production code test o
// used) whose result o's checks were on: at least half of its checks read
// the value a call of it returns, as their actual, their expected value or
// the origin of the variable they check (`got, _ := flagFromEnvOrFile(...)`
// checked against the row's want). A test whose checks were on what the
// deleted code returned was about it, whatever its name says; one that used
// the code on its way to checking something else (an argument built by a
// deleted helper, serviceName(prefix()+"web"); an object made by a deleted
// constructor; a lazy import checked in sys.modules) was not.
func checkedCode(o *locTest, names []string) string {
	checks := o.tc.Assertions
	if len(checks) == 0 {
		return ""
	}
	for _, n := range names {
		bare := strings.TrimPrefix(n, ".")
		on := 0
		for _, a := range checks {
			if headCall(a.Subject) == bare || headCall(a.Expected) == bare || headCall(a.Origin) == bare {
				on++
			}
		}
		if 2*on >= len(checks) {
			return bare
		}
	}
	return ""
}

// headCall returns the function or method an expression's value comes from
// when the whole expression is one call (f(x), pkg.F(x), obj.m(x), with a
// Go origin's "#N" result index): its last name; "" for anything else
// (f(x) + 1, g(f(x)) names g, a bare variable).
func headCall(expr string) string {
	if i := strings.LastIndexByte(expr, '#'); i > 0 && i+1 < len(expr) && strings.Trim(expr[i+1:], "0123456789") == "" {
		expr = expr[:i]
	}
	expr = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(expr), "await "))
	open := strings.IndexByte(expr, '(')
	if open <= 0 || !strings.HasSuffix(expr, ")") || closing(expr, open, '(', ')') != len(expr)-1 {
		return ""
	}
	head := expr[:open]
	for _, r := range head {
		if r != '.' && !isIdentChar(r) {
			return ""
		}
	}
	if i := strings.LastIndexByte(head, '.'); i >= 0 {
		head = head[i+1:]
	}
	return head
}

func isIdentChar(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// callsGone returns the calls of deleted test o when every one of them
// (at least one) is of a function or method the change deleted (funcsGone):
// the test ran nothing that is left. nil otherwise.
func (u *codeUse) callsGone(o *locTest) []string {
	if len(o.tc.Calls) == 0 {
		return nil
	}
	if u.funcs == nil {
		u.funcs = u.withoutInlined(funcsGone(u.decls.pairs))
	}
	var out []string
	for _, c := range o.tc.Calls {
		if !u.funcs[c.Name] {
			return nil
		}
		out = append(out, strings.TrimPrefix(c.Name, "."))
	}
	// The calls its checks make are its calls too (assert
	// run_command(lazy) is lazy): any of something left, or of
	// something this cannot tell (a builtin), and the test ran more than
	// deleted code.
	for _, a := range o.tc.Assertions {
		for _, name := range calledIn(a.Subject + " " + a.Expected) {
			if !u.funcs[name] && !u.funcs["."+name] {
				return nil
			}
		}
	}
	return out
}

// calledIn returns the names called in a normalized source: each name
// (the last of a dotted one) directly followed by "(".
func calledIn(src string) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		if src[i] != '(' || i == 0 || !ci.IsIdentByte(src[i-1]) {
			continue
		}
		j := i
		for j > 0 && ci.IsIdentByte(src[j-1]) {
			j--
		}
		out = append(out, src[j:i])
	}
	return out
}

// subject returns the first of names (deleted production code test o
// used) that o's id names, its letters and digits matched without case
// (TestInt64Flag/octal and Int64Flag, test_parse_date and parseDate): what
// the test was about. A test that merely used a deleted helper on its way
// to other code was not about it.
func subject(o *locTest, names []string) string {
	id := lowerAlnum(o.tc.ID)
	for _, n := range names {
		if k := lowerAlnum(n); len(k) >= 4 && strings.Contains(id, k) {
			return strings.TrimPrefix(n, ".")
		}
	}
	return ""
}
