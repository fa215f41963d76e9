package rust

import "strings"

// MayInclude reports whether the Rust source src may bring the module file
// of the module named module into the crate: it declares a module of that
// name (`mod module;` or `mod module { .. }`, also inside a macro such as
// cfg_test! { mod module; }), or a string literal of it names the module's
// file (`#[path = "x/module.rs"]`, include!("module.rs"), a directory
// "module/"). Comments do not count. A reading that errs says yes: a file
// no source may include is a file cargo does not compile.
func MayInclude(src []byte, module string) bool {
	module = strings.TrimPrefix(module, "r#")
	if module == "" {
		return true
	}
	toks := lex(src).toks
	for i, t := range toks {
		switch t.Kind {
		case tkIdent:
			if t.Text == "mod" && i+1 < len(toks) && toks[i+1].Kind == tkIdent && strings.TrimPrefix(toks[i+1].Text, "r#") == module {
				return true
			}
		case tkString:
			if strings.Contains(t.Text, module+".rs") || strings.Contains(t.Text, module+"/") {
				return true
			}
		}
	}
	return false
}
