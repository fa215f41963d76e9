package jsts

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Settlement flags: a test that polls how a promise settled keeps a local
// flag per outcome, set in the callbacks the promise runs,
//
//	var success = false, failure = false
//	axios.get(url, cfg).then(function () { success = true }).catch(function () { failure = true })
//	...
//	assert.equal(success, false); assert.equal(failure, true)
//
// Each of those two checks holds exactly when the call rejected (or has
// not resolved): markRejects records the call on the check
// (Assertion.Rejects), which await assert.rejects(() => axios.get(url, cfg))
// states directly. A check the other way (success checked true, failure
// false) is recorded with a "!" before the call: a rejection check is its
// opposite.

// markRejects sets Rejects on the checks of fn's body whose subject is such
// a flag.
func (t *tree) markRejects(fn fnInfo, as []testscan.Assertion) {
	for i := range as {
		a := &as[i]
		if !isIdentName(a.Subject) {
			continue
		}
		truth, ok := flagTruth(*a)
		if !ok {
			continue
		}
		role, call := t.flagRole(fn, a.Subject)
		switch {
		case role == "reject" && truth, role == "resolve" && !truth:
			a.Rejects = call
		case role == "reject", role == "resolve":
			a.Rejects = "!" + call // holds only when the call did not reject
		}
	}
}

// failureCheck reports a check that something fails: assert.rejects,
// assert.throws, toThrow, toThrowError.
func failureCheck(kind string) bool {
	k := strings.ToLower(kind)
	return strings.Contains(k, "reject") || strings.Contains(k, "throw")
}

// isIdentName reports a plain identifier.
func isIdentName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// flagTruth is the value a check requires of a boolean subject: true for
// assert.equal(x, true), assert.ok(x), expect(x).toBe(true); false for
// assert.equal(x, false), expect(x).toBeFalsy(); ok false for any other
// check.
func flagTruth(a testscan.Assertion) (truth, ok bool) {
	switch a.Kind {
	case "assert.equal", "assert.strictEqual", "assert.deepEqual", "assert.deepStrictEqual", "toBe", "toEqual", "toStrictEqual":
		switch a.Expected {
		case "true":
			truth, ok = true, true
		case "false":
			truth, ok = false, true
		}
	case "assert", "assert.ok", "toBeTruthy", "toBeTrue":
		truth, ok = a.Expected == "", a.Expected == ""
	case "toBeFalsy", "toBeFalse":
		truth, ok = false, a.Expected == ""
	}
	if a.Negated {
		truth = !truth
	}
	return truth, ok
}

// flagRole reads the assignments of name in fn's body: a local flag (a
// var or let of the body) assigned false (or declared without a value)
// and true only as an unconditional statement of the callbacks one call's
// promise runs. role is "reject" when those callbacks are its .catch (or
// the second argument of its .then), "resolve" when they are the first
// argument of .then, "" otherwise; call is the normalized call.
func (t *tree) flagRole(fn fnInfo, name string) (role, call string) {
	declared := false
	for j := fn.bodyFrom; j < fn.bodyTo; j++ {
		if !t.ident(j, name) || t.isMember(j) || t.punct(j+1, ":") && t.punct(j-1, "{") {
			continue
		}
		if t.declares(j) {
			declared = true
		}
		next := j + 1
		if !t.punct(next, "=") {
			if t.kind(next) == tkPunct && len(t.toks[next].Text) >= 2 && t.toks[next].Text[len(t.toks[next].Text)-1] == '=' &&
				t.toks[next].Text != "==" && t.toks[next].Text != "===" && t.toks[next].Text != "!=" && t.toks[next].Text != "!==" &&
				t.toks[next].Text != "<=" && t.toks[next].Text != ">=" || t.punct(next, "++") || t.punct(next, "--") || t.punct(j-1, "++") || t.punct(j-1, "--") {
				return "", "" // another write: not a plain flag
			}
			continue
		}
		end := next + 2
		if t.ident(next+1, "false") && (end >= fn.bodyTo || t.punct(end, ";") || t.punct(end, ",") || t.punct(end, "}")) {
			continue
		}
		if !t.ident(next+1, "true") || !(end >= fn.bodyTo || t.punct(end, ";") || t.punct(end, "}")) {
			return "", ""
		}
		r, c := t.settleCallback(j)
		if r == "" || role != "" && (r != role || c != call) {
			return "", ""
		}
		role, call = r, c
	}
	if !declared {
		return "", ""
	}
	return role, call
}

// declares reports an identifier at j declared by var or let: `var x`,
// `let a = 1, x = false`.
func (t *tree) declares(j int) bool {
	if t.ident(j-1, "var") || t.ident(j-1, "let") {
		return true
	}
	if !t.punct(j-1, ",") {
		return false
	}
	p := t.parent[j]
	for k := j - 1; k >= 0 && t.parent[k] == p; k-- {
		if t.punct(k, ";") || t.punct(k, "{") || t.punct(k, "}") {
			return false
		}
		if t.ident(k, "var") || t.ident(k, "let") {
			return true
		}
	}
	return false
}

// settleCallback returns, for a statement at j, the role of the function
// it runs in when that function is an argument of .then or .catch and the
// statement runs whenever it does, and the call whose promise that is.
func (t *tree) settleCallback(j int) (role, call string) {
	q := int(t.parent[j])
	if q < 0 || !t.punct(q, "{") || t.conditional(j, q) {
		return "", ""
	}
	c := int(t.parent[q])
	if c < 2 || !t.punct(c, "(") || !t.punct(c-2, ".") || t.match[c] < 0 {
		return "", ""
	}
	method := ""
	switch {
	case t.ident(c-1, "catch"):
		method = "catch"
	case t.ident(c-1, "then"):
		method = "then"
	default:
		return "", ""
	}
	for i, arg := range t.splitArgs(c, int(t.match[c])) {
		if q < arg[0] || q >= arg[1] {
			continue
		}
		fn, ok := t.fnAt(arg[0], arg[1])
		if !ok || fn.bodyOpen != q {
			return "", ""
		}
		switch {
		case method == "catch" && i == 0, method == "then" && i == 1:
			role = "reject"
		case method == "then" && i == 0:
			role = "resolve"
		default:
			return "", ""
		}
		call = t.promiseCall(c - 2)
		if call == "" {
			return "", ""
		}
		return role, call
	}
	return "", ""
}

// promiseCall returns the normalized call a chain of .then and .catch
// starts from (axios.get(url, cfg) for axios.get(url, cfg).then(f).catch(g),
// the dot of .catch at dot), "" when the chain starts from no call.
func (t *tree) promiseCall(dot int) string {
	k := dot - 1
	for {
		if !t.punct(k, ")") || t.match[k] < 0 {
			return ""
		}
		closeAt := k
		k = int(t.match[k]) - 1
		for t.kind(k) == tkIdent && t.punct(k-1, ".") && t.kind(k-2) == tkIdent {
			k -= 2
		}
		if t.kind(k) != tkIdent {
			return ""
		}
		if t.punct(k-1, ".") && t.punct(k-2, ")") {
			k -= 2 // a call on the result of another: .then(f).catch(g)
			continue
		}
		return t.norm(k, closeAt+1)
	}
}
