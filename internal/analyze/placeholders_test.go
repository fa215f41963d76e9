package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestPlaceholders: AIWG's LP-019 in every language. A statement that fails
// because the code is not written, added to production code, is medium; three
// or more TODO comments added to production code are one low finding; the
// look-alikes (an abstract method's stub, a placeholder in a test, a
// placeholder moved with its code, one or two TODOs, an unsupported
// operation that is the design) are not reported, and nothing is high.
func TestPlaceholders(t *testing.T) {
	t.Parallel()
	const goOld = "package calc\n\n// Pow raises a to b.\nfunc Pow(a, b int) int {\n\tr := 1\n\tfor i := 0; i < b; i++ {\n\t\tr *= a\n\t}\n\treturn r\n}\n"
	const pyOld = "def pow(a, b):\n    return a ** b\n"
	const jsOld = "export function pow(a, b) {\n  return a ** b\n}\n"
	const rsOld = "pub fn pow(a: i64, b: u32) -> i64 {\n    a.pow(b)\n}\n"
	const javaOld = "package calc;\n\npublic class Calc {\n    public static long pow(long a, int b) {\n        return (long) Math.pow(a, b);\n    }\n}\n"
	for _, tc := range []struct{ name, path, old, new, text string }{
		{"go panic", "calc/pow.go", goOld, "package calc\n\n// Pow raises a to b.\nfunc Pow(a, b int) int {\n\tpanic(\"not implemented\")\n}\n", `panic("not implemented")`},
		{"go body replaced", "calc/pow.go", goOld, "package calc\n\n// Pow raises a to b.\nfunc Pow(a, b int) int {\n\treturn 0\n}\n", "body of Pow"},
		{"go panic errors.New", "calc/pow.go", goOld, "package calc\n\nimport \"errors\"\n\n// Pow raises a to b.\nfunc Pow(a, b int) int {\n\tpanic(errors.New(\"TODO: pow\"))\n}\n", `panic(errors.New("TODO: pow"))`},
		{"python raise", "calc/pow.py", pyOld, "def pow(a, b):\n    raise NotImplementedError\n", "raise NotImplementedError"},
		{"python message", "calc/pow.py", pyOld, "def pow(a, b):\n    raise RuntimeError('not implemented yet')\n", "not implemented yet"},
		{"js throw", "src/pow.js", jsOld, "export function pow(a, b) {\n  throw new Error('not implemented')\n}\n", "not implemented"},
		{"ts template", "src/pow.ts", jsOld, "export function pow(a: number, b: number): number {\n  throw new Error(`TODO`)\n}\n", "TODO"},
		{"rust todo", "src/pow.rs", rsOld, "pub fn pow(a: i64, b: u32) -> i64 {\n    todo!()\n}\n", "todo!()"},
		{"rust unimplemented", "src/pow.rs", rsOld, "pub fn pow(a: i64, b: u32) -> i64 {\n    unimplemented!()\n}\n", "unimplemented!"},
		{"java unsupported", "src/main/java/calc/Calc.java", javaOld, "package calc;\n\npublic class Calc {\n    public static long pow(long a, int b) {\n        throw new UnsupportedOperationException(\"Not implemented\");\n    }\n}\n", "Not implemented"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := run(mod(tc.path, tc.old, tc.new))
			var got *gate.Finding
			for i, f := range fs {
				if f.Rule == "placeholder-added" {
					got = &fs[i]
				}
			}
			if got == nil || got.Type != gate.FeatureRemoval || got.Severity != gate.SeverityMedium || got.File != tc.path || !strings.Contains(got.Message, tc.text) {
				t.Fatalf("want a medium placeholder-added on %s naming %q; got %+v", tc.path, tc.text, fs)
			}
		})
	}

	todos := "package calc\n\n// Pow raises a to b.\nfunc Pow(a, b int) int {\n\t// TODO: negative exponents\n\t// FIXME: overflow\n\t/* XXX: b == 0 */\n\tr := 1\n\tfor i := 0; i < b; i++ {\n\t\tr *= a\n\t}\n\treturn r\n}\n"
	fs := run(mod("calc/pow.go", goOld, todos))
	if f := findRule(fs, "todo-proliferation"); f == nil || f.Severity != gate.SeverityLow || !strings.Contains(f.Message, "3 TODO") {
		t.Errorf("three TODOs: want one low todo-proliferation; got %+v", fs)
	}
	pyTodos := "def pow(a, b):\n    # TODO: negative\n    # FIXME: floats\n    return a ** b\n\n\ndef root(a):\n    # XXX: precision\n    return a ** 0.5\n"
	if f := findRule(run(mod("calc/pow.py", pyOld, pyTodos)), "todo-proliferation"); f == nil {
		t.Errorf("three Python TODOs across functions: want todo-proliferation")
	}

	for _, tc := range []struct{ name, path, old, new string }{
		{"two TODOs", "calc/pow.go", goOld, strings.Replace(todos, "\t/* XXX: b == 0 */\n", "", 1)},
		{"TODO in a string", "calc/pow.go", goOld, strings.Replace(goOld, "\tr := 1\n", "\tr := 1\n\t_ = \"TODO: a\"\n\t_ = \"TODO: b\"\n\t_ = \"TODO: c\"\n", 1)},
		{"python abstract stub", "calc/base.py", pyOld, pyOld + "\n\nclass Shape:\n    def area(self):\n        \"\"\"The area.\"\"\"\n        raise NotImplementedError\n"},
		{"python abstractmethod", "calc/base.py", pyOld, pyOld + "\n\nimport abc\n\n\nclass Shape(abc.ABC):\n    @abc.abstractmethod\n    def area(self):\n        raise NotImplementedError('subclasses')\n"},
		{"java unsupported by design", "src/main/java/calc/Calc.java", javaOld, strings.Replace(javaOld, "    public static long pow", "    public void remove() {\n        throw new UnsupportedOperationException(\"remove\");\n    }\n\n    public static long pow", 1)},
		{"js other error", "src/pow.js", jsOld, "export function pow(a, b) {\n  if (b < 0) throw new Error('negative exponent')\n  return a ** b\n}\n"},
		{"go new constant function", "calc/pow.go", goOld, goOld + "\n// Name is the operation's name.\nfunc Name() string { return \"pow\" }\n"},
		{"go body was a constant", "calc/name.go", "package calc\n\nfunc Name() string { return \"pow\" }\n", "package calc\n\nfunc Name() string { return \"power\" }\n"},
		{"go deprecated no-op (cobra's zsh completions)", "calc/pow.go", goOld, "package calc\n\n// Pow raises a to b.\n//\n// Deprecated: use math.Pow.\nfunc Pow(a, b int) int {\n\treturn 0\n}\n"},
		{"rust unsupported by design (tokio's poll_aio)", "src/pow.rs", rsOld, "pub fn pow(a: i64, b: u32) -> i64 {\n    unimplemented!(\"use checked_pow instead\")\n}\n"},
		{"go other panic", "calc/pow.go", goOld, strings.Replace(goOld, "\tr := 1\n", "\tif b < 0 {\n\t\tpanic(\"negative exponent\")\n\t}\n\tr := 1\n", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, f := range run(mod(tc.path, tc.old, tc.new)) {
				if f.Rule == "placeholder-added" || f.Rule == "todo-proliferation" {
					t.Errorf("look-alike reported: %+v", f)
				}
			}
		})
	}

	// A placeholder in a test, and one moved with its function to another
	// file, are not new placeholders in production code.
	stub := "package calc\n\n// Pow raises a to b.\nfunc Pow(a, b int) int {\n\tpanic(\"not implemented\")\n}\n"
	for name, fs := range map[string][]gate.Finding{
		"in a test": run(add("calc/pow_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestPow(t *testing.T) {\n\tt.Skip()\n\tpanic(\"not implemented\")\n}\n")),
		"moved":     run(del("calc/a.go", stub), add("calc/b.go", stub)),
	} {
		if f := findRule(fs, "placeholder-added"); f != nil {
			t.Errorf("%s: reported %+v", name, f)
		}
	}
	for _, f := range run(mod("calc/pow.go", goOld, stub), mod("calc/pow.py", pyOld, "def pow(a, b):\n    raise NotImplementedError\n")) {
		if f.Severity >= gate.SeverityHigh {
			t.Errorf("a placeholder is never high: %+v", f)
		}
	}
}

func findRule(fs []gate.Finding, rule string) *gate.Finding {
	for i := range fs {
		if fs[i].Rule == rule {
			return &fs[i]
		}
	}
	return nil
}

// TestConstantBodies: the body of an existing function or method replaced
// by a constant return is a medium placeholder-added in Python,
// JavaScript/TypeScript, Rust and Java as in Go; a new function that returns a
// constant (a definition), a function renamed and kept, a feature flag
// that already returned False, and a body that was a constant before are
// not.
func TestConstantBodies(t *testing.T) {
	t.Parallel()
	const pyTotal = "def total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n"
	const pyFlag = "def beta_enabled():\n    return False\n\n\n"
	const jsTotal = "export function total(items) {\n  let s = 0\n  for (const i of items) s += i\n  return s\n}\n"
	const jsFlag = "export const betaEnabled = () => false\n\n"
	const rsTotal = "pub fn total(items: &[u64]) -> u64 {\n    let mut s = 0;\n    for i in items {\n        s += i;\n    }\n    s\n}\n"
	const rsFlag = "pub fn beta_enabled() -> bool {\n    false\n}\n\n"
	const jvTotal = "package calc;\n\npublic class Cart {\n    private final List<Item> items;\n\n    public long total() {\n        long s = 0;\n        for (Item i : items) s += i.price;\n        return s;\n    }\n}\n"
	for _, tc := range []struct{ name, path, old, new, text string }{
		{"python function", "calc/total.py", pyTotal, "def total(items):\n    return 0\n", "body of total"},
		{"python body made pass", "calc/total.py", pyTotal, "def total(items):\n    pass\n", "replaced by `pass`"},
		{"python private function", "calc/total.py", strings.ReplaceAll(pyTotal, "total", "_total"), "def _total(items):\n    return None\n", "body of _total"},
		{"python method", "calc/cart.py", "class Cart:\n    def total(self):\n        return sum(i.price for i in self.items)\n", "class Cart:\n    def total(self):\n        \"\"\"The total.\"\"\"\n        return 0\n", "body of Cart.total"},
		{"js function", "src/total.js", jsTotal, "export function total(items) {\n  return 0\n}\n", "body of total"},
		{"js arrow", "src/total.js", "const total = (items) => items.reduce((a, b) => a + b, 0)\n", "const total = (items) => 0\n", "body of total"},
		{"ts method", "src/cart.ts", "export class Cart {\n  total(): number {\n    return this.items.reduce((a, i) => a + i.price, 0);\n  }\n}\n", "export class Cart {\n  total(): number {\n    return 0;\n  }\n}\n", "body of Cart.total"},
		{"rust function", "src/total.rs", rsTotal, "pub fn total(items: &[u64]) -> u64 {\n    0\n}\n", "body of total"},
		{"rust private method", "src/cart.rs", "pub struct Cart;\n\nimpl Cart {\n    fn lines(&self) -> Vec<Line> {\n        self.items.iter().map(Line::from).collect()\n    }\n}\n", "pub struct Cart;\n\nimpl Cart {\n    fn lines(&self) -> Vec<Line> {\n        Vec::new()\n    }\n}\n", "body of Cart.lines"},
		{"java method", "src/main/java/calc/Cart.java", jvTotal, strings.Replace(jvTotal, "        long s = 0;\n        for (Item i : items) s += i.price;\n        return s;\n", "        return 0;\n", 1), "body of Cart.total"},
		{"java nested class's method made null", "src/main/java/calc/Outer.java", "class Outer {\n    static class Inner {\n        Item find(String id) {\n            return repo.load(id);\n        }\n    }\n}\n", "class Outer {\n    static class Inner {\n        Item find(String id) {\n            return null;\n        }\n    }\n}\n", "body of Outer.Inner.find"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := run(mod(tc.path, tc.old, tc.new))
			f := findRule(fs, "placeholder-added")
			if f == nil || f.Type != gate.FeatureRemoval || f.Severity != gate.SeverityMedium || f.File != tc.path || !strings.Contains(f.Message, tc.text) {
				t.Fatalf("want a medium placeholder-added on %s naming %q; got %+v", tc.path, tc.text, fs)
			}
		})
	}
	for _, tc := range []struct{ name, path, old, new string }{
		{"python new function", "calc/total.py", pyTotal, pyTotal + "\n\ndef name():\n    return 'total'\n"},
		{"python renamed", "calc/total.py", pyTotal, strings.Replace(pyTotal, "def total", "def sum_items", 1)},
		{"python flag stays False", "calc/total.py", pyFlag + pyTotal, pyFlag + "def total(items):\n    return sum(items)\n"},
		{"python was a constant", "calc/total.py", "def total(items):\n    return 0\n", "def total(items):\n    return 0.0\n"},
		// click's Parameter.get_help_record: `pass` spelled `return None`.
		{"python pass made return None", "calc/param.py", "class P:\n    def help(self, ctx):\n        pass\n", "class P:\n    def help(self, ctx):\n        return None\n"},
		{"python in a test", "tests/test_total.py", "def total(items):\n    return sum(items)\n", "def total(items):\n    return 0\n"},
		{"js new function", "src/total.js", jsTotal, jsTotal + "\nexport const name = () => 'total'\n"},
		{"js renamed", "src/total.js", jsTotal, strings.Replace(jsTotal, "function total", "function sumItems", 1)},
		{"js flag stays false", "src/total.js", jsFlag + jsTotal, jsFlag + "export function total(items) {\n  return items.reduce((a, b) => a + b, 0)\n}\n"},
		{"js was a constant", "src/total.js", "export function total(items) {\n  return 0\n}\n", "export function total(items) {\n  return null\n}\n"},
		{"js in a test", "src/total.test.js", "function total(items) {\n  return items.length\n}\n", "function total(items) {\n  return 0\n}\n"},
		{"rust new function", "src/total.rs", rsTotal, rsTotal + "\npub fn name() -> &'static str {\n    \"total\"\n}\n"},
		{"rust renamed", "src/total.rs", rsTotal, strings.Replace(rsTotal, "fn total", "fn sum_items", 1)},
		{"rust flag stays false", "src/total.rs", rsFlag + rsTotal, rsFlag + "pub fn total(items: &[u64]) -> u64 {\n    items.iter().sum()\n}\n"},
		{"rust was a constant", "src/total.rs", "pub fn total(items: &[u64]) -> u64 {\n    0\n}\n", "pub fn total(items: &[u64]) -> u64 {\n    return 1;\n}\n"},
		{"rust in a test module", "src/total.rs", "#[cfg(test)]\nmod tests {\n    fn total() -> u64 {\n        [1, 2].iter().sum()\n    }\n}\n", "#[cfg(test)]\nmod tests {\n    fn total() -> u64 {\n        0\n    }\n}\n"},
		{"java new method", "src/main/java/calc/Cart.java", jvTotal, strings.Replace(jvTotal, "\n}\n", "\n    public String name() {\n        return \"cart\";\n    }\n}\n", 1)},
		{"java getter", "src/main/java/calc/Cart.java", "class Cart {\n    int size() {\n        return items.size();\n    }\n}\n", "class Cart {\n    int size() {\n        return this.size;\n    }\n}\n"},
		{"java renamed", "src/main/java/calc/Cart.java", jvTotal, strings.Replace(strings.Replace(jvTotal, "        long s = 0;\n        for (Item i : items) s += i.price;\n        return s;\n", "        return 0;\n", 1), "total()", "legacyTotal()", 1)},
		{"java was a constant", "src/main/java/calc/Cart.java", "class Cart {\n    int size() {\n        return 0;\n    }\n}\n", "class Cart {\n    int size() {\n        return -1;\n    }\n}\n"},
		{"java deprecated no-op", "src/main/java/calc/Cart.java", jvTotal, strings.Replace(strings.Replace(jvTotal, "        long s = 0;\n        for (Item i : items) s += i.price;\n        return s;\n", "        return 0;\n", 1), "    public long total()", "    @Deprecated\n    public long total()", 1)},
		{"java in a test file", "src/test/java/calc/CartTest.java", jvTotal, strings.Replace(jvTotal, "        long s = 0;\n        for (Item i : items) s += i.price;\n        return s;\n", "        return 0;\n", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if f := findRule(run(mod(tc.path, tc.old, tc.new)), "placeholder-added"); f != nil {
				t.Errorf("look-alike reported: %+v", f)
			}
		})
	}
}
