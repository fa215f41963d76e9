package python

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// strLit is a string token taken apart.
type strLit struct {
	prefix string // lowercased, "u" dropped, letters sorted
	body   string // text between the quotes, as written
	raw    bool
	bytes  bool
	format bool // f-string or t-string: not a constant
}

// parseStringToken splits the text of a string token into prefix and body. An
// unterminated string keeps everything after its opening quote as body.
func parseStringToken(text string) strLit {
	i := 0
	for i < len(text) && text[i] != '"' && text[i] != '\'' {
		i++
	}
	var buf [2]byte
	p := buf[:0]
	for j := 0; j < i && len(p) < len(buf); j++ {
		if c := lower(text[j]); c != 'u' {
			p = append(p, c)
		}
	}
	if len(p) == 2 && p[0] > p[1] {
		p[0], p[1] = p[1], p[0]
	}
	s := strLit{prefix: string(p)}
	s.raw = strings.IndexByte(s.prefix, 'r') >= 0
	s.bytes = strings.IndexByte(s.prefix, 'b') >= 0
	s.format = strings.IndexByte(s.prefix, 'f') >= 0 || strings.IndexByte(s.prefix, 't') >= 0
	rest := text[i:]
	if rest == "" {
		return s
	}
	q := rest[0]
	open := 1
	if len(rest) >= 6 && rest[1] == q && rest[2] == q {
		open = 3
	}
	body := rest[open:]
	closeQ := strings.Repeat(string(q), open)
	if len(body) >= open && strings.HasSuffix(body, closeQ) {
		body = body[:len(body)-open]
	}
	s.body = body
	return s
}

// value decodes the literal's escapes (none for raw strings).
func (s strLit) value() string {
	if s.raw {
		return s.body
	}
	return decodeEscapes(s.body, s.bytes)
}

// canonical is a spelling of the literal that survives quote style, triple
// quoting, prefix case and escape spelling changes, as formatters make them.
func (s strLit) canonical() string {
	if s.format || s.raw {
		return s.prefix + strconv.Quote(s.body)
	}
	p := ""
	if s.bytes {
		p = "b"
	}
	return p + strconv.Quote(s.value())
}

// decodeEscapes applies Python's backslash escapes.
func decodeEscapes(s string, isBytes bool) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			writeCode(&b, rune(v), isBytes)
			i = j - 1
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if (e != 'x' && isBytes) || i+1+n > len(s) {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			writeCode(&b, rune(v), isBytes)
			i += n
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

func writeCode(b *strings.Builder, r rune, isBytes bool) {
	if isBytes || r < 0x80 {
		b.WriteByte(byte(r))
		return
	}
	b.WriteRune(r)
}

// pyNumber is a numeric literal's value as Python's str() prints it.
type pyNumber struct {
	text    string // str(value), e.g. "16" for 0x10, "1000.0" for 1e3
	isZero  bool
	isOne   bool
	complex bool
}

// parseNumber evaluates a numeric literal token, optionally negated.
func parseNumber(text string, neg bool) (pyNumber, bool) {
	t := strings.ToLower(strings.ReplaceAll(text, "_", ""))
	t = strings.TrimSuffix(t, "l")
	if t == "" {
		return pyNumber{}, false
	}
	if strings.HasSuffix(t, "j") {
		if neg {
			return pyNumber{}, false // -2j is complex(-0.0, -2.0): printed "(-0-2j)"
		}
		f, err := strconv.ParseFloat(strings.TrimSuffix(t, "j"), 64)
		if err != nil {
			return pyNumber{}, false
		}
		s := strings.TrimSuffix(pyFloatRepr(f), ".0")
		return pyNumber{text: s + "j", complex: true, isZero: f == 0}, true
	}
	base := 10
	digits := t
	if len(t) > 2 && t[0] == '0' {
		switch t[1] {
		case 'x':
			base, digits = 16, t[2:]
		case 'o':
			base, digits = 8, t[2:]
		case 'b':
			base, digits = 2, t[2:]
		}
	}
	if base == 10 && !strings.ContainsAny(t, ".e") && len(digits) < 18 {
		v, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return pyNumber{}, false
		}
		if neg {
			v = -v
		}
		return pyNumber{text: strconv.FormatInt(v, 10), isZero: v == 0, isOne: v == 1}, true
	}
	if base != 10 || !strings.ContainsAny(t, ".e") {
		v, ok := new(big.Int).SetString(digits, base)
		if !ok {
			return pyNumber{}, false
		}
		if neg {
			v.Neg(v)
		}
		return pyNumber{text: v.String(), isZero: v.Sign() == 0, isOne: v.IsInt64() && v.Int64() == 1}, true
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !math.IsInf(f, 0) {
		return pyNumber{}, false
	}
	if neg {
		f = -f
	}
	return pyNumber{text: pyFloatRepr(f), isZero: f == 0, isOne: f == 1}, true
}

// pyFloatRepr formats f as Python's repr(float) does: the shortest round-trip
// digits, positional for exponents -4..15 (with ".0" for integral values),
// scientific otherwise.
func pyFloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp := 0
	if k := strings.IndexByte(e, 'e'); k >= 0 {
		exp, _ = strconv.Atoi(e[k+1:])
	}
	if exp < -4 || exp >= 16 {
		return e
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// asciiEscape renders a str value the way pytest puts it in a test id
// (str.encode("unicode_escape") followed by escaping non-printable ASCII).
func asciiEscape(s string) string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\'
	}
	if plain {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		i += size
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// asciiEscapeBytes renders a bytes value the way pytest puts it in a test id.
func asciiEscapeBytes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
