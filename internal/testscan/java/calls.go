package java

import "github.com/ralph-gate/ralph-gate/internal/testscan"

// callSite adds the call whose name is at i (followed by its '(') to calls
// (testscan.TestCase.Calls): "name" for name(...), ".name" for
// this.name(...), obj.name(...) or Type.name(...). Left out are keywords,
// constructors (new Foo(...), this(...), super(...)), declarations of local
// and anonymous classes' methods, annotations, the assertions and
// assumptions with the links chained to them (assertThat(x).isEqualTo(y),
// verify(m).save(x)), Mockito's and Hamcrest's static functions and the
// stubbing chains they start (when(...).thenReturn(...)), and calls on
// well-known library classes (Math.max, List.of, String.format).
func (b *bodyScanner) callSite(calls []testscan.Call, i int) []testscan.Call {
	name := b.toks[i].Text
	if javaKeywords[name] || chainEntry(name) {
		return calls
	}
	prev := b.at(i - 1)
	if prev.Kind == tkIdent && !exprKeywords[prev.Text] {
		return calls // a constructor, or a method declaration: void run()
	}
	if prev.Kind == tkPunct && (prev.Text == "@" || prev.Text == "]") {
		return calls // an annotation, or a declaration returning an array
	}
	if prev.Kind != tkPunct || prev.Text != "." {
		if libraryFunctions[name] {
			return calls
		}
		return testscan.AddCall(calls, name)
	}
	// A qualified name: new a.b.Foo(...) is a constructor; Math.max(...) a
	// library call.
	k := i - 1
	for b.is(k, ".") && b.at(k-1).Kind == tkIdent {
		k -= 2
	}
	if q := b.at(k); q.Kind == tkIdent && q.Text == "new" {
		return calls
	}
	if recv := b.at(i - 2); recv.Kind == tkIdent && libraryClasses[recv.Text] {
		return calls
	}
	if b.chainLink(i) {
		return calls
	}
	return testscan.AddMethodCall(calls, name)
}

// chainEntry reports whether a call named name is an assertion, an
// assumption or a Mockito stubbing, whose chained links are no calls either.
func chainEntry(name string) bool {
	_, ok := assertionKinds[name]
	return ok || customAssertion(name) || assumptionNames[name] || stubbingEntries[name]
}

// maxChainLinks bounds how far back chainLink looks for the start of a chain.
const maxChainLinks = 16

// chainLink reports whether the method call named at i (after its '.') is a
// link of a chain that an assertion or stubbing starts: .isEqualTo in
// assertThat(x).isEqualTo(y), .save in verify(m).save(x), .thenReturn in
// when(m.find()).thenReturn(x). It looks back at most maxChainLinks links.
func (b *bodyScanner) chainLink(i int) bool {
	for range maxChainLinks {
		k := i - 2 // the ')' closing the previous link's arguments
		if !b.is(k, ")") || k >= len(b.match) || b.match[k] < 0 || b.match[k] >= k {
			return false
		}
		prev := b.match[k] - 1
		if t := b.at(prev); t.Kind != tkIdent {
			return false
		} else if chainEntry(t.Text) {
			return true
		}
		if !b.is(prev-1, ".") {
			return false
		}
		i = prev
	}
	return false
}

// javaKeywords are the keywords that can stand before '(' without being a
// call.
var javaKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true,
	"synchronized": true, "try": true, "return": true, "throw": true, "new": true,
	"assert": true, "case": true, "yield": true, "this": true, "super": true,
	"else": true, "do": true, "instanceof": true,
}

// exprKeywords are the keywords an expression can follow: a call after them
// is a call, where after another identifier it is a declaration.
var exprKeywords = map[string]bool{
	"return": true, "throw": true, "else": true, "case": true, "yield": true,
	"assert": true, "do": true,
}

// stubbingEntries are Mockito's and BDDMockito's stubbing calls: the links
// chained to them configure a mock (when(m.find(1)).thenReturn(x),
// doReturn(x).when(m).find(1)) rather than call code.
var stubbingEntries = map[string]bool{
	"when": true, "given": true, "then": true, "doReturn": true, "doThrow": true,
	"doNothing": true, "doAnswer": true, "doCallRealMethod": true, "willReturn": true,
	"willThrow": true, "willDoNothing": true, "willAnswer": true,
}

// libraryFunctions are Mockito's argument matchers and verification modes and
// Hamcrest's matchers, usually imported statically: no helper of a test is
// named after them.
var libraryFunctions = map[string]bool{
	"mock": true, "spy": true, "any": true, "anyString": true, "anyInt": true,
	"anyLong": true, "anyDouble": true, "anyBoolean": true, "anyList": true,
	"anyMap": true, "anySet": true, "anyCollection": true, "eq": true, "argThat": true,
	"same": true, "isA": true, "isNull": true, "notNull": true, "refEq": true,
	"times": true, "never": true, "atLeast": true, "atLeastOnce": true, "atMost": true,
	"only": true, "inOrder": true, "reset": true, "lenient": true, "timeout": true,
	"is": true, "not": true, "equalTo": true, "hasSize": true, "hasItem": true,
	"hasItems": true, "contains": true, "containsString": true, "containsInAnyOrder": true,
	"notNullValue": true, "nullValue": true, "instanceOf": true, "empty": true,
	"greaterThan": true, "greaterThanOrEqualTo": true, "lessThan": true,
	"lessThanOrEqualTo": true, "closeTo": true, "startsWith": true, "endsWith": true,
	"allOf": true, "anyOf": true, "sameInstance": true, "hasEntry": true, "hasKey": true,
	"hasProperty": true, "everyItem": true, "emptyString": true, "aMapWithSize": true,
}

// libraryClasses are JDK, JUnit, Mockito and Hamcrest classes whose static
// methods a test calls: Math.max, List.of, Mockito.mock.
var libraryClasses = map[string]bool{
	"Assertions": true, "Assert": true, "Assume": true, "Assumptions": true,
	"Mockito": true, "BDDMockito": true, "ArgumentMatchers": true, "Matchers": true,
	"CoreMatchers": true, "MatcherAssert": true, "Hamcrest": true,
	"String": true, "Math": true, "StrictMath": true, "List": true, "Map": true,
	"Set": true, "Arrays": true, "Collections": true, "Objects": true, "Optional": true,
	"Stream": true, "IntStream": true, "LongStream": true, "DoubleStream": true,
	"Collectors": true, "Integer": true, "Long": true, "Double": true, "Float": true,
	"Short": true, "Byte": true, "Boolean": true, "Character": true, "BigDecimal": true,
	"BigInteger": true, "Duration": true, "Instant": true, "LocalDate": true,
	"LocalDateTime": true, "LocalTime": true, "ZonedDateTime": true, "OffsetDateTime": true,
	"ZoneId": true, "ZoneOffset": true, "Clock": true, "UUID": true, "Files": true,
	"Paths": true, "Path": true, "System": true, "Thread": true, "TimeUnit": true,
	"Executors": true, "CompletableFuture": true, "Pattern": true, "Charset": true,
	"StandardCharsets": true, "EnumSet": true, "Base64": true, "Locale": true,
}
