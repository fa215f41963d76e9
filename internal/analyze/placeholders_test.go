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
