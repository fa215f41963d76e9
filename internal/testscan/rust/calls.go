package rust

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// maxGenericTokens bounds the turbofish (::<...>) skipped between a name and
// its '(' so that hostile input stays linear.
const maxGenericTokens = 64

// addCallAt records the call whose name starts at the identifier i in calls
// (testscan.TestCase.Calls), if it starts one (see callName).
func addCallAt(calls []testscan.Call, toks []token, i int) []testscan.Call {
	name, method := callName(toks, i)
	switch {
	case name == "":
		return calls
	case method:
		return testscan.AddMethodCall(calls, name)
	}
	return testscan.AddCall(calls, name)
}

// callName names the call whose name starts at the identifier i, "" when i
// starts none: "foo" for foo(...) and for a path call module::foo(...),
// super::foo(...), Self::foo(...) (the last segment, which the analyzer
// matches helpers by); "foo" with method set for x.foo(...) and
// x.foo::<T>(...), recorded as ".foo". Macros (assert_eq!, println!, vec!), keywords, nested fn
// declarations, tuple structs and enum variants (Some(x), Foo::Bar(x)),
// constructors (Type::new), functions of std, core and alloc and associated
// functions of their types (Vec::with_capacity, String::from) are left out.
// Only the identifier that starts a path is read: the path's other segments
// give "".
func callName(toks []token, i int) (name string, method bool) {
	t := toks[i]
	if i > 0 {
		if p := toks[i-1]; p.Kind == tkPunct && p.Text == "::" {
			return "", false
		}
	}
	method = i > 0 && toks[i-1].Kind == tkPunct && toks[i-1].Text == "."
	// Read the path forward: name (:: name | ::<generics>)* then '('.
	last, prev, typed := i, "", false
	j := i
	for {
		if j+1 < len(toks) && isPunct(toks[j+1], "(") {
			break
		}
		if j+2 >= len(toks) || !isPunct(toks[j+1], "::") {
			return "", false
		}
		n := toks[j+2]
		switch {
		case n.Kind == tkIdent && !method:
			prev = toks[last].Text
			typed = typed || isUpper(prev)
			last, j = j+2, j+2
		case isPunct(n, "<"):
			j = skipGenerics(toks, j+2)
			if j < 0 {
				return "", false
			}
		default:
			return "", false
		}
	}
	name = strings.TrimPrefix(toks[last].Text, "r#")
	if method {
		return name, true
	}
	if i > 0 && toks[i-1].Kind == tkIdent && toks[i-1].Text == "fn" {
		return "", false // a nested fn declaration
	}
	if last == i && rustKeywords[name] || isUpper(name) {
		return "", false // a keyword; a tuple struct or enum variant
	}
	if last != i {
		if first := t.Text; first == "std" || first == "core" || first == "alloc" {
			return "", false
		}
		if typed && name == "new" || stdTypes[prev] {
			return "", false // Type::new(...), Vec::with_capacity(...)
		}
	}
	return name, false
}

// skipGenerics returns the index of the '>' closing the '<' at i, or -1 when it
// is not closed within maxGenericTokens tokens.
func skipGenerics(toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks) && j < i+maxGenericTokens; j++ {
		t := toks[j]
		if t.Kind != tkPunct {
			continue
		}
		switch t.Text {
		case "<":
			depth++
		case "<<":
			depth += 2
		case ">":
			depth--
			if depth == 0 {
				return j
			}
		case "{", "}", ";":
			return -1
		}
	}
	return -1
}

func isPunct(t token, text string) bool { return t.Kind == tkPunct && t.Text == text }

func isUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// rustKeywords are the keywords that can stand before '(' without being a
// call.
var rustKeywords = map[string]bool{
	"if": true, "while": true, "match": true, "for": true, "in": true, "return": true,
	"loop": true, "let": true, "as": true, "move": true, "fn": true, "mut": true,
	"ref": true, "where": true, "impl": true, "dyn": true, "unsafe": true, "async": true,
	"await": true, "break": true, "continue": true, "yield": true, "box": true,
	"else": true, "const": true, "static": true, "struct": true, "enum": true,
	"type": true, "use": true, "mod": true, "pub": true, "crate": true, "self": true,
	"super": true, "extern": true, "union": true, "trait": true,
}

// stdTypes are standard library types whose associated functions a test
// calls: Vec::with_capacity, String::from, HashMap::from_iter.
var stdTypes = map[string]bool{
	"Vec": true, "String": true, "HashMap": true, "HashSet": true, "BTreeMap": true,
	"BTreeSet": true, "VecDeque": true, "BinaryHeap": true, "Box": true, "Rc": true,
	"Arc": true, "RefCell": true, "Cell": true, "Mutex": true, "RwLock": true,
	"Option": true, "Result": true, "PathBuf": true, "Path": true, "Duration": true,
	"Instant": true, "SystemTime": true, "Cow": true, "OsString": true, "File": true,
	"Ordering": true, "Default": true, "From": true, "Into": true, "Iterator": true,
	"FromStr": true, "TryFrom": true, "Some": true, "Ok": true, "Err": true,
	"i8": true, "i16": true, "i32": true, "i64": true, "i128": true, "isize": true,
	"u8": true, "u16": true, "u32": true, "u64": true, "u128": true, "usize": true,
	"f32": true, "f64": true, "char": true, "str": true, "bool": true,
}

// fixtureCalls adds the rstest fixtures f requests to calls, for an rstest
// test or fixture: its parameters other than self and those given by #[case],
// #[values], #[files] or #[default], by their name or the fixture
// #[from(name)] names.
func (p *parser) fixtureCalls(calls []testscan.Call, f *fnDecl) []testscan.Call {
	if f.paramOpen < 0 || !isRstest(f) {
		return calls
	}
	c := p.match[f.paramOpen]
	if c <= f.paramOpen || c > f.bodyOpen {
		return calls
	}
	for _, param := range splitArgs(p.toks[f.paramOpen+1 : c]) {
		name, skip := "", false
		k := 0
		for k+1 < len(param) && isPunct(param[k], "#") && isPunct(param[k+1], "[") {
			end := k + 2
			for end < len(param) && !isPunct(param[end], "]") {
				end++
			}
			a := parseAttr(param[k+2:min(end, len(param))], param[k].Line)
			switch a.path {
			case "case", "values", "files", "default", "rstest::case", "rstest::values", "rstest::files", "rstest::default":
				skip = true
			case "from", "rstest::from":
				if len(a.args) > 0 && a.args[len(a.args)-1].Kind == tkIdent {
					name = a.args[len(a.args)-1].Text
				}
			}
			k = end + 1
		}
		if k < len(param) && param[k].Kind == tkIdent && param[k].Text == "mut" {
			k++
		}
		if skip || k+1 >= len(param) || param[k].Kind != tkIdent || !isPunct(param[k+1], ":") || param[k].Text == "self" {
			continue
		}
		if name == "" {
			name = strings.TrimPrefix(param[k].Text, "r#")
		}
		calls = testscan.AddCall(calls, name)
	}
	return calls
}

// isRstest reports whether f is an rstest test or fixture, whose parameters
// name fixtures.
func isRstest(f *fnDecl) bool {
	for _, a := range f.attrs {
		switch a.path {
		case "rstest", "rstest::rstest", "fixture", "rstest::fixture":
			return true
		}
	}
	return false
}
