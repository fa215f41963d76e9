package python

import (
	"strconv"
	"strings"
)

// valKind classifies a statically evaluated expression.
type valKind uint8

const (
	vUnknown valKind = iota // not a literal
	vStr
	vBytes
	vNum
	vConst // True, False, None
	vName  // a class or function whose __name__ is known
	vSeq   // tuple or list display
	vOther // other displays (dict, set) of any content
)

// pyValue is a literal expression's value, as much as the extractor needs.
type pyValue struct {
	kind  valKind
	id    string    // pytest's id for the value, "" when it has none
	canon string    // canonical spelling for markers and comparisons
	elems []pyValue // for vSeq
	falsy bool      // False, None, 0, "", empty display
	tuple bool      // for vSeq: a tuple rather than a list
}

// literal reports whether v is fully known: a scalar, or a display of scalars.
func (v pyValue) literal() bool {
	switch v.kind {
	case vStr, vBytes, vNum, vConst:
		return true
	case vSeq:
		for _, e := range v.elems {
			if !e.literal() {
				return false
			}
		}
		return true
	}
	return false
}

// builtinNames are names whose __name__ pytest uses as id: builtin types and
// exceptions.
var builtinNames = map[string]bool{
	"int": true, "float": true, "str": true, "bytes": true, "bool": true, "list": true,
	"dict": true, "tuple": true, "set": true, "frozenset": true, "object": true,
	"type": true, "complex": true, "bytearray": true, "len": true, "repr": true,
	"abs": true, "min": true, "max": true, "sum": true, "sorted": true, "print": true,
}

// nameResolver reports whether a bare name is a class or function of the file.
type nameResolver func(name string) bool

// evalLiteral evaluates toks when they spell a literal.
func evalLiteral(toks []token, known nameResolver) pyValue {
	toks = stripParens(toks)
	if len(toks) == 0 {
		return pyValue{}
	}
	first := toks[0]
	switch {
	case first.kind == tkString:
		return evalStrings(toks)
	case first.kind == tkNumber && len(toks) == 1:
		return numValue(first.text, false)
	case first.kind == tkOp && (first.text == "-" || first.text == "+") && len(toks) == 2 && toks[1].kind == tkNumber:
		return numValue(toks[1].text, first.text == "-")
	case first.kind == tkName && len(toks) == 1:
		switch first.text {
		case "True":
			return pyValue{kind: vConst, id: "True", canon: "True"}
		case "False", "None":
			return pyValue{kind: vConst, id: first.text, canon: first.text, falsy: true}
		}
		n := first.text
		if builtinNames[n] || strings.HasSuffix(n, "Error") || strings.HasSuffix(n, "Exception") ||
			strings.HasSuffix(n, "Warning") || (known != nil && known(n)) {
			return pyValue{kind: vName, id: n, canon: n}
		}
	case isOpener(first) && len(toks) >= 2 && isCloser(toks[len(toks)-1]) && matchClose(toks, 0) == len(toks)-1:
		inner := toks[1 : len(toks)-1]
		if first.text == "{" {
			return pyValue{kind: vOther, falsy: len(inner) == 0}
		}
		var elems []pyValue
		parts := splitTop(inner, ",")
		for i, p := range parts {
			if len(p) == 0 && i == len(parts)-1 {
				continue
			}
			if len(p) > 0 && isOp(p[0], "*") {
				return pyValue{}
			}
			elems = append(elems, evalLiteral(p, known))
		}
		return pyValue{kind: vSeq, elems: elems, falsy: len(elems) == 0, tuple: first.text == "("}
	}
	return pyValue{}
}

// evalStrings concatenates adjacent string literals, and constant strings
// joined by + ("a" + "b").
func evalStrings(toks []token) pyValue {
	if len(toks) == 1 && toks[0].kind == tkString {
		s := parseStringToken(toks[0].text)
		if s.format {
			return pyValue{}
		}
		return stringResult(s.value(), s.bytes)
	}
	if v, next, ok := foldValue(toks, 0); ok && next == len(toks) {
		return v
	}
	var b strings.Builder
	isBytes := false
	for i, t := range toks {
		if t.kind != tkString {
			return pyValue{}
		}
		s := parseStringToken(t.text)
		if s.format {
			return pyValue{}
		}
		if i == 0 {
			isBytes = s.bytes
		}
		b.WriteString(s.value())
	}
	return stringResult(b.String(), isBytes)
}

func stringResult(v string, isBytes bool) pyValue {
	if isBytes {
		return pyValue{kind: vBytes, id: asciiEscapeBytes(v), canon: "b" + strconv.Quote(v), falsy: v == ""}
	}
	return pyValue{kind: vStr, id: asciiEscape(v), canon: strconv.Quote(v), falsy: v == ""}
}

func numValue(text string, neg bool) pyValue {
	n, ok := parseNumber(text, neg)
	if !ok {
		return pyValue{}
	}
	return pyValue{kind: vNum, id: n.text, canon: n.text, falsy: n.isZero}
}

// trivialLiteral reports whether v is a literal that comparisons of production
// code against it say nothing: 0, 1, -1, "", True, False, None.
func trivialLiteral(v pyValue) bool {
	switch v.kind {
	case vConst:
		return true
	case vStr, vBytes:
		return v.falsy
	case vNum:
		return v.falsy || v.canon == "1" || v.canon == "-1" || v.canon == "1.0" || v.canon == "-1.0"
	}
	return false
}
