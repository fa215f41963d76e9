package java

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
	"github.com/ralph-gate/ralph-gate/internal/testscan/clex"
)

// testAnnotations mark a method as a test (JUnit 4 and 5, TestNG, Theories).
var testAnnotations = map[string]bool{
	"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true,
	"TestTemplate": true, "Theory": true, "RetryingTest": true, "RepeatedIfExceptionsTest": true,
	// JUnit Pioneer's parameterized test over the product of argument sets.
	"CartesianTest": true, "CartesianProductTest": true,
}

// lifecycleAnnotations mark public methods that a class-level TestNG @Test does not
// turn into tests.
var lifecycleAnnotations = map[string]bool{
	"BeforeMethod": true, "AfterMethod": true, "BeforeClass": true, "AfterClass": true,
	"BeforeTest": true, "AfterTest": true, "BeforeSuite": true, "AfterSuite": true,
	"BeforeGroups": true, "AfterGroups": true, "DataProvider": true, "Factory": true,
}

// conditionalPrefixes start the names of JUnit 5 conditional execution annotations.
var conditionalPrefixes = []string{"DisabledIf", "EnabledIf", "DisabledOn", "EnabledOn",
	"DisabledFor", "EnabledFor", "DisabledIn", "EnabledIn"}

// tests turns the parsed methods into test cases.
func (p *parser) tests(comments []comment) []testscan.TestCase {
	var out []testscan.TestCase
	seen := map[string]int{}
	for _, m := range p.methods {
		if !p.isTest(m) {
			continue
		}
		id := m.owner.qual + "." + m.name
		if n := seen[id]; n > 0 {
			seen[id] = n + 1
			id += "#" + strconv.Itoa(n+1)
		} else {
			seen[id] = 1
		}
		body := p.toks[m.bodyOpen+1 : m.bodyClose]
		tc := testscan.TestCase{
			ID: id, Name: m.name, Line: m.line, EndLine: m.endLine,
			Fingerprint: fingerprint(body, m.name), BodyTokens: len(body),
			Literals: literals(body),
		}
		if tc.EndLine < tc.Line {
			tc.EndLine = tc.Line
		}
		tc.Retries = annotationRetries(m.annots)
		tc.Assertions = annotationAssertions(m.annots)
		scan := scanBody(p.toks, p.match, m.bodyOpen, m.bodyClose, p.testng, &p.callBuf)
		if arm, ok := expectsFailureArm(tc.Assertions, m.line); ok {
			// @Test(expected = AssertionError.class): the test passes
			// only when one of its checks fails.
			for k := range scan.assertions {
				scan.assertions[k].Arms = append([]testscan.Arm{arm}, scan.assertions[k].Arms...)
			}
		}
		tc.Assertions = append(tc.Assertions, scan.assertions...)
		tc.Calls = scan.calls
		tc.Detached = testscan.OnlyDetached(scan.detached, scan.calls)
		tc.Skip = annotationSkip(m.annots)
		for o := m.owner; tc.Skip == nil && o != nil; o = o.parent {
			tc.Skip = annotationSkip(o.annots)
		}
		if tc.Skip == nil {
			tc.Skip = scan.skip
		}
		tc.CommentedAssertions = commentedAssertions(comments, m.bodyOpen, m.bodyClose)
		rows := sourceRows(m.annots)
		if len(rows) == 0 {
			rows = p.methodSourceRows(m)
		}
		if len(rows) > 0 {
			// One case per row, as JUnit reports them ("adds(int, int)[1]"):
			// tests folded into a parameterized test keep a case each.
			for i, row := range rows {
				c := tc
				c.ID = id + "[" + strconv.Itoa(i+1) + "]"
				c.Literals = append(append([]string(nil), row...), tc.Literals...)
				if len(c.Literals) > maxLiterals {
					c.Literals = c.Literals[:maxLiterals]
				}
				out = append(out, c)
			}
			continue
		}
		out = append(out, tc)
	}
	return out
}

// sourceRows reads the rows of a parameterized test's @CsvSource (each
// string, or each line of a text block) and @ValueSource (each literal):
// a row's values as literals.
func sourceRows(annots []annotation) [][]string {
	param := false
	for _, a := range annots {
		param = param || a.name == "ParameterizedTest"
	}
	if !param {
		return nil
	}
	var rows [][]string
	for _, a := range annots {
		switch a.name {
		case "CsvSource":
			for _, t := range a.args {
				if t.Kind != tkString {
					continue
				}
				body := strings.Trim(t.Text, `"`)
				lines := []string{body}
				if strings.HasPrefix(t.Text, `"""`) {
					lines = strings.Split(body, "\n")
				}
				for _, l := range lines {
					if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
						continue
					}
					var row []string
					for _, v := range strings.Split(l, ",") {
						v = strings.Trim(strings.TrimSpace(v), "'")
						if _, err := strconv.ParseFloat(v, 64); err == nil {
							row = append(row, v)
						} else {
							row = append(row, strconv.Quote(v))
						}
					}
					rows = append(rows, row)
				}
			}
		case "ValueSource":
			for i, t := range a.args {
				switch t.Kind {
				case tkString, tkChar:
					rows = append(rows, []string{t.Text})
				case tkNumber:
					v := t.Text
					if i > 0 && a.args[i-1].Text == "-" {
						v = "-" + v
					}
					rows = append(rows, []string{v})
				}
			}
		}
	}
	return rows
}

// isTest reports whether m is a test method.
func (p *parser) isTest(m *methodDecl) bool {
	if m.bodyOpen < 0 {
		return false
	}
	for _, a := range m.annots {
		if testAnnotations[a.name] {
			return true
		}
	}
	if m.name == m.owner.name || m.mods["static"] || !m.mods["public"] {
		return false
	}
	if m.void && m.noParams && strings.HasPrefix(m.name, "test") && strings.HasSuffix(m.owner.extends, "TestCase") {
		return true // JUnit 3
	}
	if !p.testng {
		return false
	}
	// TestNG: a class-level @Test makes every public method a test.
	for _, a := range m.annots {
		if lifecycleAnnotations[a.name] {
			return false
		}
	}
	for _, a := range m.owner.annots {
		if a.name == "Test" {
			return true
		}
	}
	return false
}

// annotationSkip reads @Disabled, @Ignore, conditional execution annotations and
// TestNG's @Test(enabled = false).
func annotationSkip(annots []annotation) *testscan.Skip {
	for _, a := range annots {
		switch {
		case a.name == "Disabled" || a.name == "Ignore":
			return &testscan.Skip{Kind: testscan.SkipMarked, Reason: annotationString(a.args, "value"), Line: a.line}
		case a.name == "Test" && namedArg(a.args, "enabled") == "false":
			return &testscan.Skip{Kind: testscan.SkipMarked, Reason: annotationString(a.args, "description"), Line: a.line}
		}
		for _, prefix := range conditionalPrefixes {
			if strings.HasPrefix(a.name, prefix) {
				return &testscan.Skip{Kind: testscan.SkipConditional, Reason: annotationString(a.args, "disabledReason"), Line: a.line, Runtime: jreRuntime(annots)}
			}
		}
	}
	return nil
}

// jreRuntime reads JUnit's conditions on the Java version the tests run on
// (@EnabledForJreRange(max = JAVA_23), @EnabledOnJre({JAVA_8, JAVA_11}),
// @DisabledForJreRange(min = JAVA_17), JUnit 5.12's maxVersion = 23 and
// versions = {...}) and returns the highest versions the test runs on
// (testscan.Skip.Runtime: "<=23", "<17"), the lowest when several say;
// "" when none bounds them from above.
func jreRuntime(annots []annotation) string {
	best, bestVer := "", ""
	keep := func(r string) {
		v := strings.TrimLeft(r, "<=")
		if c, ok := testscan.CompareVersions(v, bestVer); best == "" || ok && (c < 0 || c == 0 && !strings.HasPrefix(r, "<=")) {
			best, bestVer = r, v
		}
	}
	for _, a := range annots {
		switch a.name {
		case "EnabledForJreRange":
			if v := jreVersion(namedArg(a.args, "max"), namedArg(a.args, "maxVersion")); v != "" {
				keep("<=" + v)
			}
		case "DisabledForJreRange":
			if namedArg(a.args, "max") != "" || namedArg(a.args, "maxVersion") != "" {
				continue // it runs above the range again
			}
			if v := jreVersion(namedArg(a.args, "min"), namedArg(a.args, "minVersion")); v != "" {
				keep("<" + v)
			}
		case "EnabledOnJre":
			list := namedArg(a.args, "value")
			if list == "" {
				list = namedArg(a.args, "versions")
			}
			if list == "" && len(a.args) > 0 && !strings.Contains(joinTokens(a.args), "=") {
				list = joinTokens(a.args)
			}
			high := ""
			for _, part := range strings.Split(strings.Trim(list, "{}"), ",") {
				v := jreVersion(strings.TrimSpace(part), "")
				if v == "" {
					high = ""
					break
				}
				if c, _ := testscan.CompareVersions(v, high); high == "" || c > 0 {
					high = v
				}
			}
			if high != "" {
				keep("<=" + high)
			}
		}
	}
	return best
}

// jreVersion reads a JRE constant (JAVA_17, JRE.JAVA_8) or, failing that,
// a version number (23); "" for anything else (JRE.OTHER, a constant).
func jreVersion(constant, number string) string {
	if v, ok := strings.CutPrefix(strings.TrimPrefix(constant, "JRE."), "JAVA_"); ok {
		if _, err := strconv.Atoi(v); err == nil {
			return v
		}
		return ""
	}
	if constant != "" {
		if _, err := strconv.Atoi(constant); err == nil {
			return constant
		}
		return ""
	}
	if _, err := strconv.Atoi(number); err == nil {
		return number
	}
	return ""
}

// annotationAssertions reads JUnit 4's @Test(expected = X.class) and TestNG's
// @Test(expectedExceptions = X.class).
func annotationAssertions(annots []annotation) []testscan.Assertion {
	for _, a := range annots {
		if a.name != "Test" {
			continue
		}
		for _, key := range []string{"expected", "expectedExceptions"} {
			if v := namedArg(a.args, key); v != "" {
				return []testscan.Assertion{{Line: a.line, Kind: "Test(" + key + ")", Strength: testscan.Medium, Expected: v}}
			}
		}
	}
	return nil
}

// expectsFailureArm returns, for a test whose annotation expects what a
// failed check throws (JUnit 4's @Test(expected = AssertionError.class),
// TestNG's expectedExceptions, or Error, Throwable, AssertionFailedError,
// ComparisonFailure), the Inverted arm its checks are under; false for
// any other expected exception (an IllegalArgumentException lets a failed
// check through: the test then fails).
func expectsFailureArm(annotated []testscan.Assertion, line int) (testscan.Arm, bool) {
	for _, a := range annotated {
		if !strings.HasPrefix(a.Kind, "Test(") {
			continue
		}
		class := strings.TrimSuffix(a.Expected, ".class")
		class = class[strings.LastIndexByte(class, '.')+1:]
		switch class {
		case "AssertionError", "AssertionFailedError", "Error", "Throwable", "ComparisonFailure", "MultipleFailuresError":
			return testscan.Arm{At: line, Cond: testscan.Inverted + "@" + strings.TrimSuffix(a.Kind, ")") + " = " + a.Expected + ")"}, true
		}
	}
	return testscan.Arm{}, false
}

// namedArg returns the normalized value of `key = value` in annotation arguments.
func namedArg(args []token, key string) string {
	for _, arg := range splitArgs(args) {
		if len(arg) > 2 && arg[0].Kind == tkIdent && arg[0].Text == key && arg[1].Text == "=" {
			return joinTokens(arg[2:])
		}
	}
	return ""
}

// annotationString returns the string given as the annotation's single value or as
// key = "...", unquoted.
func annotationString(args []token, key string) string {
	parts := splitArgs(args)
	if len(parts) == 1 && len(parts[0]) == 1 && parts[0][0].Kind == tkString {
		return clex.Unquote(parts[0][0].Text)
	}
	for _, arg := range parts {
		if len(arg) == 3 && arg[0].Text == key && arg[1].Text == "=" && arg[2].Kind == tkString {
			return clex.Unquote(arg[2].Text)
		}
	}
	return ""
}

// unquote is the value of a string literal (see clex.Unquote).

// splitArgs splits tokens at top-level commas, looking through nested groups.
func splitArgs(toks []token) [][]token { return clex.SplitArgs(toks, tkPunct, true) }

// commentedAssertions counts comments inside a body whose text is an assertion call.
func commentedAssertions(comments []comment, open, close int) int {
	n := 0
	first := sort.Search(len(comments), func(k int) bool { return comments[k].off > open })
	for _, c := range comments[first:] {
		if c.off > close {
			break
		}
		for _, line := range strings.Split(c.text, "\n") {
			line = strings.TrimLeft(strings.TrimSpace(line), "*")
			if looksLikeAssertion(lex([]byte(line)).toks) {
				n++
				break
			}
		}
	}
	return n
}

// looksLikeAssertion reports whether toks start with a call of an assertion
// function, optionally qualified: assertEquals(, Assertions.assertThat(, verify(.
func looksLikeAssertion(toks []token) bool {
	i := 0
	for i+2 < len(toks) && toks[i].Kind == tkIdent && toks[i+1].Text == "." {
		i += 2
	}
	if i+1 >= len(toks) || toks[i].Kind != tkIdent || toks[i+1].Text != "(" {
		return false
	}
	_, known := assertionKinds[toks[i].Text]
	return known || customAssertion(toks[i].Text)
}

// annotationRetries reads JUnit Pioneer's @RetryingTest(N) (or maxAttempts =
// N: attempts, so N-1 retries), @RepeatedIfExceptionsTest(repeats = N) and
// TestNG's retryAnalyzer (a count the analyzer class decides: 1).
func annotationRetries(annots []annotation) int {
	for _, a := range annots {
		switch a.name {
		case "RetryingTest":
			v := namedArg(a.args, "maxAttempts")
			if v == "" {
				v = namedArg(a.args, "value")
			}
			if v == "" && len(a.args) == 1 && a.args[0].Kind == tkNumber {
				v = a.args[0].Text
			}
			if n, err := strconv.Atoi(v); err == nil && n > 1 {
				return n - 1
			}
			return 1
		case "RepeatedIfExceptionsTest":
			if n, err := strconv.Atoi(namedArg(a.args, "repeats")); err == nil {
				return n
			}
			return 1
		case "Test":
			if namedArg(a.args, "retryAnalyzer") != "" {
				return 1
			}
		}
	}
	return 0
}
