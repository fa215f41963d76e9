package jsts

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	// chaiLanguage are chai's readability chains: they do not assert.
	chaiLanguage = set("to", "be", "been", "is", "that", "which", "and", "has", "have",
		"with", "at", "of", "same", "but", "does", "still", "also", "itself", "should", "the", "it")
	// chaiFlags change the meaning of the assertions after them.
	chaiFlags = set("deep", "nested", "own", "ordered", "any", "all", "eventually")
	// chaiChainable act as flags when not called and not last (.include.members).
	chaiChainable = set("a", "an", "include", "includes", "contain", "contains", "length")
	// chaiProperty assert by being read (.to.be.true).
	chaiProperty = set("ok", "true", "false", "null", "undefined", "NaN", "exist", "exists",
		"empty", "arguments", "Arguments", "extensible", "sealed", "frozen", "finite",
		"called", "calledOnce", "calledTwice", "calledThrice", "notCalled", "fulfilled", "rejected")
)

// chaiChain turns a chai chain (after expect(x) or x.should) into assertions,
// one per asserting link; .not negates the links after it.
// The subject is the token range [from, to), normalized only when an
// assertion is found.
func (t *tree) chaiChain(line, from, to int, links []link) []testscan.Assertion {
	var out []testscan.Assertion
	negated, include := false, false
	flags := ""
	subject, subjConst, done := "", false, false
	for idx, l := range links {
		name := l.name
		if !l.call {
			switch {
			case name == "not":
				negated = true
				continue
			case chaiFlags[name]:
				if name != "eventually" {
					flags += name + "."
				}
				continue
			case chaiLanguage[name]:
				continue
			case chaiChainable[name] && idx+1 < len(links):
				include = include || strings.HasPrefix(name, "inclu") || strings.HasPrefix(name, "contain")
				continue
			case !chaiProperty[name]:
				continue
			}
		}
		if !done {
			subject, subjConst, done = t.norm(from, to), t.isConstant(from, to), true
		}
		a := testscan.Assertion{Line: line, Kind: flags + name, Negated: negated, Subject: subject}
		a.Strength = chaiStrength(name, negated, len(l.args))
		if include && (name == "members" || name == "keys") {
			a.Strength = testscan.Medium
		}
		expConst := true
		if l.call {
			a.Expected = t.argText(l.args, 0)
			expConst = t.argConst(l.args, 0)
			if len(l.args) >= 2 && pairAssertion[name] {
				// property('a', 1), header('X', 'v'): the value is expected too.
				close := int(t.match[l.open])
				a.Expected = t.norm(l.open+1, close)
				expConst = t.isConstant(l.open+1, close)
			}
			if name == "closeTo" || name == "approximately" {
				a.Tolerance = t.argText(l.args, 1)
			}
		}
		trivial(&a, subjConst, expConst)
		out = append(out, a)
		if len(out) >= 8 {
			break
		}
	}
	return out
}

// pairAssertion are the chai and should.js assertions whose second argument is
// an expected value for the key named by the first.
var pairAssertion = set("property", "ownProperty", "haveOwnProperty", "nestedProperty",
	"deepProperty", "propertyByPath", "header")

// chaiStrength ranks a chai or should.js assertion (including sinon-chai,
// chai-as-promised and chai-http / should-http words).
func chaiStrength(name string, negated bool, nargs int) testscan.Strength {
	switch name {
	case "equal", "equals", "eq", "eql", "eqls", "deepEqual", "members", "become", "calledWith",
		"calledWithExactly", "calledOnceWith", "calledOnceWithExactly", "alwaysCalledWith",
		"closeTo", "approximately", "returned", "exactly":
		return testscan.Strong
	case "status", "statusCode":
		if nargs >= 1 {
			return testscan.Strong
		}
	case "property", "ownProperty", "haveOwnProperty", "nestedProperty", "deepProperty",
		"propertyByPath", "header":
		if nargs >= 2 {
			return testscan.Strong
		}
	case "ok", "exist", "exists", "called", "fulfilled":
		return testscan.Weak
	case "undefined", "null":
		if negated {
			return testscan.Weak
		}
	}
	return testscan.Medium
}

// assertSpec describes an assert-style function: its strength, whether it
// inverts the check, and whether its second argument is the expected value.
type assertSpec struct {
	strength testscan.Strength
	negated  bool
	binary   bool
	tol      int // index of the tolerance argument, 0 when none
}

var assertSpecs = map[string]assertSpec{
	"":                   {testscan.Weak, false, false, 0},
	"ok":                 {testscan.Weak, false, false, 0},
	"isOk":               {testscan.Weak, false, false, 0},
	"notOk":              {testscan.Weak, true, false, 0},
	"isNotOk":            {testscan.Weak, true, false, 0},
	"exists":             {testscan.Weak, false, false, 0},
	"isDefined":          {testscan.Weak, false, false, 0},
	"isNotNull":          {testscan.Weak, true, false, 0},
	"isNotUndefined":     {testscan.Weak, true, false, 0},
	"equal":              {testscan.Strong, false, true, 0},
	"strictEqual":        {testscan.Strong, false, true, 0},
	"deepEqual":          {testscan.Strong, false, true, 0},
	"deepStrictEqual":    {testscan.Strong, false, true, 0},
	"eql":                {testscan.Strong, false, true, 0},
	"sameMembers":        {testscan.Strong, false, true, 0},
	"sameDeepMembers":    {testscan.Strong, false, true, 0},
	"sameOrderedMembers": {testscan.Strong, false, true, 0},
	"propertyVal":        {testscan.Strong, false, true, 0},
	"deepPropertyVal":    {testscan.Strong, false, true, 0},
	"notEqual":           {testscan.Strong, true, true, 0},
	"notStrictEqual":     {testscan.Strong, true, true, 0},
	"notDeepEqual":       {testscan.Strong, true, true, 0},
	"notDeepStrictEqual": {testscan.Strong, true, true, 0},
	"notSameMembers":     {testscan.Strong, true, true, 0},
	"notPropertyVal":     {testscan.Strong, true, true, 0},
	"closeTo":            {testscan.Strong, false, true, 2},
	"approximately":      {testscan.Strong, false, true, 2},
	"fail":               {testscan.Medium, false, false, 0},
	"ifError":            {testscan.Medium, false, false, 0},
	"isTrue":             {testscan.Medium, false, false, 0},
	"isFalse":            {testscan.Medium, false, false, 0},
	"isNull":             {testscan.Medium, false, false, 0},
	"isUndefined":        {testscan.Medium, false, false, 0},
	"isNaN":              {testscan.Medium, false, false, 0},
	"isEmpty":            {testscan.Medium, false, false, 0},
	"isNotEmpty":         {testscan.Medium, true, false, 0},
	"notExists":          {testscan.Medium, true, false, 0},
}

// assertSpecFor looks a function up, defaulting to a Medium binary check
// (include, match, throws, lengthOf, instanceOf, isAbove...), negated when its
// name says so.
func assertSpecFor(name string) assertSpec {
	if s, ok := assertSpecs[name]; ok {
		return s
	}
	s := assertSpec{strength: testscan.Medium, binary: true}
	if strings.HasPrefix(name, "is") && len(name) > 2 && name[2] >= 'A' && name[2] <= 'Z' &&
		!strings.HasPrefix(name, "isAbove") && !strings.HasPrefix(name, "isBelow") && !strings.HasPrefix(name, "isAt") {
		s.binary = false // isString(x), isArray(x), isNotNumber(x)...
	}
	if strings.HasPrefix(name, "not") || strings.HasPrefix(name, "isNot") || strings.HasPrefix(name, "doesNot") {
		s.negated = true
	}
	return s
}

// assertAt handles assert(x), assert.fn(...) and assert.strict.fn(...); at is
// the "assert" token, start the first token of the expression (t in t.assert).
func (t *tree) assertAt(start, at, limit int) []testscan.Assertion {
	k := at + 1
	name := ""
	if t.punct(k, ".") && t.kind(k+1) == tkIdent {
		name = t.toks[k+1].Text
		k += 2
		if name == "strict" {
			name = ""
			if t.punct(k, ".") && t.kind(k+1) == tkIdent {
				name = t.toks[k+1].Text
				k += 2
			}
		}
	}
	if !t.punct(k, "(") || !t.matched(k, limit) {
		return nil
	}
	args := t.splitArgs(k, int(t.match[k]))
	spec := assertSpecFor(name)
	kind := "assert"
	if name != "" {
		kind += "." + name
	}
	a := testscan.Assertion{Line: t.toks[start].Line, Kind: kind, Strength: spec.strength, Negated: spec.negated}
	if name != "fail" {
		a.Subject = t.argText(args, 0)
	}
	if spec.binary {
		a.Expected = t.argText(args, 1)
	}
	if spec.tol > 0 {
		a.Tolerance = t.argText(args, spec.tol)
	}
	trivial(&a, t.argConst(args, 0), a.Expected == "" || t.argConst(args, 1))
	return []testscan.Assertion{a}
}

// ctxSpecs are the assertions on a test context: ava (t.is, t.deepEqual,
// t.true...), tap (t.equal, t.same, t.ok...) and node:test's t.plan.
var ctxSpecs = map[string]assertSpec{
	"is": {testscan.Strong, false, true, 0}, "deepEqual": {testscan.Strong, false, true, 0},
	"same": {testscan.Strong, false, true, 0}, "strictSame": {testscan.Strong, false, true, 0},
	"equal": {testscan.Strong, false, true, 0}, "strictEqual": {testscan.Strong, false, true, 0},
	"deepStrictEqual": {testscan.Strong, false, true, 0}, "equals": {testscan.Strong, false, true, 0},
	"snapshot": {testscan.Strong, false, false, 0}, "matchSnapshot": {testscan.Strong, false, false, 0},
	"not": {testscan.Strong, true, true, 0}, "notDeepEqual": {testscan.Strong, true, true, 0},
	"notSame": {testscan.Strong, true, true, 0}, "strictNotSame": {testscan.Strong, true, true, 0},
	"notEqual": {testscan.Strong, true, true, 0}, "notStrictEqual": {testscan.Strong, true, true, 0},
	"true": {testscan.Medium, false, false, 0}, "false": {testscan.Medium, false, false, 0},
	"truthy": {testscan.Weak, false, false, 0}, "ok": {testscan.Weak, false, false, 0},
	"falsy": {testscan.Weak, true, false, 0}, "notOk": {testscan.Weak, true, false, 0},
	"like": {testscan.Medium, false, true, 0}, "has": {testscan.Medium, false, true, 0},
	"match": {testscan.Medium, false, true, 0}, "notMatch": {testscan.Medium, true, true, 0},
	"regex": {testscan.Medium, false, true, 0}, "notRegex": {testscan.Medium, true, true, 0},
	"throws": {testscan.Medium, false, true, 0}, "throwsAsync": {testscan.Medium, false, true, 0},
	"rejects": {testscan.Medium, false, true, 0}, "resolves": {testscan.Medium, false, false, 0},
	"notThrows": {testscan.Medium, true, false, 0}, "notThrowsAsync": {testscan.Medium, true, false, 0},
	"type": {testscan.Medium, false, true, 0}, "error": {testscan.Medium, false, false, 0},
	"fail": {testscan.Medium, false, false, 0}, "plan": {testscan.Medium, false, false, 0},
	"pass": {testscan.Trivial, false, false, 0},
}

// ctxAssertAt handles t.is(a, b) and friends on the test context parameter.
func (t *tree) ctxAssertAt(j, limit int) []testscan.Assertion {
	name := t.toks[j+2].Text
	spec, ok := ctxSpecs[name]
	if !ok || !t.punct(j+3, "(") || !t.matched(j+3, limit) {
		return nil
	}
	args := t.splitArgs(j+3, int(t.match[j+3]))
	a := testscan.Assertion{Line: t.toks[j].Line, Kind: "t." + name, Strength: spec.strength, Negated: spec.negated}
	switch name {
	case "plan":
		a.Expected = t.argText(args, 0)
		return []testscan.Assertion{a}
	case "pass", "fail":
		return []testscan.Assertion{a}
	}
	a.Subject = t.argText(args, 0)
	if spec.binary {
		a.Expected = t.argText(args, 1)
	}
	trivial(&a, t.argConst(args, 0), a.Expected == "" || t.argConst(args, 1))
	return []testscan.Assertion{a}
}

// sinonAssertAt handles sinon.assert.calledWith(spy, ...) and friends.
func (t *tree) sinonAssertAt(j, limit int) []testscan.Assertion {
	if !t.punct(j+3, ".") || t.kind(j+4) != tkIdent || !t.punct(j+5, "(") || !t.matched(j+5, limit) {
		return nil
	}
	name := t.toks[j+4].Text
	close := int(t.match[j+5])
	args := t.splitArgs(j+5, close)
	a := testscan.Assertion{Line: t.toks[j].Line, Kind: "sinon.assert." + name, Strength: testscan.Medium,
		Subject: t.argText(args, 0)}
	switch {
	case strings.Contains(name, "With") || name == "callOrder":
		a.Strength = testscan.Strong
	case name == "called":
		a.Strength = testscan.Weak
	}
	if strings.HasPrefix(name, "not") || strings.HasPrefix(name, "never") {
		a.Negated = true
	}
	if len(args) > 1 {
		a.Expected = t.norm(args[1][0], close)
	}
	return []testscan.Assertion{a}
}
