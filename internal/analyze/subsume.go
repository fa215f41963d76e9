package analyze

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// The assertion-strength model. A replacement weakens a test only when it
// checks less, so before a check counts as removed or weakened the new
// version of the test is searched for one that implies it:
//
//   - an exact comparison or inline snapshot whose literal holds every text
//     the old check looked for (three contains -> one isEqualTo, field
//     checks -> a snapshot or an equality of the whole body, assert!(!s.
//     contains(x)) -> a snapshot without x);
//   - an exception or panic check that pins the message (pytest.raises(E,
//     match=m), #[should_panic(expected = m)], assert.rejects(f, /m/)) over
//     checks of that message and of the failure itself;
//   - an error-identity check (errors.Is, ErrorIs, ErrorContains) over the
//     nil check and the message checks of the same error.
//
// And a check is graded by what it constrains, not by its matcher's name:
// NotEqual(t, "", s) is NotEmpty(t, s), assertThat(a.length > 0).isTrue()
// is assertThat(a).isNotEmpty().

// effStrength is the strength of x judged by the predicate it checks.
func effStrength(x testscan.Assertion) testscan.Strength {
	s := x.Strength
	if s <= testscan.Weak {
		return s
	}
	// Not equal to the zero value: a check that something is there.
	if x.Negated && isZeroLiteral(x.Expected) && equalityKind(x.Kind) {
		return testscan.Weak
	}
	// assertThat(a.length > 0).isTrue(), assertTrue(!list.isEmpty()):
	// non-emptiness, as isNotEmpty() says it.
	if x.Expected == "" && isNonEmptyPredicate(x.Subject) {
		return testscan.Weak
	}
	return s
}

func isZeroLiteral(e string) bool {
	switch strings.TrimSpace(e) {
	case `""`, "``", "''", "0", "0.0", "nil", "null", "None", "false", "False", "undefined":
		return true
	}
	return false
}

// equalityKind reports a matcher that compares for (in)equality.
func equalityKind(k string) bool {
	b := baseKind(k)
	for _, s := range []string{"equal", "tobe", "assert_eq", "==", "equals", "isequalto", "is"} {
		if strings.HasSuffix(b, s) {
			return true
		}
	}
	return false
}

// isNonEmptyPredicate reports a condition that only says a collection or
// string is not empty: a.length > 0, len(a) != 0, !a.isEmpty(), a.size()>=1.
func isNonEmptyPredicate(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	if strings.HasPrefix(s, "!") && (strings.HasSuffix(s, ".isEmpty()") || strings.HasSuffix(s, ".is_empty()")) {
		return true
	}
	for _, op := range []string{">0", "!=0", ">=1"} {
		if !strings.HasSuffix(s, op) {
			continue
		}
		l := strings.TrimSuffix(s, op)
		if strings.HasSuffix(l, ".length") || strings.HasSuffix(l, ".size()") || strings.HasSuffix(l, ".len()") ||
			strings.HasSuffix(l, ".length()") || strings.HasPrefix(l, "len(") && strings.HasSuffix(l, ")") {
			return true
		}
	}
	return false
}

// implied finds, among the checks of a test's new version, one that
// implies a check of the old version. One literal of one check stands for
// one value: where the old version compared several values with the same
// literal (res.get('Content-Type'), res.get('content-type') both equal to
// 'text/x-foo'), one new check holding it implies only the first.
// A check that implied a compared value is used up: it stands in for no
// other lost check.
type implied struct {
	cur   []testscan.Assertion
	used  map[string]string // check index and literal -> the subject it stands for
	taken map[int]bool      // checks that implied a compared value
}

func newImplied(cur []testscan.Assertion) *implied {
	return &implied{cur: cur, used: map[string]string{}, taken: map[int]bool{}}
}

// takenAt reports whether the check of the new version at line with key
// k (assertKey) implied a compared value.
func (im *implied) takenAt(y testscan.Assertion) bool {
	for j := range im.taken {
		if im.cur[j].Line == y.Line && assertKey(im.cur[j]) == assertKey(y) {
			return true
		}
	}
	return false
}

// by reports whether some check of the new version implies x.
func (im *implied) by(x testscan.Assertion) bool {
	for j, y := range im.cur {
		if !covers(y, x) {
			continue
		}
		if containmentKind(x.Kind) || x.Expected == "" {
			return true // texts looked for in one value: one check holds them all
		}
		k := strconv.Itoa(j) + "\x00" + x.Expected
		if s, ok := im.used[k]; ok && s != x.Subject {
			continue
		}
		im.used[k] = x.Subject
		im.taken[j] = true
		return true
	}
	return false
}

// covers reports whether y, in the new version of a test, implies x of the
// old one.
func covers(y, x testscan.Assertion) bool {
	if y.Negated || y.Strength == testscan.Trivial {
		return false
	}
	if x.Rejects != "" && x.Rejects[0] != '!' && failsCall(y, x.Rejects) {
		// A flag set in the promise's .catch (or .then), checked the way
		// only a rejection leaves it: the check that the call rejects
		// says so directly.
		return true
	}
	if y.Kind == x.Kind && y.Subject == x.Subject && y.Expected == x.Expected {
		// The same check kept once where it was made several times (on a
		// variable read again after each request): the others are lost.
		return false
	}
	if errorIdentity(y) && y.Subject != "" {
		// errors.Is(err, ErrX) fails on nil and on any other error: it
		// covers the nil check and the message checks of err.
		s := strings.TrimSuffix(x.Subject, ".Error()")
		if s == y.Subject && !x.Negated && effStrength(x) <= pinStrength(y) {
			return true
		}
	}
	if v, ok := memberOf(x); ok && holdsElement(y, v) {
		return true
	}
	text, ok := pinnedText(y)
	if !ok {
		return false
	}
	if outcomeKind(y.Kind) && !x.Negated && x.Strength <= testscan.Weak && isOutcomePredicate(x.Subject) {
		// is_err(), is_ok() of the caught result: the panic or exception
		// check with its message says more.
		return true
	}
	lits := stringLiterals(x.Expected)
	if len(lits) == 0 && (x.Expected == "" || containmentKind(x.Kind)) {
		// assert!(s.contains("x")), assert "x" in s: the text looked for
		// is in the subject.
		lits = stringLiterals(x.Subject)
	}
	if len(lits) == 0 {
		// A keyword or number expected of a field: the snapshot of the
		// object holds the field with that value.
		v := strings.TrimSpace(x.Expected)
		f := lastField(x.Subject)
		if x.Negated || !isScalarToken(v) || f == "" || !related(x.Subject, y.Subject) {
			return false
		}
		return strings.Contains(text, f) && containsToken(text, v)
	}
	total := 0
	for _, l := range lits {
		total += len(l)
	}
	if total < 4 && !related(x.Subject, y.Subject) {
		// A short value needs its place: the same subject, or the keys the
		// subject reads it under (multipart["text"]) written beside it.
		keys := stringLiterals(x.Subject)
		if len(keys) == 0 || x.Negated {
			return false
		}
		for _, k := range keys {
			if len(k) < 2 || !strings.Contains(text, k) {
				return false
			}
		}
	}
	if x.Negated {
		// Absence: only an exact text with no wildcard pins it.
		if outcomeKind(y.Kind) || len(text) < 16 || hasWildcard(text) {
			return false
		}
		for _, l := range lits {
			if strings.Contains(text, l) {
				return false
			}
		}
		return true
	}
	for _, l := range lits {
		if l == "" || !strings.Contains(text, l) {
			return false
		}
	}
	return true
}

// failsCall reports a check y that the call (normalized source, see
// testscan.Assertion.Rejects) fails: an awaited (or returned) rejection or
// throw check whose
// subject calls the same function with every literal the call passed
// (axios.get("http://localhost:4444/",{maxContentLength:2000}) in
// assert.rejects(() => axios.get("http://localhost:4444/",{maxContentLength:2000,maxRedirects:0}))).
func failsCall(y testscan.Assertion, call string) bool {
	i := strings.IndexByte(call, '(')
	if i <= 0 || !outcomeKind(y.Kind) || y.Floating || !strings.Contains(y.Subject, call[:i+1]) {
		return false
	}
	args := call[i:]
	for _, l := range stringLiterals(args) {
		if !strings.Contains(y.Subject, strconv.Quote(l)) && !strings.Contains(y.Subject, l) {
			return false
		}
	}
	for _, n := range numberTokens(args) {
		if !containsToken(y.Subject, n) {
			return false
		}
	}
	return true
}

// numberTokens returns the numbers written in normalized source outside its
// string literals.
func numberTokens(src string) []string {
	var out []string
	code := blankStrings(src)
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c >= '0' && c <= '9' && (i == 0 || !isWordByte(code[i-1])) {
			j := i
			for j < len(code) && (isWordByte(code[j]) || code[j] == '.') {
				j++
			}
			out = append(out, code[i:j])
			i = j - 1
		}
	}
	return out
}

// containmentKind reports a check that a text holds another: `in`,
// contains, includes, toMatch, toContain.
func containmentKind(k string) bool {
	k = strings.ToLower(k)
	return strings.HasSuffix(k, " in") || strings.Contains(k, "contain") || strings.Contains(k, "include") || strings.Contains(k, "match")
}

// pinStrength is how exactly an error check pins the error: errors.Is and
// errors.As say which error it is, as an exact message did; ErrorContains
// says as much as a containment check of the message.
func pinStrength(y testscan.Assertion) testscan.Strength {
	k := strings.ToLower(y.Kind)
	if strings.HasSuffix(k, "is") || strings.HasSuffix(k, "as") {
		return testscan.Strong
	}
	return y.Strength
}

// errorIdentity reports a check of which error came back: errors.Is,
// assert.ErrorIs, require.ErrorContains, assert.EqualError.
func errorIdentity(y testscan.Assertion) bool {
	k := strings.ToLower(y.Kind)
	for _, s := range []string{"errors.is", "erroris", "errorcontains", "equalerror", "errors.as", "erroras"} {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// outcomeKind reports a check that the code under test fails: an
// exception, a rejection, a panic.
func outcomeKind(k string) bool {
	k = strings.ToLower(k)
	for _, s := range []string{"raises", "warns", "should_panic", "rejects", "throws", "tothrow", "assertthrows", "throwserror"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

func isOutcomePredicate(s string) bool {
	for _, p := range []string{".is_err()", ".is_ok()", ".isErr()", ".isOk()"} {
		if strings.HasSuffix(s, p) {
			return true
		}
	}
	return false
}

// pinnedText is the text an exact check or an outcome check with a message
// pins, when its expected value is written out as literals.
func pinnedText(y testscan.Assertion) (string, bool) {
	e := strings.TrimSpace(y.Expected)
	if outcomeKind(y.Kind) {
		// pytest.raises(E, match="m") is read as `E match="m"`; toThrow("m"),
		// rejects(f, /m/) and should_panic = "m" hold the message itself.
		if i := strings.Index(e, "match="); i >= 0 {
			e = e[i+len("match="):]
		}
		lits := stringLiterals(e)
		if len(lits) == 0 {
			lits = regexLiterals(e)
		}
		t := strings.Join(lits, "")
		return t, strings.TrimSpace(strings.Trim(t, ".*^$")) != ""
	}
	if y.Strength < testscan.Strong || y.Subject == "" || len(stringLiterals(y.Subject)) > 0 && !strings.ContainsAny(y.Subject, "().") {
		return "", false
	}
	// The literal must be the expected value, not an argument of a call
	// that reduces it (len("abc"), hash("abc")).
	if !literalLed(e) {
		return "", false
	}
	t := strings.Join(stringLiterals(e), "")
	return t, strings.TrimSpace(t) != "" && !onlyWildcard(t)
}

// literalLed reports an expected value written as a literal, a collection of
// literals, an inline snapshot (str![[...]], expect![...]) or a join of
// literals.
func literalLed(e string) bool {
	if e == "" {
		return false
	}
	switch e[0] {
	case '"', '\'', '`', '[', '{', '(':
		return true
	}
	for _, p := range []string{"b\"", "b'", "r\"", "r#", "f\"", "u\"", "br\"", "rb\"", "str![", "expect![", "@\"", "b\"\".join(", "\"\".join(", "String.join(", "\"\"\""} {
		if strings.HasPrefix(e, p) {
			return true
		}
	}
	return false
}

func onlyWildcard(t string) bool {
	t = strings.TrimSpace(strings.NewReplacer("...", "", "[..]", "").Replace(t))
	return t == ""
}

func hasWildcard(t string) bool {
	return strings.Contains(t, "...") || strings.Contains(t, "[..]")
}

// related reports two subjects that read the same value: equal, one a
// selector, index or call on the other, or both rooted in one variable.
func related(a, b string) bool {
	a, b = strings.TrimLeft(a, "( "), strings.TrimLeft(b, "( ")
	if a == "" || b == "" {
		return false
	}
	if a == b || extends(a, b) || extends(b, a) || strings.HasSuffix(a, "."+b) || strings.HasSuffix(b, "."+a) {
		return true
	}
	ra, rb := rootIdent(a), rootIdent(b)
	return ra != "" && ra == rb && rootCall(a) == rootCall(b)
}

// rootCall is the call a subject starts with, with its arguments
// (`Status("b")` of `Status("b").Code`), "" when it starts with no call:
// the same function called on other arguments gives another value.
func rootCall(s string) string {
	r := rootIdent(s)
	if r == "" || len(s) == len(r) || s[len(r)] != '(' {
		return ""
	}
	depth := 0
	for i := len(r); i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[:i+1]
			}
		}
	}
	return s
}

func rootIdent(s string) string {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] == '$' || unicode.IsLetter(rune(s[i])) || i > 0 && unicode.IsDigit(rune(s[i]))) {
		i++
	}
	switch s[:i] {
	case "new", "this", "self", "await":
		return ""
	}
	return s[:i]
}

// lastField is the last selector of a subject: "inclusive" of
// (issues[0] as any).inclusive.
func lastField(s string) string {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return ""
	}
	f := s[i+1:]
	for _, r := range f {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	return f
}

func isScalarToken(v string) bool {
	switch v {
	case "true", "false", "True", "False", "null", "None", "nil", "undefined":
		return true
	}
	if v == "" {
		return false
	}
	for _, r := range v {
		if !unicode.IsDigit(r) && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

// containsToken reports v in t as a whole word.
func containsToken(t, v string) bool {
	for i := 0; ; {
		j := strings.Index(t[i:], v)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(v)
		if (j == 0 || !isWordByte(t[j-1])) && (end == len(t) || !isWordByte(t[end])) {
			return true
		}
		i = j + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// stringLiterals returns the contents of the string literals in a
// normalized expression, unescaped: "a\"b" -> a"b; b"x", r#"x"#, `x`,
// 'x' and """x""" are read as well.
func stringLiterals(e string) []string {
	var out []string
	for i := 0; i < len(e); i++ {
		c := e[i]
		if c == 'r' && i+1 < len(e) && e[i+1] == '#' && (i == 0 || !isWordByte(e[i-1])) {
			// Rust raw string r#"..."#.
			j := i + 1
			for j < len(e) && e[j] == '#' {
				j++
			}
			if j < len(e) && e[j] == '"' {
				hashes := strings.Repeat("#", j-i-1)
				end := strings.Index(e[j+1:], `"`+hashes)
				if end >= 0 {
					out = append(out, e[j+1:j+1+end])
					i = j + 1 + end + len(hashes)
					continue
				}
			}
			continue
		}
		if c != '"' && c != '\'' && c != '`' {
			continue
		}
		if c == '\'' && i > 0 && isWordByte(e[i-1]) {
			continue // a Rust lifetime or a quote inside a word
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(e) && e[j] != c; j++ {
			if e[j] == '\\' && j+1 < len(e) {
				j++
				switch e[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case 'r':
					b.WriteByte('\r')
				default:
					b.WriteByte(e[j])
				}
				continue
			}
			b.WriteByte(e[j])
		}
		if j >= len(e) {
			break
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

// regexLiterals returns the text of /regex/ literals with their
// metacharacters dropped: /maxContentLength size of 2000 exceeded/.
func regexLiterals(e string) []string {
	var out []string
	for _, f := range strings.Split(e, ",") {
		f = strings.TrimSpace(f)
		if len(f) < 2 || f[0] != '/' {
			continue
		}
		end := strings.LastIndexByte(f, '/')
		if end <= 0 {
			continue
		}
		r := f[1:end]
		r = strings.NewReplacer(`\.`, ".", `\(`, "(", `\)`, ")", `\/`, "/", "^", "", "$", "").Replace(r)
		if strings.ContainsAny(r, `\[]*+?|{}`) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// memberOf reads a membership check, assertThat(m.containsValue(v)).isTrue()
// or assertTrue(list.contains(v)), and returns v.
func memberOf(x testscan.Assertion) (string, bool) {
	if x.Negated || x.Expected != "" || !strings.HasSuffix(x.Subject, ")") {
		return "", false
	}
	for _, m := range []string{".contains(", ".containsValue(", ".containsKey(", ".includes(", ".has("} {
		i := strings.LastIndex(x.Subject, m)
		if i <= 0 {
			continue
		}
		v := x.Subject[i+len(m) : len(x.Subject)-1]
		if v != "" && !strings.ContainsAny(v, "(),") {
			return v, true
		}
	}
	return "", false
}

// holdsElement reports a check of a collection's elements that lists v:
// containsExactly(10.0, 20.0, "s"), contains(v), isEqualTo(List.of(...)).
func holdsElement(y testscan.Assertion, v string) bool {
	if y.Negated || y.Strength < testscan.Medium {
		return false
	}
	k := strings.ToLower(y.Kind)
	if !strings.HasPrefix(k, "contains") && !strings.Contains(k, "equal") {
		return false
	}
	e := strings.TrimSpace(y.Expected)
	for _, p := range []string{"List.of(", "Arrays.asList(", "Set.of(", "ImmutableList.of(", "["} {
		if strings.HasPrefix(e, p) {
			e = strings.TrimSuffix(strings.TrimSuffix(e[len(p):], ")"), "]")
			break
		}
	}
	for _, el := range strings.Split(e, ",") {
		if strings.TrimSpace(el) == v {
			return true
		}
	}
	return false
}

// nonEmptiness reports a check that a value is not empty: NotEmpty,
// isNotEmpty, NotEqual(t, "", s), assertThat(a.length > 0).isTrue().
func nonEmptiness(x testscan.Assertion) bool {
	k := strings.ToLower(x.Kind)
	return strings.Contains(k, "notempty") || x.Negated && isZeroLiteral(x.Expected) && equalityKind(x.Kind) ||
		x.Expected == "" && isNonEmptyPredicate(x.Subject)
}

// presenceOnly reports a check that only says a value is there: NotNil,
// isNotNull, toBeDefined, assertNotNull, `is not None`.
func presenceOnly(y testscan.Assertion) bool {
	k := strings.ToLower(y.Kind)
	for _, s := range []string{"notnil", "isnotnull", "assertnotnull", "tobedefined", "is not none", "notnull"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return y.Negated && (strings.Contains(k, "tobenull") || strings.Contains(k, "tobeundefined") || strings.HasSuffix(k, "nil") || strings.HasSuffix(k, "isnull"))
}
