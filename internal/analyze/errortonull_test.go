package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestErrorToNull: AIWG's LP-018 in Go, Python and JavaScript/TypeScript.
// An error path of a production function (return err, raise, throw)
// replaced at the same place by an empty result (return nil, None, null,
// undefined, [], {}, a bare return) is one medium error_suppression
// finding on the new return, naming the function and what it replaced.
// The look-alikes get no error-to-null finding and nothing high.
func TestErrorToNull(t *testing.T) {
	t.Parallel()
	const goOld = "package calc\n\nimport (\n\t\"errors\"\n\t\"strconv\"\n)\n\n// Parse reads a natural number.\nfunc Parse(s string) (int, error) {\n\tn, err := strconv.Atoi(s)\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\tif n < 0 {\n\t\treturn 0, errors.New(\"negative\")\n\t}\n\treturn n, nil\n}\n"
	const goConfig = "package calc\n\nimport \"fmt\"\n\n// Load reads the configuration.\nfunc Load(p string) (Config, error) {\n\tcfg, err := read(p)\n\tif err != nil {\n\t\treturn Config{}, err\n\t}\n\tif cfg.Port > 65535 {\n\t\treturn cfg, fmt.Errorf(\"port %d out of range\", cfg.Port)\n\t}\n\treturn cfg, nil\n}\n"
	const pyOld = "def parse(s):\n    n = int(s)\n    if n < 0:\n        raise ValueError(\"negative\")\n    return n\n"
	const jsOld = "export function parse(s) {\n  const n = Number(s)\n  if (n < 0) {\n    throw new Error('negative')\n  }\n  return n\n}\n"
	const raise = "        raise ValueError(\"negative\")\n"
	const throw = "    throw new Error('negative')\n"
	for _, tc := range []struct{ name, path, old, new, fn, was string }{
		{"go error to nil", "calc/parse.go", goOld, strings.Replace(goOld, "errors.New(\"negative\")", "nil", 1), "Parse", `errors.New("negative")`},
		{"go err to nil", "calc/parse.go", goOld, strings.Replace(goOld, "return 0, err\n", "return 0, nil\n", 1), "Parse", "return 0, err"},
		{"go error to the value it came with", "calc/config.go", goConfig, strings.Replace(goConfig, "return cfg, fmt.Errorf(\"port %d out of range\", cfg.Port)", "return cfg, nil", 1), "Load", "out of range"},
		{"go error to a zero value", "calc/config.go", goConfig, strings.Replace(goConfig, "return Config{}, err", "return Config{}, nil", 1), "Load", "return Config{}, err"},
		{"go method", "calc/parse.go", strings.Replace(goOld, "func Parse(", "func (p *Parser) Parse(", 1), strings.Replace(strings.Replace(goOld, "func Parse(", "func (p *Parser) Parse(", 1), "errors.New(\"negative\")", "nil", 1), "Parser.Parse", "negative"},
		{"python None", "calc/parse.py", pyOld, strings.Replace(pyOld, raise, "        return None\n", 1), "parse", "raise ValueError"},
		{"python bare return", "calc/parse.py", pyOld, strings.Replace(pyOld, raise, "        return\n", 1), "parse", "raise ValueError"},
		{"python empty list", "calc/parse.py", pyOld, strings.Replace(pyOld, raise, "        return []\n", 1), "parse", "raise ValueError"},
		{"python method re-raise", "calc/parse.py", "class P:\n    def parse(self, s):\n        try:\n            return int(s)\n        except ValueError:\n            raise\n", "class P:\n    def parse(self, s):\n        try:\n            return int(s)\n        except ValueError:\n            return {}\n", "P.parse", "raise"},
		{"js null", "src/parse.js", jsOld, strings.Replace(jsOld, throw, "    return null\n", 1), "parse", "negative"},
		{"js undefined", "src/parse.js", jsOld, strings.Replace(jsOld, throw, "    return undefined\n", 1), "parse", "negative"},
		{"ts bare return", "src/parse.ts", jsOld, strings.Replace(jsOld, throw, "    return\n", 1), "parse", "negative"},
		{"ts empty array in a method", "src/parse.ts", "export class P {\n  parse(s: string): number[] {\n    if (!s) throw new TypeError(s)\n    return [Number(s)]\n  }\n}\n", "export class P {\n  parse(s: string): number[] {\n    if (!s) return []\n    return [Number(s)]\n  }\n}\n", "P.parse", "TypeError"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := run(mod(tc.path, tc.old, tc.new))
			wantErrorToNull(t, fs, tc.path, tc.fn, tc.was)
		})
	}

	helperPy := "def validate(n):\n    if n < 0:\n        raise ValueError(\"negative\")\n\n\n"
	for _, tc := range []struct{ name, path, old, new string }{
		{"go early exit, error kept", "calc/parse.go", goOld, strings.Replace(goOld, "\tn, err := strconv.Atoi(s)\n", "\tif s == \"\" {\n\t\treturn 0, nil\n\t}\n\tn, err := strconv.Atoi(s)\n", 1)},
		{"go error wrapped", "calc/parse.go", goOld, strings.Replace(goOld, "return 0, err\n", "return 0, fmt.Errorf(\"parse %q: %w\", s, err)\n", 1)},
		{"go check moved to a helper", "calc/parse.go", goOld, strings.Replace(goOld, "\tif n < 0 {\n\t\treturn 0, errors.New(\"negative\")\n\t}\n", "\tif err := validate(n); err != nil {\n\t\treturn 0, err\n\t}\n", 1)},
		{"go renamed", "calc/parse.go", goOld, strings.Replace(strings.Replace(goOld, "errors.New(\"negative\")", "nil", 1), "func Parse(", "func ParseNatural(", 1)},
		{"go function deleted", "calc/parse.go", goOld, "package calc\n"},
		{"go error turned into a computed value", "calc/parse.go", goOld, strings.Replace(goOld, "return 0, errors.New(\"negative\")", "return -n, nil", 1)},
		{"go unsupported case now handled (cobra's flag completion)", "calc/complete.go", "package calc\n\nimport \"errors\"\n\nfunc complete(args []string, last string) ([]string, string, error) {\n\tif last == \"\" {\n\t\treturn nil, \"\", errors.New(\"unexpected completion request\")\n\t}\n\treturn args, last, nil\n}\n", "package calc\n\nimport \"errors\"\n\nfunc complete(args []string, last string) ([]string, string, error) {\n\tif last == \"\" {\n\t\treturn args[1:], last, nil\n\t}\n\treturn args, last, nil\n}\n"},
		{"go final return err that is nil (urfave/cli's floatValue.Set)", "calc/flag.go", "package calc\n\nfunc (f *Float) Set(s string) error {\n\tv, err := strconv.ParseFloat(s, 64)\n\tif err != nil {\n\t\treturn err\n\t}\n\t*f = Float(v)\n\treturn err\n}\n", "package calc\n\nfunc (f *Float) Set(s string) error {\n\tv, err := strconv.ParseFloat(s, 64)\n\tif err != nil {\n\t\treturn err\n\t}\n\tf.val = v\n\treturn nil\n}\n"},
		{"go callee's result no longer passed on (urfave/cli's help)", "calc/help.go", "package calc\n\nfunc ShowHelp(c *Context) error {\n\tif c == nil {\n\t\treturn nil\n\t}\n\treturn ShowCommandHelp(c, c.Name)\n}\n", "package calc\n\nfunc ShowHelp(c *Context) error {\n\tif c == nil {\n\t\treturn nil\n\t}\n\tPrintHelp(c.Writer, c)\n\treturn nil\n}\n"},
		{"go deprecated no-op (cobra's zsh completions)", "calc/parse.go", goOld, "package calc\n\n// Parse is kept for compatibility.\n//\n// Deprecated\nfunc Parse(s string) (int, error) {\n\treturn 0, nil\n}\n"},
		{"go two checks merged, result renamed", "calc/open.go", "package calc\n\nfunc Open(p string) (*File, error) {\n\tif p == \"\" {\n\t\treturn nil, errors.New(\"no path\")\n\t}\n\tif !exists(p) {\n\t\treturn nil, fmt.Errorf(\"missing %s\", p)\n\t}\n\tres := open(p)\n\treturn res, nil\n}\n", "package calc\n\nfunc Open(p string) (*File, error) {\n\tif p == \"\" || !exists(p) {\n\t\treturn nil, fmt.Errorf(\"bad path %q\", p)\n\t}\n\tf := open(p)\n\treturn f, nil\n}\n"},
		{"go unchanged", "calc/parse.go", goOld, strings.Replace(goOld, "// Parse reads", "// Parse parses", 1)},
		{"js build output (axios's dist/esm/axios.min.js)", "dist/esm/parse.min.js", jsOld, strings.Replace(jsOld, throw, "    return null\n", 1)},
		{"js bundle under build/", "build/parse.js", jsOld, strings.Replace(jsOld, throw, "    return null\n", 1)},
		{"python early return, raise kept", "calc/parse.py", pyOld, strings.Replace(pyOld, "    n = int(s)\n", "    if s is None:\n        return None\n    n = int(s)\n", 1)},
		{"python raise moved to a helper", "calc/parse.py", pyOld, helperPy + strings.Replace(pyOld, "    if n < 0:\n"+raise, "    validate(n)\n", 1)},
		{"python renamed", "calc/parse.py", pyOld, strings.Replace(strings.Replace(pyOld, raise, "        return None\n", 1), "def parse(", "def parse_natural(", 1)},
		{"python function deleted", "calc/parse.py", pyOld, "import os\n"},
		{"python generator end (PEP 479)", "calc/gen.py", "def items(xs):\n    for x in xs:\n        if x is None:\n            raise StopIteration\n        yield x\n", "def items(xs):\n    for x in xs:\n        if x is None:\n            return\n        yield x\n"},
		{"python generator's early end (requests' stream_decode_response_unicode)", "calc/stream.py", "def decode(it, r):\n    try:\n        d = decoder(r.encoding)\n    except LookupError:\n        raise UnicodeError(r.encoding)\n    for chunk in it:\n        yield d.decode(chunk)\n", "def decode(it, r):\n    if r.encoding is None:\n        for item in it:\n            yield item\n        return\n    d = decoder(r.encoding)\n    for chunk in it:\n        yield d.decode(chunk)\n"},
		{"python stub implemented as a no-op hook", "calc/hooks.py", "class Hooks:\n    def on_start(self):\n        raise NotImplementedError\n", "class Hooks:\n    def on_start(self):\n        return None\n"},
		{"python raise reworded", "calc/parse.py", pyOld, strings.Replace(pyOld, "ValueError(\"negative\")", "ValueError(f\"negative: {n}\")", 1)},
		{"js Result.err", "src/parse.js", jsOld, strings.Replace(jsOld, throw, "    return Result.err('negative')\n", 1)},
		{"js error object", "src/parse.js", jsOld, strings.Replace(jsOld, throw, "    return { error: new Error('negative') }\n", 1)},
		{"js early return, throw kept", "src/parse.js", jsOld, strings.Replace(jsOld, "  const n = Number(s)\n", "  if (s == null) return null\n  const n = Number(s)\n", 1)},
		{"js throw moved to a helper", "src/parse.js", jsOld, "function validate(n) {\n  if (n < 0) throw new Error('negative')\n}\n\n" + strings.Replace(jsOld, "  if (n < 0) {\n"+throw+"  }\n", "  validate(n)\n", 1)},
		{"js renamed", "src/parse.js", jsOld, strings.Replace(strings.Replace(jsOld, throw, "    return null\n", 1), "function parse(", "function parseNatural(", 1)},
		{"js function deleted", "src/parse.js", jsOld, "export const x = 1\n"},
		{"js callback's return", "src/parse.js", jsOld, strings.Replace(jsOld, "  return n\n", "  [n].forEach((x) => { if (!x) return })\n  return n\n", 1)},
		{"js stub implemented", "src/parse.js", "export function parse(s) {\n  throw new Error('not implemented')\n}\n", "export function parse(s) {\n  if (!s) return null\n  return Number(s)\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, f := range run(mod(tc.path, tc.old, tc.new)) {
				if f.Rule == "error-to-null" || f.Severity >= gate.SeverityHigh {
					t.Errorf("look-alike reported: %+v", f)
				}
			}
		})
	}

	// A test file's error paths are the test's own business; a production
	// file's new version beside its old one under another name is a new
	// function there.
	for name, fs := range map[string][]gate.Finding{
		"in a test": run(mod("calc/parse_test.py", pyOld, strings.Replace(pyOld, raise, "        return None\n", 1))),
		"moved":     run(del("calc/a.py", pyOld), add("calc/b.py", strings.Replace(pyOld, raise, "        return None\n", 1))),
	} {
		if f := findRule(fs, "error-to-null"); f != nil {
			t.Errorf("%s: reported %+v", name, f)
		}
	}
}

// wantErrorToNull checks fs holds one medium error-to-null on path's
// function fn naming the error exit it had (was), and nothing high.
func wantErrorToNull(t *testing.T, fs []gate.Finding, path, fn, was string) {
	t.Helper()
	var got []gate.Finding
	for _, f := range fs {
		if f.Rule == "error-to-null" {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("want one error-to-null; got %+v", fs)
	}
	f := got[0]
	if f.Type != gate.ErrorSuppression || f.Severity != gate.SeverityMedium || f.File != path || f.Symbol != fn ||
		!strings.Contains(f.Message, fn+" in ") || !strings.Contains(f.Message, was) {
		t.Errorf("want a medium error_suppression on %s naming %s and %q; got %+v", path, fn, was, f)
	}
	noHigh(t, fs)
}

// noHigh fails t for each high or critical finding of fs.
func noHigh(t *testing.T, fs []gate.Finding) {
	t.Helper()
	for _, f := range fs {
		if f.Severity >= gate.SeverityHigh {
			t.Errorf("high finding: %+v", f)
		}
	}
}
