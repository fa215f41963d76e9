package analyze

import (
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// TestSpecialCasesAdded: AIWG's LP-017 in Go, Python and
// JavaScript/TypeScript. Three or more branches that test a variable
// against a literal and answer with a literal, added by one change to one
// production function that was there, are one medium validation_bypass
// listing the literals. The look-alikes (a new function's switch, a
// token switch in a new file, named constants, one or two new branches,
// cases added to a switch that was there, a test file, an if-chain
// rewritten as a switch) get no special-cases-added and nothing high.
func TestSpecialCasesAdded(t *testing.T) {
	t.Parallel()
	const goOld = "package calc\n\nimport \"strconv\"\n\n// Describe names a number.\nfunc Describe(n int) string {\n\tif n < 0 {\n\t\treturn \"negative\"\n\t}\n\treturn strconv.Itoa(n)\n}\n"
	const goAt = "\tif n < 0 {\n"
	const pyOld = "def describe(n):\n    if n < 0:\n        return \"negative\"\n    return str(n)\n"
	const pyAt = "    return str(n)\n"
	const jsOld = "export function describe(n) {\n  if (n < 0) {\n    return 'negative'\n  }\n  return String(n)\n}\n"
	const jsAt = "  return String(n)\n"
	goIfs := "\tif n == 5 {\n\t\treturn \"five\"\n\t}\n\tif n == 42 {\n\t\treturn \"answer\"\n\t}\n\tif 7 == n {\n\t\treturn \"seven\"\n\t}\n"
	goSwitch := "\tswitch n {\n\tcase 5:\n\t\treturn \"five\"\n\tcase 42, 43:\n\t\treturn \"answer\"\n\tcase 7:\n\t\treturn \"seven\"\n\t}\n"
	pyElifs := "    if n == 5:\n        return \"five\"\n    elif n == 42:\n        return \"answer\"\n    elif n == 7:\n        label = \"seven\"\n"
	pyMatch := "    match n:\n        case 5:\n            return \"five\"\n        case 42 | 43:\n            return \"answer\"\n        case 7:\n            return \"seven\"\n"
	jsIfs := "  if (n === 5) return 'five'\n  if (n == 42) { return 'answer' }\n  if (7 === n) {\n    return 'seven'\n  }\n"
	jsSwitch := "  switch (n) {\n    case 5: return 'five'\n    case 42:\n      return 'answer'\n    case 7:\n      label = 'seven'\n      break\n  }\n"
	for _, tc := range []struct{ name, path, old, new, fn string }{
		{"go ifs", "calc/describe.go", goOld, strings.Replace(goOld, goAt, goIfs+goAt, 1), "Describe"},
		{"go new switch", "calc/describe.go", goOld, strings.Replace(goOld, goAt, goSwitch+goAt, 1), "Describe"},
		{"python elifs", "calc/describe.py", pyOld, strings.Replace(pyOld, pyAt, pyElifs+pyAt, 1), "describe"},
		{"python match", "calc/describe.py", pyOld, strings.Replace(pyOld, pyAt, pyMatch+pyAt, 1), "describe"},
		{"js ifs", "src/describe.js", jsOld, strings.Replace(jsOld, jsAt, jsIfs+jsAt, 1), "describe"},
		{"ts switch", "src/describe.ts", jsOld, strings.Replace(jsOld, jsAt, jsSwitch+jsAt, 1), "describe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := run(mod(tc.path, tc.old, tc.new))
			f := findRule(fs, "special-cases-added")
			if f == nil || f.Type != gate.ValidationBypass || f.Severity != gate.SeverityMedium || f.File != tc.path || f.Symbol != tc.fn ||
				!strings.Contains(f.Message, "3 branches") || !strings.Contains(f.Message, tc.fn+" in ") {
				t.Fatalf("want a medium special-cases-added on %s naming %s; got %+v", tc.path, tc.fn, fs)
			}
			for _, lit := range []string{"5", "42", "7"} {
				if !strings.Contains(f.Message, "== "+lit) {
					t.Errorf("message does not list %s: %s", lit, f.Message)
				}
			}
			noHigh(t, fs)
		})
	}

	goKinds := "\n// KindName names a kind.\nfunc KindName(k Kind) string {\n\tswitch k {\n\tcase KindA:\n\t\treturn \"a\"\n\tcase KindB:\n\t\treturn \"b\"\n\tcase KindC:\n\t\treturn \"c\"\n\t}\n\treturn \"?\"\n}\n"
	goNewLiteralFunc := "\n// Roman names small numbers.\nfunc Roman(n int) string {\n\tswitch n {\n\tcase 1:\n\t\treturn \"I\"\n\tcase 5:\n\t\treturn \"V\"\n\tcase 10:\n\t\treturn \"X\"\n\t}\n\treturn \"\"\n}\n"
	goLexer := "package calc\n\nfunc token(c byte) int {\n\tswitch c {\n\tcase '+':\n\t\treturn 1\n\tcase '-':\n\t\treturn 2\n\tcase '*':\n\t\treturn 3\n\t}\n\treturn 0\n}\n"
	goConsts := "\tif n == MaxSize {\n\t\treturn \"max\"\n\t}\n\tif kind == reflect.Int {\n\t\treturn \"int\"\n\t}\n\tif n == limits.Min {\n\t\treturn \"min\"\n\t}\n"
	goTwo := "\tif n == 5 {\n\t\treturn \"five\"\n\t}\n\tif n == 42 {\n\t\treturn \"answer\"\n\t}\n"
	goOldSwitch := strings.Replace(goOld, goAt, "\tswitch n {\n\tcase 1:\n\t\treturn \"one\"\n\t}\n"+goAt, 1)
	goComputed := "\tif n == 5 {\n\t\treturn strconv.Itoa(n * 2)\n\t}\n\tif n == 42 {\n\t\tlog.Print(n)\n\t}\n\tif n == 7 {\n\t\treturn fmt.Sprint(n)\n\t}\n"
	pyChain := "def describe(n):\n    if n == 5:\n        return \"five\"\n    elif n == 42:\n        return \"answer\"\n    elif n == 7:\n        return \"seven\"\n    return str(n)\n"
	pyTokens := "def token(c):\n    match c:\n        case \"+\":\n            return 1\n        case \"-\":\n            return 2\n        case \"*\":\n            return 3\n"
	jsTokens := "export function token(c) {\n  switch (c) {\n    case '+': return 1\n    case '-': return 2\n    case '*': return 3\n  }\n}\n"
	jsConsts := "  if (n === MAX) return 'max'\n  if (kind === Kind.Int) return 'int'\n  if (n === limits.min) return 'min'\n"
	for _, tc := range []struct {
		name  string
		files []FileChange
	}{
		{"go new function over an enum", []FileChange{mod("calc/describe.go", goOld, goOld+goKinds)}},
		{"go new function over literals", []FileChange{mod("calc/describe.go", goOld, goOld+goNewLiteralFunc)}},
		{"go token switch in a new file", []FileChange{add("calc/lexer.go", goLexer)}},
		{"go named constants", []FileChange{mod("calc/describe.go", goOld, strings.Replace(goOld, goAt, goConsts+goAt, 1))}},
		{"go two new branches", []FileChange{mod("calc/describe.go", goOld, strings.Replace(goOld, goAt, goTwo+goAt, 1))}},
		{"go cases added to a switch that was there", []FileChange{mod("calc/describe.go", goOldSwitch, strings.Replace(goOldSwitch, "\tcase 1:\n", "\tcase 5:\n\t\treturn \"five\"\n\tcase 42:\n\t\treturn \"answer\"\n\tcase 7:\n\t\treturn \"seven\"\n\tcase 1:\n", 1))}},
		{"go branches that compute", []FileChange{mod("calc/describe.go", goOld, strings.Replace(goOld, goAt, goComputed+goAt, 1))}},
		{"go renamed with the branches", []FileChange{mod("calc/describe.go", goOld, strings.Replace(strings.Replace(goOld, goAt, goIfs+goAt, 1), "func Describe(", "func Name(", 1))}},
		{"go in a test file", []FileChange{mod("calc/describe_test.go", goOld, strings.Replace(goOld, goAt, goIfs+goAt, 1))}},
		{"python if-chain rewritten as a match", []FileChange{mod("calc/describe.py", pyChain, "def describe(n):\n    match n:\n        case 5:\n            return \"five\"\n        case 42:\n            return \"answer\"\n        case 7:\n            return \"seven\"\n    return str(n)\n")}},
		{"python token match in a new function", []FileChange{mod("calc/describe.py", pyOld, pyOld+"\n\n"+pyTokens)}},
		{"python in a test file", []FileChange{mod("tests/test_describe.py", pyOld, strings.Replace(pyOld, pyAt, pyElifs+pyAt, 1))}},
		{"js token switch in a new file", []FileChange{add("src/lexer.js", jsTokens)}},
		{"js named constants", []FileChange{mod("src/describe.js", jsOld, strings.Replace(jsOld, jsAt, jsConsts+jsAt, 1))}},
		{"js two new branches", []FileChange{mod("src/describe.js", jsOld, strings.Replace(jsOld, jsAt, "  if (n === 5) return 'five'\n  if (n === 42) return 'answer'\n"+jsAt, 1))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, f := range run(tc.files...) {
				if f.Rule == "special-cases-added" || f.Severity >= gate.SeverityHigh {
					t.Errorf("look-alike reported: %+v", f)
				}
			}
		})
	}
}
