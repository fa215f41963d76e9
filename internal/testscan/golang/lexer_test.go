package golang

import (
	"go/token"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scannedText is a token with its text, for comparing two scans.
type scannedText struct {
	Off  int32
	Tok  token.Token
	Text string
}

func texts(lx lexed, src string) []scannedText {
	seq := tokenSeq{src: &source{src: []byte(src), lexed: lx}, toks: lx.toks}
	out := make([]scannedText, len(lx.toks))
	for i, t := range lx.toks {
		out[i] = scannedText{t.off, t.kind(), seq.lit(i)}
	}
	return out
}

// checkLex fails when the ASCII scanner, where it accepts src, disagrees with
// go/scanner.
func checkLex(t *testing.T, src string) {
	t.Helper()
	var fast, slow lexed
	if !lexASCII([]byte(src), 0, &fast) {
		return
	}
	lexScanner([]byte(src), 0, len(src), &slow)
	if diff := cmp.Diff(texts(slow, src), texts(fast, src)); diff != "" {
		t.Errorf("lexASCII(%q) differs from go/scanner (-want +got):\n%s", src, diff)
	}
}

func TestLexMatchesScanner(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"declarations", "package p\n\nimport \"fmt\"\n\nfunc F(a, b int) (int, error) {\n\treturn a + b, nil\n}\n"},
		{"trailing commas", "x := []int{\n\t1,\n\t2,\n}\nf(a, b,\n)\n"},
		{"operators", "a += b; c -= d; e *= f; g /= h; i %= j; k ^= l; m <<= n; o >>= p; q &^= r; s &= t; u |= v\n" +
			"a++ b-- c && d || e <- f &^ g << h >> i <= j >= k == l != m ! ~n ... . : := ; , % ^"},
		{"numbers", "0 1 42 0x1F 0X1f 0o17 0O17 0b101 0B1 017 019 1_000 0x_1 1.5 .5 1. 1e3 1E+3 1e-3 0x1p-2 0x1.8p1 1i 0i 1.5i 0x1pi 1e 0x 0b 0o 0b12 08.5 0x1.8 1__2 0_x 1ee"},
		{"strings and runes", `"a" "" "esc\"aped" "back\\" "\n\t\x41\u00e9\U0001F600" 'a' '\'' '\\' '\n' '\x41' "bad\q" '' 'ab' "unterminated
next" 'x`},
		{"raw strings", "`raw` `multi\nline` `with \"quotes\"` ``"},
		{"unterminated raw", "x := `never closed\n"},
		{"comments", "a // line\nb /* block */ c /* multi\nline */ d /**/ e /*/ f */ g // last"},
		{"unterminated comment", "a /* open"},
		{"illegal ASCII", "a # b $ c ? d @ e \\ f \x00 g \x7f h \f i \v"},
		{"keywords", "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var breaks Func"},
		{"dots", "a.b a..b a...b .5 ..5 a.5"},
		{"division", "a / b /= c"},
		{"empty", ""},
		{"only whitespace", " \t\r\n"},
		{"CRLF", "package p\r\n\r\nvar x = 1\r\n"},
		{"non-ASCII in a literal", `s := "héllo" // ünïcode`},
		{"ends in an open string", "x\""},
		{"ends in an open rune", "'"},
		{"ends in an open raw string", "`"},
		{"ends in a slash", "/"},
		{"ends in &^", "a &^"},
		{"ends in >>", "a >>"},
		{"ends in 0x", "0x"},
		{"ends in an exponent sign", "1e+"},
		{"ends in a dot", "a."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !lexASCII([]byte(tt.src), 0, &lexed{}) {
				t.Fatalf("lexASCII(%q) fell back to go/scanner", tt.src)
			}
			checkLex(t, tt.src)
		})
	}
}

func TestLexFallsBack(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []scannedText
	}{
		{"non-ASCII identifier", "héllo := 1", []scannedText{{0, token.IDENT, "héllo"}, {7, token.DEFINE, ":="}, {10, token.INT, "1"}}},
		{"byte order mark", "\ufeffpackage p", []scannedText{{3, token.PACKAGE, "package"}, {11, token.IDENT, "p"}}},
		{"invalid UTF-8", "a \xff b", []scannedText{{0, token.IDENT, "a"}, {2, token.ILLEGAL, "\ufffd"}, {4, token.IDENT, "b"}}},
		{"raw string with CR", "x = `a\r\nb`", []scannedText{{0, token.IDENT, "x"}, {2, token.ASSIGN, "="}, {4, token.STRING, "`a\nb`"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, texts(lex([]byte(tt.src), 0, len(tt.src), &lexed{}), tt.src)); diff != "" {
				t.Errorf("lex(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func FuzzLex(f *testing.F) {
	sample, err := os.ReadFile("testdata/sample_test.go.txt")
	if err != nil {
		f.Fatalf("read seed: %v", err)
	}
	f.Add(string(sample))
	f.Add("x := 0x1.8p-2i + .5e3 - 017 &^= y >>= 2 // c\n/* d */ `r` 'q' \"s\\\"\"")
	f.Add("a # b $ c ? \x00 '\\x4")
	f.Fuzz(func(t *testing.T, src string) {
		checkLex(t, src)
	})
}
