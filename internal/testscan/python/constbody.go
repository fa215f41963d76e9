package python

import (
	"sort"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// funcNames returns the functions and methods of a production module
// (File.FuncNames): the defs at its top level and in its classes ("total",
// "Cart.total", "Outer.Inner.f"), through if and try blocks but not into
// function bodies, and, among them, the placeholders whose whole body,
// after an optional docstring, returns a constant (see constantReturn).
func (m *module) funcNames() (names []string, placeholders []testscan.Marker) {
	seen := map[string]bool{}
	var visit func(body []*stmt, prefix string)
	visit = func(body []*stmt, prefix string) {
		for _, s := range body {
			switch {
			case s.isDef():
				name := s.defName()
				if name == "" {
					continue
				}
				name = prefix + name
				if !seen[name] {
					seen[name] = true
					names = append(names, name)
				}
				if ret := m.constantReturn(s); ret != nil && !m.testDefs[s] {
					value := compact(ret.toks)
					if ret.tok(0) == "return" {
						value = "return " + compact(ret.toks[1:])
					}
					placeholders = append(placeholders, testscan.Marker{Line: ret.line, Kind: "constant-body", Text: name, Value: value})
				}
			case s.isClass():
				if n := s.defName(); n != "" {
					visit(s.body, prefix+n+".")
				}
			case s.header:
				switch s.keyword() {
				case "if", "elif", "else", "try", "except", "finally":
					visit(s.body, prefix)
				}
			}
		}
	}
	visit(m.root.body, "")
	return names, placeholders
}

// constantReturn returns the statement of a def's whole body, after an
// optional docstring, when it returns a constant: a number, a string, True,
// False, None or an empty list, dict or tuple. A def that declares rather
// than computes is left out: an abstract method, a property (its getter,
// setter or deleter), an overload, and one its decorator, docstring or
// comment says is deprecated. A body of `pass` or `...` alone returns
// None too, and is one: an existing function whose real body became
// `pass` is stubbed out, and one whose `pass` became `return None` (click's
// Parameter.get_help_record) changed nothing.
func (m *module) constantReturn(def *stmt) *stmt {
	body := def.body
	var doc *stmt
	if len(body) == 2 && isDocstring(body[0]) {
		doc, body = body[0], body[1:]
	}
	if len(body) != 1 || body[0].header {
		return nil
	}
	switch {
	case len(body[0].toks) == 1 && (body[0].tok(0) == "pass" || body[0].tok(0) == "..."):
	case body[0].tok(0) != "return" || !constantExpr(stripParens(body[0].toks[1:])):
		return nil
	}
	for _, d := range def.decos {
		switch decoratorName(d) {
		case "abstractmethod", "abstractproperty", "abstractclassmethod", "abstractstaticmethod",
			"property", "cached_property", "getter", "setter", "deleter", "overload", "deprecated":
			return nil
		}
	}
	if doc != nil {
		for _, t := range doc.toks {
			if testscan.DeprecatedDoc(parseStringToken(t.text).value()) {
				return nil
			}
		}
	}
	if m.deprecatedComment(def.startLine()) {
		return nil
	}
	return body[0]
}

// deprecatedComment reports whether the comments on the lines right above
// line say the declaration there is deprecated.
func (m *module) deprecatedComment(line int) bool {
	k := sort.Search(len(m.comments), func(k int) bool { return int(m.comments[k].line) >= line }) - 1
	for ; k >= 0 && int(m.comments[k].line) == line-1; k-- {
		if testscan.DeprecatedDoc(m.comments[k].text) {
			return true
		}
		line--
	}
	return false
}

// decoratorName is the last name of a decorator's dotted path, before its
// arguments: "setter" for @total.setter, "deprecated" for
// @typing_extensions.deprecated("use sum").
func decoratorName(d *stmt) string {
	name := ""
	for _, t := range d.toks[1:] {
		if t.kind == tkName {
			name = t.text
		} else if !isOp(t, ".") {
			break
		}
	}
	return name
}

// constantExpr reports whether toks are one constant: a number (signed or
// not), one or more adjacent plain string literals, True, False, None, or
// an empty [], {} or ().
func constantExpr(toks []token) bool {
	switch len(toks) {
	case 0:
		return false
	case 1:
		switch toks[0].kind {
		case tkNumber:
			return true
		case tkName:
			return toks[0].text == "True" || toks[0].text == "False" || toks[0].text == "None"
		}
	case 2:
		switch {
		case (isOp(toks[0], "-") || isOp(toks[0], "+")) && toks[1].kind == tkNumber:
			return true
		case isOp(toks[0], "[") && isOp(toks[1], "]"), isOp(toks[0], "{") && isOp(toks[1], "}"), isOp(toks[0], "(") && isOp(toks[1], ")"):
			return true
		}
	}
	for _, t := range toks {
		if t.kind != tkString || parseStringToken(t.text).format {
			return false
		}
	}
	return true
}
