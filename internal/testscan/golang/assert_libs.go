package golang

import (
	"go/ast"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// Argument shapes of library assertions.
const (
	shNone    = iota
	shSubj    // (subject)
	shEqual   // (expected, actual[, tolerance])
	shSubjExp // (subject, expected)
	shExpSubj // (expected, subject)
	shCond    // (condition): read like an if condition
)

// libSpec describes one library assertion.
type libSpec struct {
	strength testscan.Strength
	negated  bool
	shape    int
	tol      bool // the third value argument is a tolerance
}

var (
	strong = testscan.Strong
	medium = testscan.Medium
	weak   = testscan.Weak
)

// testifyTable covers github.com/stretchr/testify assert and require (and the
// suite methods that forward to them). Names ending in "f" are looked up without it.
var testifyTable = map[string]libSpec{
	"Equal": {strong, false, shEqual, false}, "EqualValues": {strong, false, shEqual, false},
	"Exactly": {strong, false, shEqual, false}, "JSONEq": {strong, false, shEqual, false},
	"YAMLEq": {strong, false, shEqual, false}, "ElementsMatch": {strong, false, shEqual, false},
	"Same": {strong, false, shEqual, false}, "EqualExportedValues": {strong, false, shEqual, false},
	"NotEqual": {strong, true, shEqual, false}, "NotEqualValues": {strong, true, shEqual, false},
	"NotSame": {strong, true, shEqual, false}, "NotElementsMatch": {strong, true, shEqual, false},
	"EqualError": {strong, false, shSubjExp, false}, "ErrorIs": {strong, false, shSubjExp, false},
	"NotErrorIs":      {strong, true, shSubjExp, false},
	"PanicsWithValue": {strong, false, shExpSubj, false}, "PanicsWithError": {strong, false, shExpSubj, false},
	"WithinDuration": {strong, false, shEqual, true}, "InDelta": {strong, false, shEqual, true},
	"InEpsilon": {strong, false, shEqual, true}, "InDeltaSlice": {strong, false, shEqual, true},
	"InDeltaMapValues": {strong, false, shEqual, true}, "InEpsilonSlice": {strong, false, shEqual, true},
	"Contains": {medium, false, shSubjExp, false}, "NotContains": {medium, true, shSubjExp, false},
	"Len": {medium, false, shSubjExp, false}, "Greater": {medium, false, shSubjExp, false},
	"GreaterOrEqual": {medium, false, shSubjExp, false}, "Less": {medium, false, shSubjExp, false},
	"LessOrEqual": {medium, false, shSubjExp, false}, "Positive": {medium, false, shSubj, false},
	"Negative": {medium, false, shSubj, false}, "Regexp": {medium, false, shExpSubj, false},
	"NotRegexp": {medium, true, shExpSubj, false}, "ErrorContains": {medium, false, shSubjExp, false},
	"IsType": {medium, false, shExpSubj, false}, "IsNotType": {medium, true, shExpSubj, false},
	"Implements": {medium, false, shExpSubj, false}, "NotImplements": {medium, true, shExpSubj, false},
	"Subset": {medium, false, shSubjExp, false}, "NotSubset": {medium, true, shSubjExp, false},
	"Empty": {medium, false, shSubj, false}, "Nil": {medium, false, shSubj, false},
	"NoError": {medium, false, shSubj, false}, "Zero": {medium, false, shSubj, false},
	"True": {medium, false, shSubj, false}, "False": {medium, false, shSubj, false},
	"Panics": {medium, false, shSubj, false}, "NotPanics": {medium, true, shSubj, false},
	"ErrorAs": {medium, false, shSubjExp, false}, "WithinRange": {medium, false, shSubj, false},
	"Fail": {medium, false, shNone, false}, "FailNow": {medium, false, shNone, false},
	"FileExists": {medium, false, shSubj, false}, "DirExists": {medium, false, shSubj, false},
	"NoFileExists": {medium, true, shSubj, false}, "NoDirExists": {medium, true, shSubj, false},
	"Eventually": {medium, false, shSubj, false}, "EventuallyWithT": {medium, false, shSubj, false},
	"Never": {medium, true, shSubj, false}, "IsIncreasing": {medium, false, shSubj, false},
	"IsDecreasing": {medium, false, shSubj, false}, "IsNonIncreasing": {medium, false, shSubj, false},
	"IsNonDecreasing": {medium, false, shSubj, false}, "Error": {weak, false, shSubj, false},
	"NotNil": {weak, true, shSubj, false}, "NotEmpty": {weak, true, shSubj, false},
	"NotZero": {weak, true, shSubj, false}, "Condition": {weak, false, shSubj, false},
	"HTTPSuccess": {medium, false, shSubj, false}, "HTTPBodyContains": {medium, false, shSubj, false},
}

// testifyHelpers are exported testify functions that do not assert.
var testifyHelpers = map[string]bool{
	"New": true, "ObjectsAreEqual": true, "ObjectsAreEqualValues": true, "CallerInfo": true,
	"ObjectsExportedFieldsAreEqual": true, "HTTPBody": true, "CallbackT": true,
}

// gotestTable covers gotest.tools/v3/assert, whose order is (actual, expected).
var gotestTable = map[string]libSpec{
	"Equal": {strong, false, shSubjExp, false}, "DeepEqual": {strong, false, shSubjExp, false},
	"Error": {strong, false, shSubjExp, false}, "ErrorIs": {strong, false, shSubjExp, false},
	"NilError": {medium, false, shSubj, false}, "ErrorContains": {medium, false, shSubjExp, false},
	"ErrorType": {medium, false, shSubjExp, false}, "Assert": {medium, false, shCond, false},
	"Check": {medium, false, shCond, false},
}

// isTable covers github.com/matryer/is, whose order is (actual, expected).
var isTable = map[string]libSpec{
	"Equal": {strong, false, shSubjExp, false}, "NoErr": {medium, false, shSubj, false},
	"True": {medium, false, shSubj, false}, "Fail": {medium, false, shNone, false},
}

// checkerTable covers quicktest (both APIs) and gocheck checkers.
var checkerTable = map[string]libSpec{
	"Equals": {strong, false, shSubjExp, false}, "DeepEquals": {strong, false, shSubjExp, false},
	"CmpEquals": {strong, false, shSubjExp, false}, "JSONEquals": {strong, false, shSubjExp, false},
	"CodecEquals": {strong, false, shSubjExp, false}, "ContentEquals": {strong, false, shSubjExp, false},
	"ErrorIs": {strong, false, shSubjExp, false}, "IsNil": {medium, false, shSubj, false},
	"ErrorMatches": {medium, false, shSubjExp, false}, "Matches": {medium, false, shSubjExp, false},
	"PanicMatches": {medium, false, shSubjExp, false}, "Panics": {medium, false, shSubj, false},
	"HasLen": {medium, false, shSubjExp, false}, "Contains": {medium, false, shSubjExp, false},
	"SliceContains": {medium, false, shSubjExp, false}, "MapContains": {medium, false, shSubjExp, false},
	"StringContains": {medium, false, shSubjExp, false}, "Satisfies": {medium, false, shSubjExp, false},
	"IsTrue": {medium, false, shSubj, false}, "IsFalse": {medium, false, shSubj, false},
	"ErrorAs": {medium, false, shSubjExp, false}, "FitsTypeOf": {medium, false, shSubjExp, false},
	"Implements": {medium, false, shSubjExp, false}, "IsNotNil": {weak, true, shSubj, false},
	"NotNil": {weak, true, shSubj, false},
}

// libCall reads an assertion library call.
func (e *env) libCall(call *ast.CallExpr, sel *ast.SelectorExpr) (testscan.Assertion, bool) {
	method := sel.Sel.Name
	fam, offset := "", 0
	switch x := sel.X.(type) {
	case *ast.Ident:
		switch {
		case e.objects[x.Name] != "":
			fam = e.objects[x.Name]
		case x.Name == e.suiteRecv && e.suiteRecv != "":
			if _, ok := lookupTestify(method); !ok {
				return testscan.Assertion{}, false
			}
			fam = famAssert
		default:
			fam, offset = e.ctx.family(x.Name), 1
		}
	case *ast.CallExpr:
		inner, ok := x.Fun.(*ast.SelectorExpr)
		if !ok || len(x.Args) != 0 {
			return testscan.Assertion{}, false
		}
		switch inner.Sel.Name {
		case "Require":
			fam = famRequire
		case "Assert":
			fam = famAssert
		}
	}
	args := call.Args
	if offset > len(args) {
		return testscan.Assertion{}, false
	}
	args = args[offset:]
	line := e.u.line(call.Pos())
	switch fam {
	case famAssert, famRequire:
		spec, ok := lookupTestify(method)
		if !ok {
			if !isExported(method) || testifyHelpers[method] {
				return testscan.Assertion{}, false
			}
			spec = libSpec{strength: medium, shape: shSubj}
		}
		name := strings.TrimSuffix(method, "f")
		if _, ok := testifyTable[method]; ok {
			name = method
		}
		a := e.libAssertion(line, fam+"."+name, spec, args)
		if (name == "Empty" || name == "Zero") && len(args) > 0 {
			if c, ok := args[0].(*ast.CallExpr); ok {
				if f, fn := e.calleePkg(c); f == famCmp && fn == "Diff" {
					ch := e.cmpCheck(c, "cmp.Diff", true)
					a.Kind, a.Strength, a.Subject, a.Expected = ch.kind, ch.strength, ch.subject, ch.expected
				}
			}
		}
		return a, true
	case famGotest:
		if spec, ok := gotestTable[method]; ok {
			return e.libAssertion(line, "assert."+method, spec, args), true
		}
	case famIs:
		if spec, ok := isTable[method]; ok {
			return e.libAssertion(line, "is."+method, spec, args), true
		}
	case famQt, famCheck:
		if method == "Assert" || method == "Check" {
			return e.checkerCall(line, fam, args)
		}
	case "":
		if id, ok := sel.X.(*ast.Ident); ok && offset == 1 {
			return e.projectCall(line, id.Name, method, call.Args)
		}
	}
	return testscan.Assertion{}, false
}

// projectCall reads a project's own assertion helper in another package,
// called with the testing value first: testutil.RequireEqual(t, want, got),
// testutil.Ok(t, err), testutil.Equals(t, want, got). Its name says it
// checks (Assert..., Require..., Expect..., Check..., Verify..., Equal...,
// Ok, NotOk); one that compares says Equal or Eq, and takes the expected
// value before the actual one, as testify does.
func (e *env) projectCall(line int, pkg, method string, args []ast.Expr) (testscan.Assertion, bool) {
	if _, imported := e.ctx.pkgs[pkg]; !imported || len(args) < 2 || !e.isTestingExpr(args[0]) || !isProjectAssertName(method) {
		return testscan.Assertion{}, false
	}
	spec := libSpec{strength: medium, shape: shSubj}
	if strings.Contains(method, "Equal") || strings.HasSuffix(method, "Eq") {
		spec = libSpec{strength: strong, shape: shEqual}
	}
	if strings.Contains(method, "Not") {
		spec.negated = true
	}
	return e.libAssertion(line, pkg+"."+method, spec, args[1:]), true
}

// isProjectAssertName reports whether an exported function name says that
// it checks something.
func isProjectAssertName(name string) bool {
	for _, p := range []string{"Assert", "Require", "Expect", "Check", "Verify", "Equal"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "Ok" || name == "NotOk" || name == "Equals"
}

func lookupTestify(method string) (libSpec, bool) {
	if s, ok := testifyTable[method]; ok {
		return s, true
	}
	s, ok := testifyTable[strings.TrimSuffix(method, "f")]
	return s, ok && strings.HasSuffix(method, "f")
}

func isExported(name string) bool {
	for _, r := range name {
		return unicode.IsUpper(r)
	}
	return false
}

// libAssertion builds an assertion from a spec and the value arguments.
func (e *env) libAssertion(line int, kind string, spec libSpec, args []ast.Expr) testscan.Assertion {
	a := testscan.Assertion{Line: line, Kind: kind, Strength: spec.strength, Negated: spec.negated}
	arg := func(i int) ast.Expr {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch spec.shape {
	case shSubj:
		a.Subject = e.u.text(arg(0))
		if !spec.negated && trivialSubject(kind, arg(0)) {
			a.Strength = testscan.Trivial
		}
	case shEqual:
		a.Expected, a.Subject = e.u.text(arg(0)), e.u.text(arg(1))
		if spec.tol {
			a.Tolerance = e.u.text(arg(2))
		}
		if !spec.negated && a.Subject != "" && a.Subject == a.Expected && !hasCall(arg(0)) {
			a.Strength = testscan.Trivial
		}
	case shSubjExp:
		a.Subject, a.Expected = e.u.text(arg(0)), e.u.text(arg(1))
	case shExpSubj:
		a.Expected, a.Subject = e.u.text(arg(0)), e.u.text(arg(1))
	case shCond:
		if x := arg(0); x != nil {
			c := e.cond(x, true)
			a.Strength, a.Negated, a.Subject, a.Expected = c.strength, c.negated, c.subject, c.expected
		}
	}
	return a
}

// trivialSubject reports a one-operand check of a literal that always passes:
// True(true), Nil(nil), NoError(nil), Empty(""), NotNil(1).
func trivialSubject(kind string, x ast.Expr) bool {
	if x == nil {
		return false
	}
	name := kind[strings.LastIndexByte(kind, '.')+1:]
	switch v := x.(type) {
	case *ast.Ident:
		switch name {
		case "True", "IsTrue":
			return v.Name == "true"
		case "False", "IsFalse":
			return v.Name == "false"
		case "Nil", "NoError", "Empty", "Zero", "IsNil", "NilError", "NoErr":
			return v.Name == "nil"
		}
	case *ast.BasicLit:
		zero := v.Value == "0" || v.Value == `""` || v.Value == "``"
		switch name {
		case "Empty", "Zero":
			return zero
		case "NotNil", "NotEmpty", "NotZero", "IsNotNil":
			return !zero || name == "NotNil" || name == "IsNotNil"
		}
	}
	return false
}

// checkerCall reads quicktest and gocheck assertions: c.Assert(got, qt.Equals,
// want), qt.Assert(t, got, qt.Equals, want) and qt.Assert(t, qt.Equals(got, want)).
func (e *env) checkerCall(line int, fam string, args []ast.Expr) (testscan.Assertion, bool) {
	if len(args) == 0 {
		return testscan.Assertion{}, false
	}
	if len(args) == 1 {
		c, ok := args[0].(*ast.CallExpr)
		if !ok {
			return testscan.Assertion{}, false
		}
		name, negated, operands := unwrapNot(c)
		spec := checkerSpec(name)
		a := e.libAssertion(line, fam+"."+name, spec, operands)
		a.Negated = a.Negated != negated
		return a, true
	}
	name, negated, _ := checkerName(args[1])
	spec := checkerSpec(name)
	operands := append([]ast.Expr{args[0]}, args[2:]...)
	a := e.libAssertion(line, fam+"."+name, spec, operands)
	a.Negated = a.Negated != negated
	return a, true
}

func checkerSpec(name string) libSpec {
	if s, ok := checkerTable[name]; ok {
		return s
	}
	return libSpec{strength: medium, shape: shSubj}
}

// unwrapNot reads qt.Not(qt.X(args)) or qt.X(args) in the new quicktest API.
func unwrapNot(c *ast.CallExpr) (name string, negated bool, args []ast.Expr) {
	for i := 0; i < 8; i++ {
		name = calleeName(c.Fun)
		if name != "Not" || len(c.Args) != 1 {
			return name, negated, c.Args
		}
		inner, ok := c.Args[0].(*ast.CallExpr)
		if !ok {
			return name, negated, c.Args
		}
		c, negated = inner, !negated
	}
	return name, negated, c.Args
}

// checkerName reads a checker argument: qt.Equals, Equals, qt.Not(qt.IsNil),
// qt.CmpEquals(opts...).
func checkerName(x ast.Expr) (string, bool, []ast.Expr) {
	if c, ok := x.(*ast.CallExpr); ok {
		name := calleeName(c.Fun)
		if name == "Not" && len(c.Args) == 1 {
			inner, neg, args := checkerName(c.Args[0])
			return inner, !neg, args
		}
		return name, false, c.Args
	}
	return calleeName(x), false, nil
}

func calleeName(x ast.Expr) string {
	switch v := x.(type) {
	case *ast.SelectorExpr:
		return v.Sel.Name
	case *ast.Ident:
		return v.Name
	case *ast.IndexExpr:
		return calleeName(v.X)
	case *ast.IndexListExpr:
		return calleeName(v.X)
	}
	return ""
}

// objectFamily is the family of an assertion object variable, "" for others.
func (e *env) objectFamily(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return e.objects[id.Name]
	}
	return ""
}
