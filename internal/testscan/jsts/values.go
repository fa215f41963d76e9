package jsts

import (
	"math"
	"strconv"
	"strings"
)

// valKind classifies a literal JavaScript value.
type valKind uint8

const (
	vUndefined valKind = iota
	vNull
	vBool
	vNumber
	vBigInt
	vString
	vArray
	vObject
)

// jsValue is a literal value read from source: the rows of .each tables.
type jsValue struct {
	kind  valKind
	str   string // string value; bool "true"/"false"; bigint digits
	num   float64
	items []jsValue // array items, or object values in key order
	keys  []string  // object keys
}

// row is one .each row with the normalized source it came from.
type row struct {
	value jsValue
	norm  string
}

const maxValueDepth = 32

// parseValue reads a literal value starting at token i; ok is false when the
// expression there is not a literal (a variable, a call, a spread...).
func (t *tree) parseValue(i, to, depth int) (jsValue, int, bool) {
	if i >= to || depth > maxValueDepth {
		return jsValue{}, i, false
	}
	tk := &t.toks[i]
	switch tk.Kind {
	case tkString, tkTemplate:
		return jsValue{kind: vString, str: tk.val}, i + 1, true
	case tkNumber:
		v, ok := parseNumber(tk.Text)
		return v, i + 1, ok
	case tkIdent:
		switch tk.Text {
		case "true", "false":
			return jsValue{kind: vBool, str: tk.Text}, i + 1, true
		case "null":
			return jsValue{kind: vNull}, i + 1, true
		case "undefined":
			return jsValue{kind: vUndefined}, i + 1, true
		case "NaN":
			return jsValue{kind: vNumber, num: math.NaN()}, i + 1, true
		case "Infinity":
			return jsValue{kind: vNumber, num: math.Inf(1)}, i + 1, true
		}
	case tkPunct:
		switch tk.Text {
		case "-", "+":
			v, next, ok := t.parseValue(i+1, to, depth+1)
			if !ok || v.kind != vNumber && v.kind != vBigInt {
				return jsValue{}, i, false
			}
			if tk.Text == "-" {
				v.num = -v.num
				if v.kind == vBigInt {
					v.str = "-" + v.str
				}
			}
			return v, next, true
		case "[":
			return t.parseArray(i, to, depth)
		case "{":
			return t.parseObject(i, to, depth)
		}
	}
	return jsValue{}, i, false
}

func (t *tree) parseArray(i, to, depth int) (jsValue, int, bool) {
	if !t.matched(i, to) {
		return jsValue{}, i, false
	}
	close := int(t.match[i])
	v := jsValue{kind: vArray}
	for _, a := range t.splitArgs(i, close) {
		item, next, ok := t.parseValue(a[0], a[1], depth+1)
		if !ok || next != a[1] {
			return jsValue{}, i, false
		}
		v.items = append(v.items, item)
	}
	return v, close + 1, true
}

func (t *tree) parseObject(i, to, depth int) (jsValue, int, bool) {
	if !t.matched(i, to) {
		return jsValue{}, i, false
	}
	close := int(t.match[i])
	v := jsValue{kind: vObject}
	for _, a := range t.splitArgs(i, close) {
		k := a[0]
		var key string
		switch t.kind(k) {
		case tkIdent:
			key = t.toks[k].Text
		case tkString, tkTemplate:
			key = t.toks[k].val
		case tkNumber:
			n, ok := parseNumber(t.toks[k].Text)
			if !ok {
				return jsValue{}, i, false
			}
			key = jsNumber(n.num)
		default:
			return jsValue{}, i, false
		}
		if !t.punct(k+1, ":") {
			return jsValue{}, i, false
		}
		item, next, ok := t.parseValue(k+2, a[1], depth+1)
		if !ok || next != a[1] {
			return jsValue{}, i, false
		}
		v.keys = append(v.keys, key)
		v.items = append(v.items, item)
	}
	return v, close + 1, true
}

// parseNumber reads a numeric literal: decimal, hex, octal, binary, with
// separators, or a bigint.
func parseNumber(text string) (jsValue, bool) {
	s := strings.ReplaceAll(text, "_", "")
	if strings.HasSuffix(s, "n") {
		digits := strings.TrimSuffix(s, "n")
		n, err := strconv.ParseInt(digits, 0, 64)
		if err != nil {
			return jsValue{}, false
		}
		return jsValue{kind: vBigInt, str: strconv.FormatInt(n, 10), num: float64(n)}, true
	}
	lower := strings.ToLower(s)
	if len(lower) > 2 && lower[0] == '0' && strings.IndexByte("xob", lower[1]) >= 0 {
		n, err := strconv.ParseUint(lower, 0, 64)
		if err != nil {
			return jsValue{}, false
		}
		return jsValue{kind: vNumber, num: float64(n)}, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return jsValue{}, false
	}
	return jsValue{kind: vNumber, num: f}, true
}

// jsNumber formats a float the way JavaScript's String(n) does.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}

// arrayTable reads the argument of .each(...) as a literal array of rows.
func (t *tree) arrayTable(from, to int) ([]row, bool) {
	v, next, ok := t.parseValue(from, to, 0)
	if ok && next < to && t.ident(next, "as") && t.ident(next+1, "const") {
		next += 2
	}
	if !ok || next != to || v.kind != vArray {
		return nil, false
	}
	close := int(t.match[from])
	items := t.splitArgs(from, close)
	rows := make([]row, 0, len(v.items))
	for k, item := range v.items {
		rows = append(rows, row{value: item, norm: t.norm(items[k][0], items[k][1])})
	}
	return rows, true
}

// templateTable reads a tagged-template .each table: a header line of column
// names separated by "|", then one ${value} per cell.
func (t *tree) templateTable(from, to int) ([]row, bool) {
	if t.kind(from) != tkTemplateHead {
		return nil, false
	}
	var cols []string
	for _, c := range strings.Split(t.toks[from].val, "|") {
		c = strings.TrimSpace(c)
		if c == "" {
			return nil, false
		}
		cols = append(cols, c)
	}
	var cells []jsValue
	var norms []string
	k := from
	for {
		m := int(t.match[k])
		if m <= k || m >= to {
			return nil, false
		}
		v, next, ok := t.parseValue(k+1, m, 0)
		if !ok || next != m {
			return nil, false
		}
		cells = append(cells, v)
		norms = append(norms, t.norm(k+1, m))
		if strings.Trim(t.toks[m].val, " \t\r\n|") != "" {
			return nil, false
		}
		if t.kind(m) == tkTemplateTail {
			break
		}
		k = m
	}
	if len(cells)%len(cols) != 0 {
		return nil, false
	}
	var rows []row
	for r := 0; r < len(cells); r += len(cols) {
		v := jsValue{kind: vObject, keys: cols, items: cells[r : r+len(cols)]}
		rows = append(rows, row{value: v, norm: strings.Join(norms[r:r+len(cols)], " | ")})
	}
	return rows, true
}

func allObjects(rows []row) bool {
	for _, r := range rows {
		if r.value.kind != vObject {
			return false
		}
	}
	return true
}

func allArrays(rows []row) bool {
	for _, r := range rows {
		if r.value.kind != vArray {
			return false
		}
	}
	return true
}
