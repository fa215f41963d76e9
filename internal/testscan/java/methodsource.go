package java

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// methodSourceRows reads the rows of a parameterized test's @MethodSource
// when its factory is a method of the same class (named by the annotation,
// or the test's own name when it names none) that returns one literal
// table: `return new String[] {"a", "b"};`, `return Stream.of("a", "b");`,
// `return Stream.of(arguments("a", 1), Arguments.of("b", 2));`,
// Arrays.asList(..) or List.of(..). A row is the literals of one element
// (of one arguments(..) call). Any other factory (a loop, a builder, a
// method of another class, several returns) gives no rows: the test stays
// one case, as before.
func (p *parser) methodSourceRows(m *methodDecl) [][]string {
	param := false
	var src *annotation
	for i, a := range m.annots {
		param = param || a.name == "ParameterizedTest"
		if a.name == "MethodSource" {
			src = &m.annots[i]
		}
	}
	if !param || src == nil {
		return nil
	}
	var names []string
	for _, t := range src.args {
		switch {
		case t.Kind == tkString:
			names = append(names, strings.Trim(t.Text, `"`))
		case t.Kind == tkIdent && t.Text != "value":
			return nil // a constant naming the factory
		}
	}
	if len(names) == 0 {
		names = []string{m.name}
	}
	var rows [][]string
	for _, name := range names {
		f := p.factory(m.owner, name)
		if f == nil {
			return nil
		}
		elems := p.tableElements(f)
		if elems == nil {
			return nil
		}
		for _, e := range elems {
			rows = append(rows, literals(argumentsOf(e)))
		}
	}
	return rows
}

// factory returns the method named name of the type owner that takes no
// parameters and has a body (JUnit's choice among overloads, the test
// itself among them when the factory shares its name), or nil.
func (p *parser) factory(owner *typeDecl, name string) *methodDecl {
	var found *methodDecl
	for _, f := range p.methods {
		if f.owner != owner || f.name != name || f.bodyOpen < 0 || !f.noParams {
			continue
		}
		if found != nil {
			return nil
		}
		found = f
	}
	return found
}

// tableElements returns the elements of the one table the body of f
// returns (see methodSourceRows), or nil.
func (p *parser) tableElements(f *methodDecl) [][]token {
	body := p.toks[f.bodyOpen+1 : f.bodyClose]
	ret := -1
	depth := 0
	for i, t := range body {
		if t.Kind == tkPunct {
			switch t.Text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
			continue
		}
		if t.Kind == tkIdent && t.Text == "return" {
			if depth != 0 || ret >= 0 {
				return nil
			}
			ret = i
		}
	}
	if ret < 0 {
		return nil
	}
	// Only declarations of the table's values may come before the return.
	expr := body[ret+1:]
	end := -1
	clex.TopPuncts(expr, tkPunct, func(i int, text string) {
		if text == ";" && end < 0 {
			end = i
		}
	})
	if end < 0 || end+1 != len(expr) {
		return nil // code after the return
	}
	expr = expr[:end]
	if len(expr) < 3 {
		return nil
	}
	last := expr[len(expr)-1]
	var inner []token
	switch {
	case expr[0].Text == "new" && last.Text == "}":
		open := -1
		for i, t := range expr {
			if t.Kind == tkPunct && t.Text == "{" {
				open = i
				break
			}
		}
		if open < 0 || !closesAt(expr, open) {
			return nil
		}
		inner = expr[open+1 : len(expr)-1]
	case last.Text == ")":
		// Q.of(..), Q.asList(..): a qualified call and nothing else.
		i := 0
		for i+2 < len(expr) && expr[i].Kind == tkIdent && expr[i+1].Text == "." {
			i += 2
		}
		if i+1 >= len(expr) || i == 0 || expr[i].Kind != tkIdent || expr[i+1].Text != "(" ||
			(expr[i].Text != "of" && expr[i].Text != "asList") || !closesAt(expr, i+1) {
			return nil
		}
		inner = expr[i+2 : len(expr)-1]
	default:
		return nil
	}
	if len(inner) == 0 {
		return [][]token{}
	}
	return splitArgs(inner)
}

// closesAt reports whether the group opened at expr[open] closes at the
// last token of expr.
func closesAt(expr []token, open int) bool {
	depth := 0
	for i := open; i < len(expr); i++ {
		if expr[i].Kind != tkPunct {
			continue
		}
		switch expr[i].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return i == len(expr)-1
			}
		}
	}
	return false
}

// argumentsOf returns the arguments of an element that is one call of
// arguments(..), Arguments.of(..) or Arguments.arguments(..), and the
// element itself otherwise.
func argumentsOf(e []token) []token {
	i := 0
	for i+2 < len(e) && e[i].Kind == tkIdent && e[i+1].Text == "." {
		i += 2
	}
	if i+1 < len(e) && e[i].Kind == tkIdent && (e[i].Text == "arguments" || e[i].Text == "of" && i > 0) &&
		e[i+1].Text == "(" && closesAt(e, i+1) {
		return e[i+2 : len(e)-1]
	}
	return e
}
