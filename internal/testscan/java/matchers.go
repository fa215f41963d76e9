package java

import (
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// fluentStrong are AssertJ/Truth matchers that compare with an exact value.
var fluentStrong = map[string]bool{
	"isEqualTo": true, "isEqualByComparingTo": true, "containsExactly": true,
	"containsExactlyInAnyOrder": true, "containsExactlyElementsOf": true,
	"containsExactlyInAnyOrderElementsOf": true, "isSameAs": true, "isEqualToIgnoringCase": true,
	"isEqualToIgnoringWhitespace": true, "isEqualToNormalizingWhitespace": true,
	"isEqualToComparingFieldByField": true, "isEqualToComparingFieldByFieldRecursively": true,
	"hasMessage": true, "hasToString": true, "isCloseTo": true, "hasValue": true,
	"containsExactlyEntriesOf": true, "isEqualToIgnoringNewLines": true, "withMessage": true,
}

// fluentWeak are AssertJ/Truth matchers that only check existence.
var fluentWeak = map[string]bool{
	"isNotNull": true, "isNotEmpty": true, "isNotBlank": true, "isPresent": true,
}

// fluentModifiers are chain links (or prefixes of camel-case links) that
// configure or navigate the assertion without checking anything.
var fluentModifiers = []string{"as", "describedAs", "withFailMessage", "overridingErrorMessage",
	"using", "ignoring", "comparing", "extracting", "flatExtracting", "filteredOn",
	"element", "first", "last", "singleElement", "map", "flatMap", "asList", "asString",
	"asInstanceOf", "that", "withRepresentation", "withThreadDumpOnError",
	// Truth: assertWithMessage(m).about(subjectFactory).that(x)
	"about"}

// isModifier reports whether a chain link configures rather than checks.
func isModifier(name string) bool {
	for _, m := range fluentModifiers {
		if name == m {
			return true
		}
		if strings.HasPrefix(name, m) && len(name) > len(m) && name[len(m)] >= 'A' && name[len(m)] <= 'Z' {
			return true
		}
	}
	return false
}

// chain reads assertThat(x).matcher(y).matcher(z) whose entry is named at i: one
// assertion per matcher. An assertThat with no matcher checks nothing and is
// reported as trivial; an exception entry (assertThatThrownBy) asserts a throw by
// itself.
func (b *bodyScanner) chain(root testscan.Assertion, i int, args [][]token, throws bool) []testscan.Assertion {
	subject := ""
	if len(args) > 0 {
		subject = joinTokens(args[len(args)-1])
	}
	literalSubject := len(args) == 1 && isLiteral(args[0])
	var out []testscan.Assertion
	if throws {
		root.Subject = subject
		out = append(out, root)
	}
	c := b.closeOf(i + 1)
	for b.is(c+1, ".") && b.at(c+2).Kind == tkIdent && b.is(c+3, "(") {
		name := b.toks[c+2].Text
		margs := splitArgs(b.toks[c+4 : b.closeOf(c+3)])
		line := b.toks[c+2].Line
		open := c + 3
		c = b.closeOf(open)
		if isModifier(name) {
			if name == "that" && len(margs) > 0 { // Truth: assertWithMessage(m).that(x)
				subject = joinTokens(margs[0])
				literalSubject = len(margs) == 1 && isLiteral(margs[0])
			}
			continue
		}
		a := testscan.Assertion{Line: line, Kind: name, Subject: subject, Strength: testscan.Medium}
		a.Expected = joinTokens(b.toks[open+1 : c])
		switch {
		case fluentStrong[name]:
			a.Strength = testscan.Strong
			if len(margs) > 1 && (name == "isCloseTo" || name == "isEqualTo") {
				a.Expected = joinTokens(margs[0])
				a.Tolerance = joinTokens(margs[1])
			}
			if literalSubject && len(margs) == 1 && isLiteral(margs[0]) && a.Expected == subject {
				a.Strength = testscan.Trivial
			}
		case fluentWeak[name]:
			a.Strength = testscan.Weak
		case strings.HasPrefix(name, "isNot") || strings.HasPrefix(name, "doesNot"):
			a.Negated = true
		case name == "isTrue" || name == "isFalse":
			a.Negated = name == "isFalse"
			if literalSubject && (subject == "true" || subject == "false") {
				a.Strength = testscan.Trivial
			}
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		root.Subject = subject
		root.Strength = testscan.Trivial
		out = append(out, root)
	}
	return out
}

// hamcrestStrong are Hamcrest matchers that compare with an exact value.
var hamcrestStrong = map[string]bool{
	"equalTo": true, "sameInstance": true, "theInstance": true, "equalToIgnoringCase": true,
	"equalToCompressingWhiteSpace": true, "equalToIgnoringWhiteSpace": true, "contains": true,
	"arrayContaining": true, "equalToObject": true, "closeTo": true, "samePropertyValuesAs": true,
}

// hamcrest reads assertThat([reason,] actual, matcher).
func (b *bodyScanner) hamcrest(a testscan.Assertion, args [][]token) testscan.Assertion {
	actual, matcher := args[0], args[1]
	if len(args) >= 3 {
		actual, matcher = args[1], args[2]
	}
	a.Subject = joinTokens(actual)
	name, inner, ok := matcherCall(matcher)
	if !ok {
		// assertThat(reason, condition) or a matcher held in a variable.
		if len(args) == 2 && isMessage(args[0]) {
			a.Subject = joinTokens(args[1])
		}
		return a
	}
	a.Kind = "assertThat." + name
	for {
		switch name {
		case "is", "not":
			if name == "not" {
				a.Negated = !a.Negated
			}
			if n, in, ok := matcherCall(inner); ok && len(splitArgs(inner)) == 1 {
				name, inner = n, in
				continue
			}
			// is(value) means equalTo(value).
			a.Expected = joinTokens(inner)
			a.Strength = testscan.Strong
		case "notNullValue":
			a.Strength = testscan.Weak
		case "anything":
			a.Strength = testscan.Trivial
		default:
			margs := splitArgs(inner)
			if len(margs) > 0 {
				a.Expected = joinTokens(margs[0])
			}
			if hamcrestStrong[name] {
				a.Strength = testscan.Strong
			}
			if name == "closeTo" && len(margs) > 1 {
				a.Tolerance = joinTokens(margs[1])
			}
		}
		break
	}
	if a.Negated && a.Strength > testscan.Medium {
		a.Strength = testscan.Medium
	}
	if isLiteral(actual) && a.Expected == a.Subject && !a.Negated {
		a.Strength = testscan.Trivial
	}
	return a
}

// matcherCall splits a Hamcrest matcher expression `[Matchers.]name(args)` that
// spans the whole argument.
func matcherCall(toks []token) (name string, inner []token, ok bool) {
	i := 0
	for i+2 < len(toks) && toks[i].Kind == tkIdent && toks[i+1].Text == "." {
		i += 2
	}
	if i+2 > len(toks) || toks[i].Kind != tkIdent || toks[i+1].Text != "(" || toks[len(toks)-1].Text != ")" {
		return "", nil, false
	}
	name = toks[i].Text
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return "", nil, false
	}
	// The closing parenthesis must belong to this call, not to a later one.
	depth := 0
	for k := i + 1; k < len(toks); k++ {
		switch toks[k].Text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 && k != len(toks)-1 {
				return "", nil, false
			}
		}
	}
	return name, toks[i+2 : len(toks)-1], true
}
