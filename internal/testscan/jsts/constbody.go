package jsts

import (
	"sort"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// maxHead bounds the tokens read between a function's name and its body
// (type parameters, a return type), keeping hostile input linear.
const maxHead = 64

// funcNames returns the functions a production module declares (File.FuncNames):
// at its top level, function declarations and `const f =` arrow functions
// and function expressions ("total"); in its top-level classes, methods
// and arrow-function fields ("Cart.total"); and, among them, the
// placeholders whose whole body returns a constant (see constantBody).
// Functions nested in other code are left out: a callback that returns a
// constant is no function of the module's.
func (t *tree) funcNames() (names []string, placeholders []testscan.Marker) {
	n := len(t.toks)
	seen := map[string]bool{}
	add := func(name string, start, body int, concise bool) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		if body < 0 {
			return
		}
		if m, ok := t.constantBody(body, concise); ok && !t.deprecatedAt(start) {
			m.Text = name
			placeholders = append(placeholders, m)
		}
	}
	for i := 0; i < n; i = t.skip(i, n) {
		if t.kind(i) != tkIdent || t.isMember(i) {
			continue
		}
		switch t.toks[i].Text {
		case "function":
			if name, body := t.functionDecl(i); name != "" {
				add(name, t.declStart(i), body, false)
			}
		case "const", "let", "var":
			if t.kind(i+1) != tkIdent {
				continue
			}
			eq := t.initializer(i+2, n)
			if eq < 0 {
				continue
			}
			if body, concise, ok := t.functionValue(eq + 1); ok {
				add(t.toks[i+1].Text, t.declStart(i), body, concise)
			}
		case "class":
			if t.kind(i+1) != tkIdent || t.ident(i+1, "extends") || t.ident(i+1, "implements") {
				continue
			}
			if open := t.classBody(i + 2); open >= 0 {
				t.classMembers(t.toks[i+1].Text, open, add)
			}
		}
	}
	return names, placeholders
}

// functionDecl reads `function name(...) {` at i: the name, and the index
// of the body's brace, -1 for a generator (whose return is no value of the
// call) or a declaration without a body (a TypeScript overload).
func (t *tree) functionDecl(i int) (name string, body int) {
	j := i + 1
	generator := t.punct(j, "*")
	if generator {
		j++
	}
	if t.kind(j) != tkIdent {
		return "", -1
	}
	open := t.paramsOpen(j + 1)
	if open < 0 {
		return "", -1
	}
	body = t.bodyAfter(int(t.match[open]) + 1)
	if generator {
		body = -1
	}
	return t.toks[j].Text, body
}

// paramsOpen returns the "(" of a parameter list at k, after TypeScript
// type parameters (<T extends K>), -1 when there is none.
func (t *tree) paramsOpen(k int) int {
	if t.punct(k, "<") {
		angle := 0
		for end := k + maxHead; k < end && k < len(t.toks); k = t.skip(k, len(t.toks)) {
			switch {
			case t.punct(k, "<"):
				angle++
			case t.punct(k, ">"):
				angle--
			case t.punct(k, ">>"):
				angle -= 2
			}
			if angle <= 0 {
				k++
				break
			}
		}
	}
	if t.punct(k, "(") && t.matched(k, len(t.toks)) {
		return k
	}
	return -1
}

// bodyAfter returns the "{" of the body that follows a parameter list
// closed just before k, after a TypeScript return type (`: Promise<{ a:
// number }>`, whose braces follow a type's punctuation), -1 when another
// token ends the declaration first.
func (t *tree) bodyAfter(k int) int {
	n := len(t.toks)
	if t.punct(k, "{") && t.matched(k, n) {
		return k
	}
	if !t.punct(k, ":") {
		return -1
	}
	for end := k + maxHead; k < end && k < n; k = t.skip(k, n) {
		switch {
		case t.punct(k, "{"):
			if !typeContinues(t, k-1) && t.matched(k, n) {
				return k
			}
		case t.punct(k, ";") || t.punct(k, "=>") || t.punct(k, "=") || t.closes(k):
			return -1
		}
	}
	return -1
}

// closes reports a closing bracket at k.
func (t *tree) closes(k int) bool {
	return k >= 0 && k < len(t.toks) && clex.Closer(t.toks[k].Token, tkPunct)
}

// typeContinues reports whether a type goes on after token k, so that a
// brace there opens an object type rather than a body.
func typeContinues(t *tree, k int) bool {
	switch t.kind(k) {
	case tkPunct:
		switch t.toks[k].Text {
		case ":", "|", "&", "<", ",", "=>", "(", "[", "?", "=":
			return true
		}
	case tkIdent:
		switch t.toks[k].Text {
		case "is", "keyof", "typeof", "extends", "infer", "readonly", "in", "of":
			return true
		}
	}
	return false
}

// initializer returns the "=" of a declarator whose name ends just before
// k, after a TypeScript type annotation, -1 when there is none.
func (t *tree) initializer(k, n int) int {
	if t.punct(k, "=") {
		return k
	}
	if !t.punct(k, ":") && !t.punct(k, "!") {
		return -1
	}
	for end := k + maxHead; k < end && k < n; k = t.skip(k, n) {
		switch {
		case t.punct(k, "="):
			return k
		case t.punct(k, ";") || t.punct(k, ",") || t.closes(k):
			return -1
		}
	}
	return -1
}

// functionValue reads the function expression at k: `function (...) {`,
// `async (...) =>`, `x =>`, `<T>(x: T): U =>`. body is the index of its
// block's "{", or of its concise body's first token (concise set); -1
// for a generator.
func (t *tree) functionValue(k int) (body int, concise, ok bool) {
	if t.ident(k, "async") && !t.punct(k+1, "=>") {
		k++
	}
	switch {
	case t.ident(k, "function"):
		generator := t.punct(k+1, "*")
		j := k + 1
		if generator {
			j++
		}
		if t.kind(j) == tkIdent {
			j++
		}
		open := t.paramsOpen(j)
		if open < 0 {
			return -1, false, false
		}
		body = t.bodyAfter(int(t.match[open]) + 1)
		if body < 0 {
			return -1, false, false
		}
		if generator {
			body = -1
		}
		return body, false, true
	case t.kind(k) == tkIdent && t.punct(k+1, "=>"):
		k += 2
	default:
		open := t.paramsOpen(k)
		if open < 0 {
			return -1, false, false
		}
		k = int(t.match[open]) + 1
		if t.punct(k, ":") {
			// A return type: the arrow is the first at this level.
			n := len(t.toks)
			for end := k + maxHead; k < end && k < n && !t.punct(k, "=>"); k = t.skip(k, n) {
				if t.punct(k, ";") || t.punct(k, "=") || t.closes(k) {
					return -1, false, false
				}
			}
		}
		if !t.punct(k, "=>") {
			return -1, false, false
		}
		k++
	}
	if k >= len(t.toks) {
		return -1, false, false
	}
	if t.punct(k, "{") {
		return k, false, t.matched(k, len(t.toks))
	}
	return k, true, true
}

// classBody returns the "{" of a class body whose heading (extends,
// implements, type parameters) starts at k, -1 when there is none.
func (t *tree) classBody(k int) int {
	n := len(t.toks)
	for end := k + maxHead; k < end && k < n; k = t.skip(k, n) {
		switch {
		case t.punct(k, "{"):
			if !typeContinues(t, k-1) && !t.ident(k-1, "extends") && !t.ident(k-1, "implements") {
				if t.matched(k, n) {
					return k
				}
				return -1
			}
		case t.punct(k, ";") || t.punct(k, "=") || t.closes(k):
			return -1
		}
	}
	return -1
}

// memberModifiers may stand before a class member's name.
var memberModifiers = set("static", "async", "public", "private", "protected", "override", "readonly", "declare", "abstract", "accessor")

// classMembers passes the methods and arrow-function fields of the class
// body opened at open to add, named "Class.member". Accessors and the
// constructor are left out: they define rather than compute.
func (t *tree) classMembers(class string, open int, add func(name string, start, body int, concise bool)) {
	close := int(t.match[open])
	for k := open + 1; k < close; k = t.skip(k, close) {
		isMethod := t.punct(k, "(")
		if !isMethod && !t.punct(k, "=") {
			continue
		}
		name := k - 1
		if t.kind(name) != tkIdent || t.ident(name, "constructor") || !t.memberStart(name, open) {
			continue
		}
		start := name
		for start-1 > open && t.kind(start-1) == tkIdent && memberModifiers[t.toks[start-1].Text] {
			start--
		}
		if isMethod {
			body := -1
			if t.matched(k, close) {
				body = t.bodyAfter(int(t.match[k]) + 1)
			}
			if t.punct(name-1, "*") {
				body = -1
			}
			add(class+"."+t.toks[name].Text, start, body, false)
			continue
		}
		if body, concise, ok := t.functionValue(k + 1); ok {
			add(class+"."+t.toks[name].Text, start, body, concise)
		}
	}
}

// memberStart reports whether the name at k starts a class member: it
// follows the body's brace, a semicolon, another member's closing brace, a
// modifier or a generator's star, or ends a line before it (a field
// without its semicolon, a decorator). A getter or setter does not count.
func (t *tree) memberStart(k, open int) bool {
	p := k - 1
	switch {
	case p == open || t.punct(p, ";") || t.punct(p, "}") || t.punct(p, "*"):
		return true
	case t.ident(p, "get") || t.ident(p, "set"):
		return false
	case t.kind(p) == tkIdent && memberModifiers[t.toks[p].Text]:
		return true
	}
	if t.toks[p].Line == t.toks[k].Line {
		return false
	}
	return t.kind(p) != tkPunct || t.punct(p, ")") || t.punct(p, "]")
}

// declStart returns the first token of the top-level declaration whose
// keyword is at k: export, default, declare and async before it.
func (t *tree) declStart(k int) int {
	for k > 0 && t.parent[k-1] < 0 && (t.ident(k-1, "export") || t.ident(k-1, "default") || t.ident(k-1, "declare") || t.ident(k-1, "async")) {
		k--
	}
	return k
}

// deprecatedAt reports whether the comments right before token k (a doc
// comment, with any lint directives after it) say the declaration is
// deprecated.
func (t *tree) deprecatedAt(k int) bool {
	from := 0
	if k > 0 {
		from = t.toks[k-1].endOff()
	}
	to := int(t.toks[k].Off)
	c := sort.Search(len(t.comments), func(c int) bool { return t.comments[c].off >= from })
	for ; c < len(t.comments) && t.comments[c].off < to; c++ {
		if testscan.DeprecatedDoc(commentBody(t.comments[c].text)) {
			return true
		}
	}
	return false
}

// constantBody reads a function body that only returns a constant (see
// constantAt): a block `{ return 0; }` opened at k, or a concise arrow
// body at k that ends its statement. The marker has Line and Value.
func (t *tree) constantBody(k int, concise bool) (testscan.Marker, bool) {
	n := len(t.toks)
	if concise {
		next, ok := t.constantAt(k)
		if !ok || next < n && !t.punct(next, ";") && !t.punct(next, ",") && !t.closes(next) &&
			(t.toks[next].Line == t.toks[next-1].Line || continuesLine(&t.toks[next])) {
			return testscan.Marker{}, false
		}
		return testscan.Marker{Line: t.toks[k].Line, Kind: "constant-body", Value: t.norm(k, next)}, true
	}
	close := int(t.match[k])
	r := k + 1
	if !t.ident(r, "return") || r+1 >= close || t.toks[r+1].Line != t.toks[r].Line {
		return testscan.Marker{}, false
	}
	next, ok := t.constantAt(r + 1)
	if t.punct(next, ";") {
		next++
	}
	if !ok || next != close {
		return testscan.Marker{}, false
	}
	return testscan.Marker{Line: t.toks[r].Line, Kind: "constant-body", Value: "return " + t.norm(r+1, close)}, true
}

// constantAt reads a constant at k: a number (signed or not), a string, a
// template without substitutions, true, false, null, undefined, an empty
// array or object, or one of those in parentheses. It returns the index
// after it.
func (t *tree) constantAt(k int) (int, bool) {
	n := len(t.toks)
	if _, next, ok := t.literalText(k, n); ok {
		return next, true
	}
	switch {
	case t.kind(k) == tkIdent:
		switch t.toks[k].Text {
		case "true", "false", "null", "undefined":
			return k + 1, true
		}
	case t.punct(k, "[") || t.punct(k, "{"):
		if int(t.match[k]) == k+1 {
			return k + 2, true
		}
	case t.punct(k, "("):
		// (0), (({})): parentheses around a constant.
		depth := 0
		for t.punct(k+depth, "(") && depth < 4 {
			depth++
		}
		if t.punct(k+depth, "(") {
			return k, false
		}
		next, ok := t.constantAt(k + depth)
		for ; ok && depth > 0 && t.punct(next, ")") && int(t.match[next]) == k+depth-1; depth-- {
			next++
		}
		if ok && depth == 0 {
			return next, true
		}
	}
	return k, false
}
