package jsts

import (
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// exports returns the names a module exports, ES module and CommonJS forms.
func (t *tree) exports() []testscan.Symbol {
	var out []testscan.Symbol
	aliases := t.exportAliases()
	for i := range t.toks {
		if t.toks[i].Kind != tkIdent || t.isMember(i) {
			continue
		}
		if aliases[t.toks[i].Text] && t.parent[i] < 0 && t.punct(i+1, ".") && t.kind(i+2) == tkIdent && t.punct(i+3, "=") {
			// req.param = function ... where module.exports is req.
			out = t.symbol(out, t.toks[i+2].Text, "export", i+2)
			continue
		}
		switch t.toks[i].Text {
		case "export":
			out = t.esExport(i, out)
		case "module":
			if t.punct(i+1, ".") && t.ident(i+2, "exports") {
				out = t.cjsExport(i, i+3, out)
			}
		case "exports":
			out = t.cjsExport(i, i+1, out)
		}
	}
	return out
}

// exportAliases returns the top-level variables a CommonJS module exports
// as a whole: module.exports = req; var app = exports = module.exports = {}.
// Properties assigned to one at the top level are its exports.
func (t *tree) exportAliases() map[string]bool {
	var out map[string]bool
	add := func(name string) {
		if out == nil {
			out = map[string]bool{}
		}
		out[name] = true
	}
	modExports := func(j int) bool {
		return t.ident(j, "module") && t.punct(j+1, ".") && t.ident(j+2, "exports") && t.punct(j+3, "=")
	}
	for i := range t.toks {
		if t.parent[i] >= 0 || t.toks[i].Kind != tkIdent || t.isMember(i) {
			continue
		}
		switch {
		case modExports(i) && t.kind(i+4) == tkIdent && !t.punct(i+5, ".") && !t.punct(i+5, "(") && !t.punct(i+5, "[") && !t.punct(i+5, "?."):
			add(t.toks[i+4].Text)
		case (t.ident(i, "var") || t.ident(i, "let") || t.ident(i, "const")) && t.kind(i+1) == tkIdent && t.punct(i+2, "="):
			j := i + 3
			if t.ident(j, "exports") && t.punct(j+1, "=") {
				j += 2
			}
			if modExports(j) {
				add(t.toks[i+1].Text)
			}
		}
	}
	return out
}

func (t *tree) symbol(out []testscan.Symbol, name string, kind string, tok int) []testscan.Symbol {
	if name == "" {
		return out
	}
	return append(out, testscan.Symbol{Name: name, Kind: kind, Line: t.toks[tok].Line})
}

// esExport reads the declaration after "export" at i.
func (t *tree) esExport(i int, out []testscan.Symbol) []testscan.Symbol {
	n := len(t.toks)
	k := i + 1
	for t.ident(k, "declare") || t.ident(k, "abstract") || t.ident(k, "async") {
		k++
	}
	if k >= n {
		return out
	}
	name := func(j int) string {
		if t.kind(j) == tkIdent {
			return t.toks[j].Text
		}
		return ""
	}
	tk := &t.toks[k]
	switch {
	case tk.Kind == tkPunct && tk.Text == "=": // TypeScript: export = value
		return t.symbol(out, "default", "export", k)
	case tk.Kind == tkPunct && tk.Text == "*":
		if t.ident(k+1, "as") && t.kind(k+2) == tkIdent {
			return t.symbol(out, t.toks[k+2].Text, "export", k+2)
		}
		if t.ident(k+1, "from") && t.kind(k+2) == tkString {
			return t.symbol(out, "* from "+t.toks[k+2].val, "export", k)
		}
	case tk.Kind == tkPunct && tk.Text == "{":
		return t.exportList(k, out)
	case tk.Kind != tkIdent:
	case tk.Text == "default":
		return t.symbol(out, "default", "export", k)
	case tk.Text == "function":
		j := k + 1
		if t.punct(j, "*") {
			j++
		}
		return t.symbol(out, name(j), "func", j)
	case tk.Text == "class":
		return t.symbol(out, name(k+1), "class", k+1)
	case tk.Text == "interface", tk.Text == "enum":
		return t.symbol(out, name(k+1), "type", k+1)
	case tk.Text == "type":
		if t.punct(k+1, "{") {
			return t.exportList(k+1, out)
		}
		if t.punct(k+1, "*") {
			return t.esExport(k, out)
		}
		return t.symbol(out, name(k+1), "type", k+1)
	case tk.Text == "namespace", tk.Text == "module":
		return t.symbol(out, name(k+1), "export", k+1)
	case tk.Text == "import": // TypeScript: export import A = B.C
		return t.symbol(out, name(k+1), "var", k+1)
	case tk.Text == "as" && t.ident(k+1, "namespace"): // export as namespace UMD
		return t.symbol(out, name(k+2), "export", k+2)
	case tk.Text == "const" && t.ident(k+1, "enum"):
		return t.symbol(out, name(k+2), "type", k+2)
	case tk.Text == "const", tk.Text == "let", tk.Text == "var", tk.Text == "using":
		kind := "var"
		if tk.Text == "const" {
			kind = "const"
		}
		return t.declarators(k+1, kind, out)
	}
	return out
}

// exportList reads "{ a, b as c, default as d, type T }" opened at open.
func (t *tree) exportList(open int, out []testscan.Symbol) []testscan.Symbol {
	close := t.closeOf(open, len(t.toks))
	for _, a := range t.splitArgs(open, close) {
		last := a[1] - 1
		if last < a[0] {
			continue
		}
		switch t.kind(last) {
		case tkIdent:
			out = t.symbol(out, t.toks[last].Text, "export", last)
		case tkString:
			out = t.symbol(out, t.toks[last].val, "export", last)
		}
	}
	return out
}

// declarators reads "a = 1, { b, c: d } = obj, [e] = arr" after const/let/var,
// skipping type annotations and initializers.
func (t *tree) declarators(k int, kind string, out []testscan.Symbol) []testscan.Symbol {
	n := len(t.toks)
	line := t.toks[min(k, n-1)].Line
	for k < n {
		switch {
		case t.kind(k) == tkIdent:
			out = t.symbol(out, t.toks[k].Text, kind, k)
			k++
		case t.punct(k, "{") || t.punct(k, "["):
			close := t.closeOf(k, n)
			out = t.patternNames(k, close, kind, out)
			k = close + 1
		default:
			return out
		}
		next, more := t.declaratorEnd(k, line)
		if !more {
			return out
		}
		k = next
		line = t.toks[min(k, n-1)].Line
	}
	return out
}

// declaratorEnd skips a type annotation and an initializer from k. It reports
// the index after the separating comma and whether another declarator follows.
func (t *tree) declaratorEnd(k, line int) (int, bool) {
	n := len(t.toks)
	angle := 0
	for k < n {
		if t.kind(k) == tkPunct {
			switch t.toks[k].Text {
			case "<":
				angle++
			case ">":
				angle--
			case ">>":
				angle -= 2
			case ";", "}", ")", "]":
				return k, false
			case ",":
				if angle <= 0 {
					return k + 1, true
				}
			}
		}
		if t.toks[k].Line > line && t.kind(k) == tkIdent && statementStart[t.toks[k].Text] && !t.isMember(k) {
			return k, false
		}
		k = t.skip(k, n)
	}
	return k, false
}

// statementStart are keywords that begin a new statement (ASI ends a
// declaration before them).
var statementStart = set("export", "import", "const", "let", "var", "function", "class",
	"if", "for", "while", "return", "interface", "type", "enum", "describe", "module")

// patternNames reads the bound names of a destructuring pattern in [open, close].
func (t *tree) patternNames(open, close int, kind string, out []testscan.Symbol) []testscan.Symbol {
	for _, a := range t.splitArgs(open, close) {
		j := a[0]
		if t.punct(j, "...") {
			j++
		}
		if j >= a[1] {
			continue
		}
		// { key: target }: the bound name is the target.
		if t.punct(open, "{") {
			for k := j; k < a[1]; k = t.skip(k, a[1]) {
				if t.punct(k, ":") {
					j = k + 1
					break
				}
			}
		}
		switch {
		case t.kind(j) == tkIdent:
			out = t.symbol(out, t.toks[j].Text, kind, j)
		case t.punct(j, "{") || t.punct(j, "["):
			out = t.patternNames(j, t.closeOf(j, a[1]+1), kind, out)
		}
	}
	return out
}

// cjsExport reads module.exports = ..., module.exports.x = ..., exports.x = ...;
// start is the first token, k the token after "exports".
func (t *tree) cjsExport(start, k int, out []testscan.Symbol) []testscan.Symbol {
	switch {
	case t.punct(k, "=") && t.punct(k+1, "{") && start != k-1:
		close := t.closeOf(k+1, len(t.toks))
		for _, a := range t.splitArgs(k+1, close) {
			j := a[0]
			if t.ident(j, "async") && a[1] > j+1 {
				j++
			}
			if t.punct(j, "*") {
				j++
			}
			switch t.kind(j) {
			case tkIdent:
				out = t.symbol(out, t.toks[j].Text, "export", j)
			case tkString:
				out = t.symbol(out, t.toks[j].val, "export", j)
			}
		}
		return out
	case t.punct(k, "=") && start != k-1:
		return t.symbol(out, "default", "export", start)
	case t.punct(k, ".") && t.kind(k+1) == tkIdent && t.punct(k+2, "="):
		return t.symbol(out, t.toks[k+1].Text, "export", k+1)
	case t.punct(k, "[") && t.kind(k+1) == tkString && t.punct(k+2, "]") && t.punct(k+3, "="):
		return t.symbol(out, t.toks[k+1].val, "export", k+1)
	}
	return out
}
