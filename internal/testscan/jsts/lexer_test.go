package jsts

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// kinds renders tokens as "kind:text" for compact comparison.
func kinds(toks []token) []string {
	names := map[tokKind]string{
		tkIdent: "id", tkNumber: "num", tkString: "str", tkTemplate: "tpl", tkTemplateHead: "head",
		tkTemplateMiddle: "mid", tkTemplateTail: "tail", tkRegex: "re", tkPunct: "p", tkJSXText: "jsx",
	}
	var out []string
	for _, t := range toks {
		text := t.Text
		if t.Kind == tkJSXText {
			text = t.val
		}
		out = append(out, names[t.Kind]+":"+text)
	}
	return out
}

func TestLex(t *testing.T) {
	tests := []struct {
		name string
		src  string
		jsx  bool
		want []string
	}{
		{
			name: "regex after operator, division after operand",
			src:  `a = b / c / d; e = /x\/y[/]/g.test(s); f = (g) / 2`,
			want: []string{"id:a", "p:=", "id:b", "p:/", "id:c", "p:/", "id:d", "p:;", "id:e", "p:=", `re:/x\/y[/]/g`,
				"p:.", "id:test", "p:(", "id:s", "p:)", "p:;", "id:f", "p:=", "p:(", "id:g", "p:)", "p:/", "num:2"},
		},
		{
			name: "regex after keyword",
			src:  `return /'/.test(x)`,
			want: []string{"id:return", "re:/'/", "p:.", "id:test", "p:(", "id:x", "p:)"},
		},
		{
			name: "nested template literals",
			src:  "`a${ `b${ c }d` }e${ {x: 1}.x }f`",
			want: []string{"head:`a${", "head:`b${", "id:c", "tail:}d`", "mid:}e${", "p:{", "id:x", "p::", "num:1", "p:}", "p:.", "id:x", "tail:}f`"},
		},
		{
			name: "strings with escapes and comments",
			src:  `'it(\'x\')' /* it('y') */ "a\"b" // it('z')` + "\nx",
			want: []string{`str:'it(\'x\')'`, `str:"a\"b"`, "id:x"},
		},
		{
			name: "numbers and punctuators",
			src:  `0x1F + 1_000n - 1.5e-3 >>>= a?.b ?? .5`,
			want: []string{"num:0x1F", "p:+", "num:1_000n", "p:-", "num:1.5e-3", "p:>>>=", "id:a", "p:?.", "id:b", "p:??", "num:.5"},
		},
		{
			name: "jsx text with an apostrophe",
			src:  `x = <p className="a">don't {name}</p>; y = 'ok'`,
			jsx:  true,
			want: []string{"id:x", "p:=", "p:<", "id:p", "id:className", "p:=", `str:"a"`, "p:>", "jsx:don't", "p:{", "id:name", "p:}",
				"p:</", "id:p", "p:>", "p:;", "id:y", "p:=", "str:'ok'"},
		},
		{
			name: "tsx generic arrow is not jsx",
			src:  `const f = <T,>(x: T) => x`,
			jsx:  true,
			want: []string{"id:const", "id:f", "p:=", "p:<", "id:T", "p:,", "p:>", "p:(", "id:x", "p::", "id:T", "p:)", "p:=>", "id:x"},
		},
		{
			name: "less-than comparison is not jsx",
			src:  `if (a <b) c()`,
			jsx:  true,
			want: []string{"id:if", "p:(", "id:a", "p:<", "id:b", "p:)", "id:c", "p:(", "p:)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := lex(tc.src, tc.jsx)
			if diff := cmp.Diff(tc.want, kinds(l.toks)); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStringsAndCommentsAreNotTests(t *testing.T) {
	src := "const doc = `\n  it('in a template', () => { expect(1).toBe(1) })\n`\n" +
		"const s = \"it('in a string', () => {})\"\n" +
		"// it.skip('in a comment', () => {})\n" +
		"/* describe('in a block comment', () => { it('x', () => {}) }) */\n" +
		"const re = /it\\('in a regex'/\n" +
		"const el = <p>don't it('in jsx text', () => {})</p>\n" +
		"const tpl = `${ `it('nested template', () => {})` }`\n" +
		"it('real', () => { expect(doc).toContain(\"it('\") })\n"
	f := extract(t, "tricky.test.jsx", src)
	if diff := cmp.Diff([]string{"real"}, scantest.IDs(f)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if f.Partial {
		t.Errorf("Partial = true")
	}
	if len(f.Tests) == 1 && f.Tests[0].Line != 10 {
		t.Errorf("real test at line %d, want 10", f.Tests[0].Line)
	}
}

func TestUnterminatedInputsTerminate(t *testing.T) {
	for _, src := range []string{
		"it('x', () => { const s = 'unterminated\n expect(a).toBe(1) })",
		"`${`${`${",
		"/* never closed",
		"<div><span>{x</div>",
		"x = /[/",
		"'\\",
		"</</</<<<>>>",
		strings.Repeat("(", 10000) + strings.Repeat("}", 10000),
		strings.Repeat("<a>", 5000),
		strings.Repeat("describe('a', () => {", 200),
	} {
		f, err := New().Extract("x.test.jsx", []byte(src))
		if err != nil || f == nil {
			t.Fatalf("Extract(%.20q) = %v, %v", src, f, err)
		}
	}
}

func TestPathologicalInputsAreBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	each := "describe.each([1, 2, 3, 4, 5, 6, 7, 8])('%i', () => {\n"
	inputs := map[string]string{
		"nested each groups":       strings.Repeat(each, 40) + "it('leaf', () => { expect(x).toBe(1) })\n" + strings.Repeat("})\n", 40),
		"regex starts on one line": "x" + strings.Repeat("=/[", 200000),
		"unclosed regexes":         strings.Repeat("a = /x\\/", 100000),
		"should chains":            "it('s', () => { x" + strings.Repeat(".should", 50000) + " })",
		"deep parens in an if":     "if " + strings.Repeat("(", 20000) + strings.Repeat("a === 'x' && ", 20000) + strings.Repeat(")", 20000),
		"unclosed calls":           strings.Repeat("describe(x, it(y, ", 50000),
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			// Terminating at all is the check: a quadratic or looping lexer
			// runs into the test timeout.
			extract(t, "p.test.js", src)
		})
	}
}

func TestUnescape(t *testing.T) {
	tests := map[string]string{
		`a\nb`:       "a\nb",
		`\x41\u0042`: "AB",
		`\u{1F600}`:  "\U0001F600",
		`it\'s`:      "it's",
		"a\\\nb":     "ab",
		`\q\`:        `q\`,
	}
	for in, want := range tests {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}
