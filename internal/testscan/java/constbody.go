package java

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// funcNames returns the methods and constructors with a body that a
// production file declares (File.FuncNames), named by their classes as
// Funcs names them ("Parser.parse", "Outer.Inner.get"), each once, and,
// among them, the placeholders whose whole body returns a constant (see
// constantBody). Abstract and interface methods have no body to read;
// deprecated methods, whose body may rightly have become a no-op, are
// named but not read.
func (p *parser) funcNames(comments []comment) (names []string, placeholders []testscan.Marker) {
	seen := map[string]bool{}
	for _, m := range p.methods {
		if p.isTest(m) {
			continue
		}
		name := m.owner.qual + "." + m.name
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		if m.bodyClose >= len(p.toks) || hasAnnotation(m.annots, "Deprecated") || deprecatedDoc(comments, m.start) {
			continue
		}
		if mk, ok := p.constantBody(m.bodyOpen, m.bodyClose); ok {
			mk.Text = name
			placeholders = append(placeholders, mk)
		}
	}
	return names, placeholders
}

func hasAnnotation(as []annotation, name string) bool {
	for _, a := range as {
		if a.name == name {
			return true
		}
	}
	return false
}

// deprecatedDoc reports whether the comments right before the token at
// start (a javadoc's @deprecated) say the method is deprecated.
func deprecatedDoc(comments []comment, start int) bool {
	return testscan.DeprecatedBefore(len(comments), func(c int) int { return comments[c].off },
		func(c int) string { return comments[c].text }, start)
}

// constantBody reads a method body, between the braces at open and close,
// that is `return` and a constant: a literal (a string, char or number,
// true, false, null) or an empty value (see emptyValue: "", an empty
// Optional, collection or array). A field (`return this.name;`), a named
// constant and a computed value are not constant bodies. The marker has
// Line and Value.
func (p *parser) constantBody(open, close int) (testscan.Marker, bool) {
	r := open + 1
	if !p.is(r, "return") || close-r < 3 || !p.is(close-1, ";") {
		return testscan.Marker{}, false
	}
	expr := p.toks[r+1 : close-1]
	if !isLiteral(expr) && !emptyValue(expr) {
		return testscan.Marker{}, false
	}
	return testscan.Marker{Line: p.toks[r].Line, Kind: "constant-body", Value: "return " + oneLine(joinTokens(expr))}, true
}
