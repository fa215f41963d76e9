package jsts

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// The title formatting below follows jest-each (table/array.ts and
// table/interpolation.ts): printf placeholders for array rows, $variables for
// object rows and tagged-template tables.

const escapedPercent = "@@__JEST_EACH_PLACEHOLDER_ESCAPE__@@"

// placeholderAt returns the index of the first placeholder %s %d %i %f %j %o %O
// %p in s (and the verb), or -1.
func placeholderAt(s string) (int, byte) {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '%' && strings.IndexByte("sdifjoOp", s[i+1]) >= 0 {
			return i, s[i+1]
		}
	}
	return -1, 0
}

// hasPlaceholder reports whether a title uses printf-style placeholders.
func hasPlaceholder(title string) bool {
	s := strings.ReplaceAll(title, "%%", "")
	i, _ := placeholderAt(s)
	return i >= 0 || strings.Contains(s, "%#") || strings.Contains(s, "%$")
}

// formatTitle renders a title for one row of an array table.
func formatTitle(title string, v jsValue, index int, table bool) string {
	args := []jsValue{v}
	if table {
		args = v.items
	}
	s := strings.ReplaceAll(title, "%%", escapedPercent)
	s = strings.ReplaceAll(s, "%#", strconv.Itoa(index))
	s = strings.ReplaceAll(s, "%$", strconv.Itoa(index+1))
	for _, a := range args {
		i, verb := placeholderAt(s)
		if i < 0 {
			break
		}
		if a.kind == vString {
			a.str = strings.ReplaceAll(a.str, "%", escapedPercent)
		}
		var rep string
		if verb == 'p' {
			rep = pretty(a, 0)
		} else {
			rep = formatVerb(verb, a)
		}
		s = s[:i] + rep + s[i+2:]
	}
	return strings.ReplaceAll(s, escapedPercent, "%")
}

// formatVerb formats one value as Node's util.format does for a verb.
func formatVerb(verb byte, v jsValue) string {
	switch verb {
	case 's':
		switch v.kind {
		case vArray, vObject:
			return inspect(v, 0, 0)
		case vBigInt:
			return v.str + "n"
		case vNumber:
			if v.num == 0 && math.Signbit(v.num) {
				return "-0"
			}
		}
		return primitiveString(v)
	case 'd', 'i', 'f':
		if v.kind == vBigInt {
			return v.str + "n"
		}
		n := toNumber(v)
		if verb == 'i' && !math.IsNaN(n) && !math.IsInf(n, 0) {
			n = math.Trunc(n)
		}
		return jsNumber(n)
	case 'j':
		return jsonString(v)
	default: // 'o', 'O'
		return inspect(v, 0, 4)
	}
}

// primitiveString is JavaScript's String(v) for primitives.
func primitiveString(v jsValue) string {
	switch v.kind {
	case vUndefined:
		return "undefined"
	case vNull:
		return "null"
	case vBool, vString, vBigInt:
		return v.str
	case vNumber:
		return jsNumber(v.num)
	case vArray:
		parts := make([]string, len(v.items))
		for k, it := range v.items {
			if it.kind != vNull && it.kind != vUndefined {
				parts[k] = primitiveString(it)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// toNumber is JavaScript's Number(v).
func toNumber(v jsValue) float64 {
	switch v.kind {
	case vNumber, vBigInt:
		return v.num
	case vBool:
		if v.str == "true" {
			return 1
		}
		return 0
	case vNull:
		return 0
	case vString:
		s := strings.TrimSpace(v.str)
		if s == "" {
			return 0
		}
		if n, ok := parseNumber(s); ok && n.kind == vNumber {
			return n.num
		}
	}
	return math.NaN()
}

// jsonString is JSON.stringify(v).
func jsonString(v jsValue) string {
	switch v.kind {
	case vUndefined:
		return "undefined"
	case vString:
		b, _ := json.Marshal(v.str)
		return string(b)
	case vNumber:
		if math.IsNaN(v.num) || math.IsInf(v.num, 0) {
			return "null"
		}
		return jsNumber(v.num)
	case vArray:
		parts := make([]string, len(v.items))
		for k, it := range v.items {
			parts[k] = jsonString(it)
			if it.kind == vUndefined {
				parts[k] = "null"
			}
		}
		return "[" + strings.Join(parts, ",") + "]"
	case vObject:
		var parts []string
		for k, key := range v.keys {
			if v.items[k].kind == vUndefined {
				continue
			}
			kb, _ := json.Marshal(key)
			parts = append(parts, string(kb)+":"+jsonString(v.items[k]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return primitiveString(v)
}

// pretty is pretty-format with {min: true, maxDepth: 1}: strings in double
// quotes, object keys sorted, deeper containers as [Array]/[Object].
func pretty(v jsValue, depth int) string {
	switch v.kind {
	case vString:
		return `"` + strings.NewReplacer(`"`, `\"`, `\`, `\\`).Replace(v.str) + `"`
	case vBigInt:
		return v.str + "n"
	case vNumber:
		if v.num == 0 && math.Signbit(v.num) {
			return "-0"
		}
		return jsNumber(v.num)
	case vArray:
		if depth >= 1 {
			return "[Array]"
		}
		parts := make([]string, len(v.items))
		for k, it := range v.items {
			parts[k] = pretty(it, depth+1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case vObject:
		if depth >= 1 {
			return "[Object]"
		}
		order := sortedKeys(v.keys)
		parts := make([]string, 0, len(order))
		for _, k := range order {
			parts = append(parts, pretty(jsValue{kind: vString, str: v.keys[k]}, depth+1)+": "+pretty(v.items[k], depth+1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return primitiveString(v)
}

func sortedKeys(keys []string) []int {
	order := make([]int, len(keys))
	for k := range order {
		order[k] = k
	}
	// Insertion sort: tables are small and this keeps the order stable.
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && keys[order[b]] < keys[order[b-1]]; b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	return order
}

// inspect approximates util.inspect on one line: strings in single quotes,
// containers deeper than maxDepth as [Array]/[Object].
func inspect(v jsValue, depth, maxDepth int) string {
	switch v.kind {
	case vString:
		if depth == 0 && maxDepth == 0 {
			return v.str
		}
		q := "'"
		if strings.Contains(v.str, "'") && !strings.Contains(v.str, `"`) {
			q = `"`
		}
		return q + strings.ReplaceAll(v.str, q, `\`+q) + q
	case vArray:
		if depth > maxDepth {
			return "[Array]"
		}
		if len(v.items) == 0 {
			return "[]"
		}
		parts := make([]string, len(v.items))
		for k, it := range v.items {
			parts[k] = inspect(it, depth+1, maxDepth)
		}
		return "[ " + strings.Join(parts, ", ") + " ]"
	case vObject:
		if depth > maxDepth {
			return "[Object]"
		}
		if len(v.keys) == 0 {
			return "{}"
		}
		parts := make([]string, len(v.keys))
		for k, key := range v.keys {
			if !isPlainIdent(key) {
				key = "'" + strings.ReplaceAll(key, "'", `\'`) + "'"
			}
			parts[k] = key + ": " + inspect(v.items[k], depth+1, maxDepth)
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return formatVerb('s', v)
}

func isPlainIdent(s string) bool {
	if s == "" || clex.IsDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ident.StartByte(s[i]) && !clex.IsDigit(s[i]) {
			return false
		}
	}
	return true
}

// interpolateVariables renders $key and $key.path references of an object row,
// and the first $# as the row index.
func interpolateVariables(title string, v jsValue, index int) string {
	var b strings.Builder
	for i := 0; i < len(title); i++ {
		if title[i] != '$' || v.kind != vObject {
			b.WriteByte(title[i])
			continue
		}
		matched := ""
		for _, k := range v.keys {
			if k != "" && strings.HasPrefix(title[i+1:], k) {
				matched = k
				break
			}
		}
		if matched == "" {
			b.WriteByte('$')
			continue
		}
		end := i + 1 + len(matched)
		for end < len(title) && (ident.StartByte(title[end]) || clex.IsDigit(title[end]) || title[end] == '.') && title[end] != '$' {
			end++
		}
		val := getPath(v, strings.Split(title[i+1:end], "."))
		if val.kind == vArray || val.kind == vObject {
			b.WriteString(pretty(val, 0))
		} else {
			b.WriteString(primitiveString(val))
		}
		i = end - 1
	}
	return strings.Replace(b.String(), "$#", strconv.Itoa(index), 1)
}

// getPath follows a key path like jest-each: a missing key stops the walk and
// yields the value reached so far.
func getPath(v jsValue, path []string) jsValue {
	for _, key := range path {
		if v.kind != vObject && v.kind != vArray {
			return v
		}
		found := false
		if v.kind == vObject {
			for k, name := range v.keys {
				if name == key {
					v, found = v.items[k], true
					break
				}
			}
		} else if n, err := strconv.Atoi(key); err == nil && n >= 0 && n < len(v.items) {
			v, found = v.items[n], true
		}
		if !found {
			return v
		}
	}
	return v
}

// dynamicEachTitle is the title of an .each call whose rows are not literal:
// every placeholder becomes "*", and the title ends in "*".
func dynamicEachTitle(title string) string {
	var b strings.Builder
	for i := 0; i < len(title); i++ {
		c := title[i]
		switch {
		case c == '%' && i+1 < len(title) && title[i+1] == '%':
			b.WriteByte('%')
			i++
		case c == '%' && i+1 < len(title) && strings.IndexByte("sdifjoOp#$", title[i+1]) >= 0:
			b.WriteByte('*')
			i++
		case c == '$' && i+1 < len(title) && (ident.StartByte(title[i+1]) || title[i+1] == '#'):
			b.WriteByte('*')
			i++
			for i+1 < len(title) && (ident.StartByte(title[i+1]) || clex.IsDigit(title[i+1]) || title[i+1] == '.') && title[i+1] != '$' {
				i++
			}
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	if !strings.HasSuffix(s, "*") {
		s += "*"
	}
	return s
}
