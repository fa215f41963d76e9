package python

import (
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// maxCases caps the expansion of stacked parametrize tables; beyond it the test
// is reported once with a dynamic id.
const maxCases = 1024

// paramCase is one parametrize combination.
type paramCase struct {
	id       string
	skip     *testscan.Skip
	dynamic  bool
	literals []string
	params   map[string]string   // argument name to value, normalized source
	rows     []map[string]string // the dynamic case's: every row's params
	marks    []string            // from pytest.param(marks=...)
}

// parametrize expands the @pytest.mark.parametrize decorators of a test and of
// its classes into pytest's ids, or returns nil when there are none. pytest
// applies the marks closest to the function first (bottom-most decorator, then
// the ones above it, then the class's), and each one multiplies the ids so far:
// "test_x[<first>-<second>]". A table it cannot read gives one Dynamic case "*".
func (m *module) parametrize(def *stmt, scopes []classScope) []paramCase {
	var marks []*stmt
	for i := len(def.decos) - 1; i >= 0; i-- {
		marks = append(marks, def.decos[i])
	}
	for s := len(scopes) - 1; s >= 0; s-- {
		for i := len(scopes[s].decos) - 1; i >= 0; i-- {
			marks = append(marks, scopes[s].decos[i])
		}
	}
	var cases []paramCase
	found := false
	for _, d := range marks {
		if len(d.toks) < 2 {
			continue
		}
		c, ok := asCall(d.toks[1:])
		if !ok || (c.name != "pytest.mark.parametrize" && c.name != "mark.parametrize" && c.name != "parametrize") {
			continue
		}
		found = true
		sets, ok := m.parameterSets(c.args, int(d.line))
		if !ok {
			return []paramCase{{id: "*", dynamic: true}}
		}
		if cases == nil {
			cases = sets
			continue
		}
		if len(cases)*len(sets) > maxCases {
			return []paramCase{{id: "*", dynamic: true}}
		}
		next := make([]paramCase, 0, len(cases)*len(sets))
		for _, a := range cases {
			for _, b := range sets {
				c := paramCase{id: a.id + "-" + b.id, skip: a.skip, dynamic: a.dynamic || b.dynamic}
				if c.skip == nil {
					c.skip = b.skip
				}
				c.literals = append(append([]string(nil), a.literals...), b.literals...)
				c.params = joinParams(a.params, b.params)
				c.marks = append(append([]string(nil), a.marks...), b.marks...)
				next = append(next, c)
			}
		}
		cases = next
	}
	if !found {
		return nil
	}
	for _, c := range cases {
		if c.dynamic {
			// The ids are unknown, the rows are not: what the table
			// checks can still be compared with another table's.
			rows := make([]map[string]string, 0, len(cases))
			for _, c := range cases {
				if c.params != nil {
					rows = append(rows, c.params)
				}
			}
			return []paramCase{{id: "*", dynamic: true, rows: rows}}
		}
	}
	return cases
}

// joinParams is the row of two stacked parametrize marks' cases.
func joinParams(a, b map[string]string) map[string]string {
	if a == nil || b == nil {
		return nil
	}
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// parameterSets reads one parametrize call. ok is false when its table is not
// literal enough to know the ids.
func (m *module) parameterSets(args []callArg, line int) ([]paramCase, bool) {
	names, ok := argNames(argOr(args, 0, "argnames"))
	if !ok {
		return nil, false
	}
	values := stripParens(argOr(args, 1, "argvalues"))
	if len(values) < 2 || !(isOp(values[0], "[") || isOp(values[0], "(")) || !isCloser(values[len(values)-1]) || matchClose(values, 0) != len(values)-1 {
		return nil, false
	}
	var ids []pyValue
	idsGiven, idsDynamic := false, false
	if idt := keyword(args, "ids"); idt != nil {
		v := evalLiteral(idt, nil)
		if v.kind != vSeq {
			// A callable or a generator: the ids are known at run time,
			// the rows still here.
			idsDynamic = true
		}
		ids, idsGiven = v.elems, !idsDynamic
	}
	known := func(n string) bool {
		s, ok := m.topDefs[n]
		return ok && (s.isDef() || s.isClass())
	}
	rows := splitTop(values[1:len(values)-1], ",")
	if n := len(rows); n > 0 && len(rows[n-1]) == 0 {
		rows = rows[:n-1]
	}
	if len(rows) == 0 {
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = n + "0"
		}
		return []paramCase{{id: strings.Join(parts, "-"), skip: &testscan.Skip{Kind: testscan.SkipMarked, Reason: "got empty parameter set", Line: line}}}, true
	}
	out := make([]paramCase, 0, len(rows))
	for idx, row := range rows {
		if len(row) > 0 && isOp(row[0], "*") {
			return nil, false
		}
		var pc paramCase
		vals := [][]token{row}
		explicit := ""
		hasExplicit := false
		if c, ok := asCall(row); ok && (c.name == "pytest.param" || c.name == "param") {
			vals = nil
			for _, a := range c.args {
				if a.name == "" {
					vals = append(vals, a.val)
				}
			}
			if id := keyword(c.args, "id"); id != nil {
				v := evalLiteral(id, nil)
				switch v.kind {
				case vStr:
					explicit, hasExplicit = stringValue(id), true
				case vConst:
					if v.canon != "None" {
						return nil, false
					}
				default:
					return nil, false
				}
			}
			if mk := keyword(c.args, "marks"); mk != nil {
				pc.skip = marksSkip(mk)
				pc.marks = markTokens(mk)
			}
		} else if len(names) > 1 {
			v := evalLiteral(row, nil)
			if v.kind != vSeq || len(v.elems) != len(names) {
				return nil, false
			}
			inner := stripParens(row)
			vals = splitTop(inner[1:len(inner)-1], ",")
			if n := len(vals); n > 0 && len(vals[n-1]) == 0 {
				vals = vals[:n-1]
			}
		}
		evals := make([]pyValue, len(vals))
		if len(vals) == len(names) {
			pc.params = make(map[string]string, len(names))
			for i, v := range vals {
				pc.params[names[i]] = compact(v)
			}
		}
		for i, v := range vals {
			evals[i] = evalLiteral(v, known)
			if lv := evals[i]; lv.kind == vStr || lv.kind == vNum || lv.kind == vBytes {
				pc.literals = append(pc.literals, lv.canon)
			}
		}
		switch {
		case hasExplicit:
			pc.id = explicit
		case idsGiven && idx < len(ids) && !(ids[idx].kind == vConst && ids[idx].canon == "None"):
			if ids[idx].id == "" || ids[idx].kind == vName {
				return nil, false
			}
			pc.id = ids[idx].id
		default:
			if len(vals) != len(names) {
				return nil, false
			}
			parts := make([]string, len(names))
			for i, v := range vals {
				id, ok := valueID(evals[i], v, names[i], idx)
				if !ok {
					pc.dynamic = true
				}
				parts[i] = id
			}
			pc.id = strings.Join(parts, "-")
		}
		pc.dynamic = pc.dynamic || idsDynamic
		out = append(out, pc)
	}
	uniquify(out)
	return out, true
}

// valueID is pytest's id for one parameter value: the value itself for
// strings, numbers, booleans and None, the __name__ of classes and functions,
// "<lambda>" for a lambda, and argname+index for other objects. ok is false
// when the value's type cannot be known statically.
func valueID(v pyValue, toks []token, argname string, idx int) (string, bool) {
	switch v.kind {
	case vStr, vBytes, vNum, vConst, vName:
		return v.id, true
	case vSeq, vOther:
		return argname + strconv.Itoa(idx), true
	}
	if t := stripParens(toks); len(t) > 0 && t[0].kind == tkName && t[0].text == "lambda" {
		return "<lambda>", true
	}
	return "*", false
}

// argNames reads parametrize's argnames: "a, b" or ["a", "b"] / ("a", "b").
func argNames(toks []token) ([]string, bool) {
	v := evalLiteral(toks, nil)
	var raw []string
	switch v.kind {
	case vStr:
		raw = strings.Split(stringValue(toks), ",")
	case vSeq:
		for _, e := range v.elems {
			if e.kind != vStr {
				return nil, false
			}
			s, _ := strconv.Unquote(e.canon)
			raw = append(raw, s)
		}
	default:
		return nil, false
	}
	var names []string
	for _, n := range raw {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names, len(names) > 0
}

// uniquify suffixes duplicate ids as pytest does: "a0", "a1", with "_" between
// an id ending in a digit and its counter.
func uniquify(cases []paramCase) {
	counts := map[string]int{}
	taken := map[string]bool{}
	for _, c := range cases {
		counts[c.id]++
		taken[c.id] = true
	}
	next := map[string]int{}
	for i, c := range cases {
		if counts[c.id] <= 1 {
			continue
		}
		suffix := ""
		if c.id != "" && c.id[len(c.id)-1] >= '0' && c.id[len(c.id)-1] <= '9' {
			suffix = "_"
		}
		id := c.id
		n := c.id + suffix + strconv.Itoa(next[id])
		for taken[n] {
			next[id]++
			n = c.id + suffix + strconv.Itoa(next[id])
		}
		cases[i].id = n
		taken[n] = true
		next[id]++
	}
}
