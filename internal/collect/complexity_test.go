package collect

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestComplexity(t *testing.T) {
	tests := []struct {
		name, ext, src string
		want           int
	}{
		{"go decisions", ".go", "func f(a, b bool) {\n\tif a && b || !a {\n\t}\n\tfor i := 0; i < 3; i++ {\n\t}\n\tswitch {\n\tcase a:\n\tcase b:\n\t}\n}\n", 6},
		{"go comments and strings", ".go", "// if for while\n/* case && || */\nvar s = \"if && for\" + `while\n|| case` + 'x'\nfunc iffy() {} // identifiers that contain keywords\n", 0},
		{"go rune with quote", ".go", "var q = '\\''\nvar r = '\"'\nfunc f() { if true {} }\n", 1},
		{"go escaped quote in string", ".go", "var s = \"a \\\" if \"\nfunc f() { for {} }\n", 1},
		{"ts template literal with code", ".ts", "const s = `if ${a && b ? `for ${c || d}` : 'while'} case`;\nif (x) {}\n", 3},
		{"ts catch and while", ".ts", "try { while (x) {} } catch (e) { if (e) {} }\n", 3},
		{"ts object braces inside template", ".ts", "const s = `${ {a: 1}.a && b }`; if (s) {}\n", 2},
		{"java text block", ".java", "String s = \"\"\"\n  if (x) { \"quoted\" }\n  \"\"\";\nif (a || b) {}\n", 2},
		{"rust raw string and nested comment", ".rs", "let s = r#\"if \"for\" while\"#;\n/* outer /* inner */ if */\nif a && b {}\n", 2},
		{"rust lifetimes", ".rs", "fn f<'a>(x: &'a str) -> &'a str { if x.is_empty() { x } else { x } }\n", 1},
		{"python", ".py", "def f(a, b):\n    if a and b or not a:\n        pass\n    elif b:\n        pass\n    for x in y:\n        while x:\n            pass\n    try:\n        pass\n    except E:\n        pass\n", 7},
		{"python strings and comments", ".py", "# if and or\ns = 'if and'\nt = \"\"\"for\nwhile or\"\"\"\nu = rb'elif'\nv = f\"{a if b else c}\"\nw = '''except'''\n", 0},
		{"python unterminated string", ".py", "s = 'if\nif x: pass\n", 1},
		{"unknown language", ".md", "if and for", 0},
		{"unterminated block comment", ".go", "/* if", 0},
		{"unterminated template", ".js", "`${ if (a) { `", 1},
		{"empty", ".go", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Complexity([]byte(tc.src), tc.ext)); diff != "" {
				t.Errorf("Complexity (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTreeStats(t *testing.T) {
	dir, commit := newRepo(t, map[string]string{
		"main.go":                  "package main\n\nfunc main() {\n\tif true {\n\t}\n}\n",
		"app/app.py":               "def f(x):\n\n    return x and 1\n",
		"web/a.ts":                 "export const a = (x: number) => x || 1;",
		"README.md":                "# if\nnot source\n",
		"vendor/dep/dep.go":        "package dep\nfunc f() { if true {} }\n",
		"web/node_modules/m/i.js":  "if (x) {}\n",
		"pkg/testdata/fixture.go":  "package x\nfunc f() { if true {} }\n",
		"third_party/lib/lib.java": "class A { void f() { if (x) {} } }\n",
		"bin/blob.go":              "package x\x00\x01\n",
	})
	repo := openRepo(t, dir)
	got, err := TreeStats(repo, commit)
	if err != nil {
		t.Fatal(err)
	}
	// main.go: 5 lines, 1 if; app.py: 2 lines, 1 and; a.ts: 1 line, 1 ||.
	if diff := cmp.Diff(Stats{Files: 3, Lines: 8, Complexity: 3}, got); diff != "" {
		t.Errorf("TreeStats (-want +got):\n%s", diff)
	}
}

func TestNonBlankLines(t *testing.T) {
	for src, want := range map[string]int{"": 0, "\n\n": 0, "a": 1, "a\n": 1, "a\r\n\t \r\nb": 2, " \n x \n\f\n": 1} {
		if got := nonBlankLines([]byte(src)); got != want {
			t.Errorf("nonBlankLines(%q) = %d, want %d", src, got, want)
		}
	}
}
