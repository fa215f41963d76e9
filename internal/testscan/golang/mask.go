package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/maphash"
	"sync"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// This file lets the analyzer skip what a change did not touch. A commit that
// edits one test of a 10,000-line test file would otherwise parse and walk both
// whole versions, most of the time of a per-commit run. MaskUnchanged blanks, in
// both versions, the function declarations whose text is the same in both; the
// extraction of what is left is the extraction of the whole file restricted to
// the functions that changed, on the same lines.

// MaskUnchanged implements testscan.Masker (see the function MaskUnchanged).
// A file renamed between a test file and another file is not masked.
func (x *Extractor) MaskUnchanged(oldPath string, old []byte, newPath string, new []byte, minBlank int) (testscan.Masked, testscan.Masked, bool) {
	isTest := x.IsTestFile(newPath)
	if x.IsTestFile(oldPath) != isTest {
		return testscan.Masked{}, testscan.Masked{}, false
	}
	return MaskUnchanged(old, new, isTest, minBlank)
}

// MaskUnchanged returns copies of two versions of a Go file in which the
// top-level declarations present in both, byte for byte, are blanked
// (each replaced by its newlines and a space, so that every line keeps its
// number; offsets and columns after it move), or ok=false when nothing is to
// be gained (fewer than minBlank bytes blanked) or the result could differ
// from extracting the whole files.
//
// What is blanked never informs the extraction of what is left. The
// extraction of a function reads, besides its own body, the file's imports,
// tables (top-level variables), types and suites (the receivers of Test
// methods), never another function; and what the analyzer compares across a
// file (helper assertions, markers) cancels out for a function present in
// both versions. So:
//   - in a test file, unchanged functions without a receiver are blanked
//     (tests and helpers; not a helper that calls a Skip method, which the
//     tests that call it read, see skipHelper), and only when every difference between the versions
//     lies inside functions, tables, types and constants, or in imports that
//     keep each name's package family (a changed import family is read by
//     every function: then nothing is blanked). A changed table, type,
//     constant or method is read by the functions that name it: those are
//     kept, as is every function naming a declaration that names it (see
//     readsChanged). An unchanged table, type or constant of one spec that
//     nothing left names is blanked too (see unread): only blanked
//     functions read it;
//   - in any other file, every unchanged function or method is blanked: its
//     exports, markers and comparisons belong to it alone; and so is every
//     unchanged type, variable and constant declaration, unless the file
//     imports package testing (see importsTesting). A file that does keeps
//     the functions that name a changed table, type or constant, as a test
//     file does: its functions are read as helpers, with the file's tables.
//
// Both sources must scan as Go (balanced brackets, terminated literals and
// comments); otherwise ok is false and the caller extracts the whole files.
func MaskUnchanged(old, new []byte, isTest bool, minBlank int) (maskedOld, maskedNew testscan.Masked, ok bool) {
	if len(old)+len(new) < minBlank {
		return
	}
	od, ok1 := scanDeclsCached(old)
	nd, ok2 := scanDeclsCached(new)
	if !ok1 || !ok2 {
		return
	}
	count := map[uint64]int{}
	for _, d := range od {
		count[d.hash]++
	}
	for _, d := range nd {
		count[d.hash]--
	}
	same := func(_ []byte, d topDecl) bool { return count[d.hash] == 0 }
	// In a file that is neither a test file nor imports package testing,
	// or another package under that name (its functions are read as
	// helpers, with the file's tables and types), nothing reads a type,
	// variable or constant declaration but the declaration itself.
	alone := !isTest && !importsTestingIn(old, od) && !importsTestingIn(new, nd)
	maskable := func(src []byte, d topDecl) bool {
		switch {
		case d.end <= d.start:
			return false
		case d.kind == declFunc:
			// A function with a body ends with its closing brace;
			// anything else is not what scanDecls expects, and is left
			// alone.
			// A test file's function that skips the test it is handed
			// is read by the tests that call it (helperSkip): kept.
			return src[d.end-1] == '}' && (!isTest || !d.method && !skipHelper(src[d.start:d.end]))
		case d.kind == declOther:
			return alone && !bytes.HasPrefix(src[d.start:], []byte("package"))
		}
		return false
	}
	// reads, when set, keeps the unchanged functions that read a changed
	// table, type or constant.
	var reads func(fn []byte) bool
	if isTest || !alone {
		// In a test file every difference must lie in a function, in the
		// imports when no name changes the package family it stands for,
		// or in a type, variable or constant declaration. The functions
		// that name what a changed declaration or method declares are
		// kept (see readsChanged); methods are never blanked in a test
		// file (a suite's tests and helpers).
		importsChanged := false
		var changed [][]byte
		for _, side := range []struct {
			src []byte
			ds  []topDecl
		}{{old, od}, {new, nd}} {
			for _, d := range side.ds {
				switch {
				case same(side.src, d):
				case d.kind == declOther && !bytes.HasPrefix(side.src[d.start:], []byte("package")),
					isTest && d.kind == declFunc && (d.method || skipHelper(side.src[d.start:d.end])):
					// A changed function that may skip the test it is
					// handed is read by the tests that call it
					// (helperSkip), as a changed method is.
					changed = append(changed, side.src[d.start:d.end])
				case !isTest:
				case d.kind == declFunc:
				case d.kind == declImport:
					importsChanged = true
				default:
					return
				}
			}
		}
		if importsChanged && !sameFamilies(old, new) {
			return
		}
		if len(changed) > 0 {
			var unchanged [][]byte
			for _, d := range od {
				if d.kind == declOther && same(old, d) {
					unchanged = append(unchanged, old[d.start:d.end])
				}
			}
			names, read := readsChanged(changed, unchanged)
			if !read {
				return
			}
			reads = func(fn []byte) bool { return namesAny(fn, names) }
		}
	}
	pick := func(src []byte, ds []topDecl) (picked []topDecl, n int) {
		for _, d := range ds {
			if maskable(src, d) && same(src, d) && (reads == nil || !reads(src[d.start:d.end])) {
				picked = append(picked, d)
				n += d.end - d.start
			}
		}
		return picked, n
	}
	po, n1 := pick(old, od)
	pn, n2 := pick(new, nd)
	if !alone {
		// An unchanged table, type or constant that nothing left names
		// is read by blanked functions only.
		hashes := unread(old, od, po, new, nd, pn, func(d topDecl) bool { return count[d.hash] == 0 })
		var m1, m2 int
		po, m1 = withDecls(po, od, hashes)
		pn, m2 = withDecls(pn, nd, hashes)
		n1, n2 = n1+m1, n2+m2
	}
	if n1+n2 == 0 || n1+n2 < minBlank {
		return
	}
	return blankDecls(old, po), blankDecls(new, pn), true
}

// unread returns the hashes of the unchanged (same) type, variable and
// constant declarations of two versions that no declaration left
// unblanked names (blanked: po and pn, in source order), directly or
// through another such declaration. Only a declaration of one spec whose
// names are known (var x = ..., type T ...; not a group, not _, which
// may register a suite) is asked.
func unread(old []byte, od, po []topDecl, new []byte, nd, pn []topDecl, same func(topDecl) bool) map[uint64]bool {
	type cand struct {
		text []byte
		kept bool
	}
	cands := map[uint64]*cand{}
	byName := map[string][]*cand{}
	for _, d := range od {
		if d.kind != declOther || !same(d) {
			continue
		}
		names := specNames(old[d.start:d.end])
		if names == nil {
			continue
		}
		c := &cand{text: old[d.start:d.end]}
		cands[d.hash] = c
		for _, n := range names {
			byName[n] = append(byName[n], c)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	// Every text left unblanked is read once for the candidates' names; a
	// candidate it names is kept, and its own text read in turn.
	var queue [][]byte
	for _, side := range []struct {
		src       []byte
		ds, blank []topDecl
	}{{old, od, po}, {new, nd, pn}} {
		b := 0
		for _, d := range side.ds {
			for b < len(side.blank) && side.blank[b].start < d.start {
				b++
			}
			if b < len(side.blank) && side.blank[b].start == d.start {
				continue
			}
			if _, ok := cands[d.hash]; ok && same(d) {
				continue
			}
			queue = append(queue, side.src[d.start:d.end])
		}
	}
	for len(queue) > 0 {
		text := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		eachWord(text, func(w []byte) bool {
			for _, c := range byName[string(w)] {
				if !c.kept {
					c.kept = true
					queue = append(queue, c.text)
				}
			}
			return true
		})
	}
	out := make(map[uint64]bool, len(cands))
	for h, c := range cands {
		if !c.kept {
			out[h] = true
		}
	}
	return out
}

// withDecls adds to picked (in source order) the declarations of ds whose
// hash is in hashes, and returns the bytes added.
func withDecls(picked, ds []topDecl, hashes map[uint64]bool) ([]topDecl, int) {
	if len(hashes) == 0 {
		return picked, 0
	}
	n := 0
	out := make([]topDecl, 0, len(picked)+len(hashes))
	p := 0
	for _, d := range ds {
		for p < len(picked) && picked[p].start < d.start {
			out = append(out, picked[p])
			p++
		}
		if hashes[d.hash] && d.kind == declOther {
			out = append(out, d)
			n += d.end - d.start
		}
	}
	return append(out, picked[p:]...), n
}

// specNames returns the names a declaration of one spec declares (var a, b
// = ...; const c ...; type T ...), or nil for a group, a blank name or a
// text it does not know.
func specNames(decl []byte) []string {
	var kw string
	for _, k := range []string{"var", "const", "type"} {
		if bytes.HasPrefix(decl, []byte(k)) && len(decl) > len(k) && !identByte[decl[len(k)]] {
			kw = k
		}
	}
	if kw == "" {
		return nil
	}
	rest := decl[len(kw):]
	var names []string
	for {
		rest = skipBlank(rest)
		n := 0
		for n < len(rest) && identByte[rest[n]] {
			n++
		}
		if n == 0 || rest[0] >= '0' && rest[0] <= '9' || string(rest[:n]) == "_" {
			return nil
		}
		names = append(names, string(rest[:n]))
		rest = skipBlank(rest[n:])
		if kw == "type" || len(rest) == 0 || rest[0] != ',' {
			return names
		}
		rest = rest[1:]
	}
}

// eachWord calls f with each identifier-like word of src (a run of
// identifier bytes), in code, strings and comments alike, until f returns
// false.
func eachWord(src []byte, f func(w []byte) bool) {
	for i := 0; i < len(src); {
		if !identByte[src[i]] {
			i++
			continue
		}
		j := i
		for j < len(src) && identByte[src[j]] {
			j++
		}
		if !f(src[i:j]) {
			return
		}
		i = j
	}
}

// readsChanged returns the names a function must not mention to be blanked
// when the type, variable and constant declarations or the methods changed
// (both versions' texts) differ: the names they declare (a method's receiver
// type and its name), and those of every unchanged
// declaration (unchanged) that mentions one of them, transitively (a table
// of a changed type reads it). ok is false when a changed declaration does
// not parse alone.
func readsChanged(changed, unchanged [][]byte) (names map[string]bool, ok bool) {
	names = map[string]bool{}
	if !declaredNames(changed, names) {
		return nil, false
	}
	pulled := make([]bool, len(unchanged))
	for grew := true; grew; {
		grew = false
		for i, d := range unchanged {
			if pulled[i] || !namesAny(d, names) {
				continue
			}
			pulled[i], grew = true, true
			if !declaredNames([][]byte{d}, names) {
				return nil, false
			}
		}
	}
	return names, true
}

// declaredNames adds to names the names top-level declarations declare.
func declaredNames(decls [][]byte, names map[string]bool) bool {
	src := []byte("package p\n")
	parse := false
	for _, d := range decls {
		if ns := specNames(d); ns != nil {
			// One spec: its names need no parse (a changed table
			// can be most of a file).
			for _, n := range ns {
				names[n] = true
			}
			continue
		}
		src = append(append(src, d...), ";\n"...)
		parse = true
	}
	if !parse {
		return true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if fd, isFunc := d.(*ast.FuncDecl); isFunc && fd.Recv != nil && len(fd.Recv.List) == 1 {
			// A method stands for its receiver type (a suite's set of
			// tests and helpers) and for its own name.
			recv := recvTypeName(fd.Recv.List[0].Type)
			if recv == "" {
				return false
			}
			names[recv], names[fd.Name.Name] = true, true
			continue
		}
		if fd, isFunc := d.(*ast.FuncDecl); isFunc && fd.Recv == nil {
			names[fd.Name.Name] = true // a helper that skips (skipHelper)
			continue
		}
		if !ok {
			return false
		}
		for _, sp := range gd.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				names[sp.Name.Name] = true
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					names[n.Name] = true
				}
			}
		}
	}
	return true
}

// namesAny reports whether src holds one of names as a word: a run of
// identifier bytes not preceded by one (in code, a string or a comment: a
// word too many only keeps a function unblanked).
func namesAny(src []byte, names map[string]bool) bool {
	// A word of src is a name only if the name is in src at all: a few
	// names are looked for faster than src is cut into words.
	if len(names) <= 8 {
		in := false
		for n := range names {
			if in = bytes.Contains(src, []byte(n)); in {
				break
			}
		}
		if !in {
			return false
		}
	}
	found := false
	eachWord(src, func(w []byte) bool {
		found = names[string(w)]
		return !found
	})
	return found
}

// KeepHelper implements testscan.HelperNarrower: in a test file it blanks,
// as MaskUnchanged does, every function without a receiver that is not
// named name. Methods stay (a suite's methods are its helpers), and so does
// everything else the extraction of a function reads.
func (x *Extractor) KeepHelper(path string, src []byte, name string) (testscan.Masked, bool) {
	if !x.IsTestFile(path) {
		return testscan.Masked{}, false
	}
	ds, ok := scanDeclsCached(src)
	if !ok {
		return testscan.Masked{}, false
	}
	var blank []topDecl
	for _, d := range ds {
		if d.kind == declFunc && !d.method && d.end > 0 && src[d.end-1] == '}' && funcName(src, d) != name {
			blank = append(blank, d)
		}
	}
	if len(blank) == 0 {
		return testscan.Masked{}, false
	}
	return blankDecls(src, blank), true
}

// funcName is the name of a function declaration without a receiver.
func funcName(src []byte, d topDecl) string {
	r := skipBlank(src[d.start+len("func") : d.end])
	n := 0
	for n < len(r) && isIdentByte(r[n]) {
		n++
	}
	return string(r[:n])
}

// blankDecls returns src with each of ds (in source order, modified: a
// declaration takes the semicolon after it) blanked: a declaration becomes
// a space, and a newline when it spans lines, so that the scanner walks
// neither its width in blanks nor its lines; the LineMap gives the lines
// after it back their numbers. src itself when ds is empty.
func blankDecls(src []byte, ds []topDecl) testscan.Masked {
	if len(ds) == 0 {
		return testscan.Masked{Src: src}
	}
	lines := make([]int, len(ds))
	size := len(src)
	for i := range ds {
		// A semicolon that ends the declaration on its line goes with
		// it: alone, it is not a declaration.
		d := &ds[i]
		j := d.end
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j < len(src) && src[j] == ';' {
			d.end = j + 1
		}
		lines[i] = bytes.Count(src[d.start:d.end], newline)
		size -= d.end - d.start - 2
	}
	out := make([]byte, 0, size)
	var m testscan.LineMap
	line, add, from := 1, 0, 0
	for i, d := range ds {
		line += bytes.Count(src[from:d.start], newline)
		out = append(out, src[from:d.start]...)
		out = append(out, ' ')
		if lines[i] > 0 {
			// What follows the declaration's last line is on the
			// masked source's next line.
			out = append(out, '\n')
			line++
			if lines[i] > 1 {
				add += lines[i] - 1
				m = append(m, testscan.LineShift{From: line, Add: add})
			}
		}
		from = d.end
	}
	return testscan.Masked{Src: append(out, src[from:]...), Lines: m}
}

var newline = []byte{'\n'}

// importsTestingIn is importsTesting of a file's import declarations
// (ds, its declarations): the rest of a large file need not be read.
func importsTestingIn(src []byte, ds []topDecl) bool {
	for _, d := range ds {
		if d.kind == declImport && importsTesting(src[d.start:d.end]) {
			return true
		}
	}
	return false
}

// importsTesting reports whether src may import package testing or name
// another import testing: it holds "testing" quoted, or testing before a
// quoted path (comments that say testing do not count).
func importsTesting(src []byte) bool {
	return bytes.Contains(src, []byte(`"testing"`)) || bytes.Contains(src, []byte(`testing "`)) || bytes.Contains(src, []byte("testing `"))
}

// sameFamilies reports whether every name imported by either version stands
// for the same package family in both (a name not imported falls back to its
// default family, as the extraction does).
func sameFamilies(old, new []byte) bool {
	of, ok1 := importsOf(old)
	nf, ok2 := importsOf(new)
	if !ok1 || !ok2 {
		return false
	}
	fam := func(m map[string]string, name string) string {
		if f, ok := m[name]; ok {
			return f
		}
		return defaultFamilies[name]
	}
	for _, m := range []map[string]string{of, nf} {
		for name := range m {
			if fam(of, name) != fam(nf, name) {
				return false
			}
		}
	}
	return true
}

// importsOf parses only a file's package clause and imports.
func importsOf(src []byte) (map[string]string, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	return importedFamilies(f), true
}

type declKind uint8

const (
	declOther  declKind = iota // package, var, const, type
	declFunc                   // a function or method
	declImport                 // an import declaration
)

// topDecl is a top-level declaration: from its keyword to the end of its
// last token (comments after it are not part of it).
type topDecl struct {
	start, end int
	kind       declKind
	// method: a function with a receiver.
	method bool
	// hash is that of the declaration's bytes (declSeed), set by
	// scanDeclsCached.
	hash uint64
}

// declSeed hashes declarations the same way in every call, so that a
// version's declarations are hashed once.
var declSeed = maphash.MakeSeed()

// declCache holds the declarations of recent file versions by a hash of
// their bytes: in a range each version is both sides of two changes.
var declCache struct {
	sync.Mutex
	m map[declKey][]topDecl
	n int // declarations held
}

type declKey struct {
	sum uint64
	n   int
}

// maxDeclCache bounds the declarations declCache holds (32 bytes each); it
// is emptied when full. Counting versions let it hold 9 MB after
// prometheus's last 2,000 commits.
const maxDeclCache = 1 << 16

// scanDeclsCached is scanDecls with each declaration's hash, once per
// version. A version that does not scan is not cached.
func scanDeclsCached(src []byte) ([]topDecl, bool) {
	k := declKey{maphash.Bytes(declSeed, src), len(src)}
	declCache.Lock()
	ds, hit := declCache.m[k]
	declCache.Unlock()
	if hit {
		return ds, true
	}
	ds, ok := scanDecls(src)
	if !ok {
		return nil, false
	}
	for i := range ds {
		ds[i].hash = maphash.Bytes(declSeed, src[ds[i].start:ds[i].end])
	}
	declCache.Lock()
	if declCache.m == nil || declCache.n+len(ds) > maxDeclCache {
		declCache.m, declCache.n = map[declKey][]topDecl{}, 0
	}
	declCache.m[k] = ds
	declCache.n += len(ds)
	declCache.Unlock()
	return ds, true
}

// scanDecls finds the top-level declarations of src by scanning tokens:
// comments, strings, raw strings and runes are skipped as Go's scanner does,
// brackets are counted, and a declaration keyword starts a declaration only at
// depth 0 at the start of a statement (after an explicit or automatically
// inserted semicolon). ok is false for anything it cannot scan.
func scanDecls(src []byte) (decls []topDecl, ok bool) {
	n := len(src)
	i := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	depth := 0
	trig := false     // the last token ends a statement at a newline
	stmtStart := true // the next token starts a statement
	lastEnd := i      // end of the last token
	cur := -1         // index in decls of the declaration under way
	closeCur := func() {
		if cur >= 0 {
			decls[cur].end = lastEnd
			cur = -1
		}
	}
	newline := func() {
		if trig {
			trig = false
			stmtStart = true
		}
	}
	for i < n {
		if depth > 0 {
			// Inside brackets only brackets, literals and comments count:
			// the token that closes the last bracket sets the state that
			// the rest of the scan reads (a closer ends a statement at a
			// newline), so what lies between needs no reading.
			for i < n && !nestedStop[src[i]] {
				i++
			}
			if i >= n {
				break
			}
		}
		c := src[i]
		switch {
		case c == '\n':
			newline()
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return nil, false
			}
			if bytes.IndexByte(src[i+2:i+2+end], '\n') >= 0 {
				newline()
			}
			i += 2 + end + 2
			continue
		}
		// A token.
		start := i
		atStmt := stmtStart && depth == 0
		stmtStart = false
		switch {
		case c == '"' || c == '\'':
			i++
			for {
				if i >= n || src[i] == '\n' {
					return nil, false
				}
				if src[i] == '\\' {
					i += 2
					continue
				}
				if src[i] == c {
					i++
					break
				}
				i++
			}
			trig = true
		case c == '`':
			end := bytes.IndexByte(src[i+1:], '`')
			if end < 0 {
				return nil, false
			}
			i += 1 + end + 1
			trig = true
		case isIdentByte(c) && !(c >= '0' && c <= '9'):
			for i < n && isIdentByte(src[i]) {
				i++
			}
			word := string(src[start:i])
			switch word {
			case "break", "continue", "fallthrough", "return":
				trig = true
			case "package", "import", "var", "const", "type", "func":
				trig = false
				if atStmt {
					closeCur()
					d := topDecl{start: start}
					switch word {
					case "func":
						d.kind = declFunc
						rest := skipBlank(src[i:])
						d.method = len(rest) > 0 && rest[0] == '('
					case "import":
						d.kind = declImport
					}
					decls = append(decls, d)
					cur = len(decls) - 1
				}
			default:
				if isKeyword(word) {
					trig = false
				} else {
					trig = true
				}
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			for i < n && (isIdentByte(src[i]) || src[i] == '.' ||
				(src[i] == '+' || src[i] == '-') && isExponent(src[i-1])) {
				i++
			}
			trig = true
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
			trig = false
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return nil, false
			}
			i++
			trig = true
		case c == ';':
			i++
			trig = false
			if depth == 0 {
				stmtStart = true
			}
			continue // not part of the declaration it ends
		case (c == '+' || c == '-') && i+1 < n && src[i+1] == c:
			i += 2
			trig = true
		default:
			i++
			trig = false
		}
		lastEnd = i
	}
	if depth != 0 {
		return nil, false
	}
	closeCur()
	return decls, true
}

// nestedStop marks the bytes scanDecls reads inside brackets: those that
// open or close a bracket, a literal or a comment.
var nestedStop = func() (t [256]bool) {
	for _, b := range []byte("()[]{}\"'`/") {
		t[b] = true
	}
	return t
}()

// isExponent reports whether b introduces a number's exponent sign.
func isExponent(b byte) bool { return b == 'e' || b == 'E' || b == 'p' || b == 'P' }

// identByte is isIdentByte as a table.
var identByte = func() (t [256]bool) {
	for b := range t {
		t[b] = isIdentByte(byte(b))
	}
	return t
}()

// isIdentByte reports whether b can be part of an identifier or a number.
// Bytes of multi-byte UTF-8 characters count: outside literals and comments
// they can only be letters of identifiers.
func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true, "goto": true,
	"if": true, "import": true, "interface": true, "map": true, "package": true, "range": true,
	"return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
}

func isKeyword(w string) bool { return goKeywords[w] }

// skipBlank skips white space and comments.
func skipBlank(b []byte) []byte {
	for len(b) > 0 {
		switch {
		case b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n':
			b = b[1:]
		case bytes.HasPrefix(b, []byte("//")):
			k := bytes.IndexByte(b, '\n')
			if k < 0 {
				return nil
			}
			b = b[k:]
		case bytes.HasPrefix(b, []byte("/*")):
			k := bytes.Index(b[2:], []byte("*/"))
			if k < 0 {
				return nil
			}
			b = b[2+k+2:]
		default:
			return b
		}
	}
	return b
}

// skipHelper reports a function declaration of a test file that is not a
// test, benchmark, fuzz test or example and calls a Skip method: a helper
// that may skip the test it is handed, which the tests calling it read
// (helperSkip).
func skipHelper(decl []byte) bool {
	rest, ok := bytes.CutPrefix(decl, []byte("func "))
	if !ok || !bytes.Contains(decl, []byte(".Skip")) {
		return false
	}
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if bytes.HasPrefix(rest, []byte(p)) {
			return false
		}
	}
	return true
}
