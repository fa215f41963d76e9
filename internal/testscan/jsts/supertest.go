package jsts

import (
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// maxRequestChain bounds the links of one supertest chain followed; express
// style chains set headers and check several expectations in a row.
const maxRequestChain = 64

// reqBinding is a variable assigned from a supertest request or agent
// (`var test = request(app).post('/')`, `agent = request.agent(app)`).
type reqBinding struct {
	tok       int    // the variable's token
	subject   string // normalized request chain it stands for
	hasMethod bool   // the chain already names the HTTP method
}

// reqScope is what a file says about supertest: the names it is imported
// under and the variables that hold requests.
type reqScope struct {
	roots    map[string]bool
	bindings map[string][]reqBinding // by name, in source order
}

// callbackNames are the identifiers that, as the last argument of .expect,
// are the end callback rather than an expected value.
var callbackNames = set("done", "cb", "callback", "next", "end", "finish")

// requests returns the file's supertest facts, reading them on first use. While
// they are being read, lookups see the bindings found so far, which is what a
// binding of a binding (`const t = api.get('/')`) needs.
func (t *tree) requests() *reqScope {
	if t.req != nil {
		return t.req
	}
	t.req = &reqScope{roots: set("request", "supertest"), bindings: map[string][]reqBinding{}}
	for i := range t.toks {
		if t.toks[i].Kind != tkIdent || t.isMember(i) {
			continue
		}
		switch {
		case t.ident(i, "import") && t.kind(i+1) == tkIdent && t.ident(i+2, "from") && isSupertestModule(t, i+3):
			t.req.roots[t.toks[i+1].Text] = true
		case t.ident(i, "import") && t.punct(i+1, "*") && t.ident(i+2, "as") && t.kind(i+3) == tkIdent &&
			t.ident(i+4, "from") && isSupertestModule(t, i+5):
			t.req.roots[t.toks[i+3].Text] = true
		case t.punct(i+1, "=") && t.ident(i+2, "require") && t.punct(i+3, "(") && isSupertestModule(t, i+4):
			t.req.roots[t.toks[i].Text] = true
		case t.punct(i+1, "=") && t.kind(i+2) == tkIdent:
			if r, ok := t.requestRoot(i+2, len(t.toks)); ok {
				subj, hasMethod, _ := t.requestSubject(r, len(t.toks))
				name := t.toks[i].Text
				t.req.bindings[name] = append(t.req.bindings[name], reqBinding{tok: i, subject: subj, hasMethod: hasMethod})
			}
		}
	}
	return t.req
}

func isSupertestModule(t *tree, i int) bool {
	return t.kind(i) == tkString && strings.HasPrefix(t.toks[i].val, "supertest")
}

// reqRoot is the start of a request chain: tokens [from, end) hold the root
// expression; prefix replaces them in the subject when the root is a variable.
type reqRoot struct {
	from, end int
	prefix    string
	hasMethod bool
}

// requestRoot recognizes the start of a supertest chain at identifier j:
// request(app), supertest(app), request.agent(app), an `agent` variable or a
// variable assigned from one of these.
func (t *tree) requestRoot(j, limit int) (reqRoot, bool) {
	if t.kind(j) != tkIdent || t.isMember(j) || j+1 >= limit {
		return reqRoot{}, false
	}
	name := t.toks[j].Text
	rs := t.requests()
	if rs.roots[name] {
		k := j + 1
		if t.punct(k, ".") && t.ident(k+1, "agent") {
			k += 2
		}
		if t.punct(k, "(") && t.matched(k, limit) {
			return reqRoot{from: j, end: int(t.match[k]) + 1}, true
		}
		return reqRoot{}, false
	}
	if !t.punct(j+1, ".") {
		return reqRoot{}, false
	}
	if bs := rs.bindings[name]; len(bs) > 0 {
		// The nearest assignment before j; scopes are not tracked.
		if k := sort.Search(len(bs), func(k int) bool { return bs[k].tok >= j }) - 1; k >= 0 {
			return reqRoot{from: j, end: j + 1, prefix: bs[k].subject, hasMethod: bs[k].hasMethod}, true
		}
	}
	if name == "agent" {
		return reqRoot{from: j, end: j + 1}, true
	}
	return reqRoot{}, false
}

// reqLink is one link of a request chain: .name(args), [expr](args) or .name.
type reqLink struct {
	name      string // "" for a computed member
	nameTok   int
	open, end int // the call's "(" (-1 when not called) and the token after the link
}

// requestChain reads the links after a request root.
func (t *tree) requestChain(k, limit int) []reqLink {
	var links []reqLink
	for len(links) < maxRequestChain && k < limit {
		l := reqLink{open: -1, nameTok: k}
		switch {
		case (t.punct(k, ".") || t.punct(k, "?.")) && k+1 < limit && t.kind(k+1) == tkIdent:
			l.name, l.nameTok = t.toks[k+1].Text, k+1
			k += 2
		case t.punct(k, "[") && t.matched(k, limit):
			k = int(t.match[k]) + 1
		default:
			return links
		}
		if t.punct(k, "(") && t.matched(k, limit) {
			l.open = k
			k = int(t.match[k]) + 1
		}
		l.end = k
		links = append(links, l)
	}
	return links
}

// requestSubject returns the normalized request a chain sends: the root and,
// when the root does not name it yet, the first call after it (the method).
func (t *tree) requestSubject(r reqRoot, limit int) (string, bool, []reqLink) {
	links := t.requestChain(r.end, limit)
	to, hasMethod := r.end, r.hasMethod
	if !hasMethod {
		for _, l := range links {
			if l.open >= 0 && l.name != "expect" {
				to, hasMethod = l.end, true
				break
			}
		}
	}
	subject := t.norm(r.from, to)
	if r.prefix != "" {
		subject = r.prefix + t.norm(r.from+1, to)
	}
	return subject, hasMethod, links
}

// supertestAt recognizes the .expect(...) calls of a supertest chain starting
// at identifier j: each one is an assertion on the response.
func (t *tree) supertestAt(j, limit int) []testscan.Assertion {
	r, ok := t.requestRoot(j, limit)
	if !ok {
		return nil
	}
	links := t.requestChain(r.end, limit)
	found := false
	for _, l := range links {
		if l.name == "expect" && l.open >= 0 {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	subject, _, links := t.requestSubject(r, limit)
	var out []testscan.Assertion
	for _, l := range links {
		if l.name != "expect" || l.open < 0 {
			continue
		}
		close := int(t.match[l.open])
		args := t.splitArgs(l.open, close)
		if n := len(args); n >= 2 && t.isCallback(args[n-1]) {
			args = args[:n-1]
		}
		if len(args) == 0 {
			continue
		}
		line := t.toks[l.nameTok].Line
		if len(args) == 2 && args[0][1] == args[0][0]+1 && t.kind(args[0][0]) == tkNumber {
			// .expect(status, body) checks the status and the body: two
			// checks, as .expect(status).expect(body) writes them.
			out = append(out,
				testscan.Assertion{Line: line, Kind: "supertest.expect", Subject: subject, Expected: t.norm(args[0][0], args[0][1]), Strength: testscan.Strong},
				testscan.Assertion{Line: line, Kind: "supertest.expect", Subject: subject, Expected: t.norm(args[1][0], args[1][1]), Strength: t.expectValueStrength(args[1], false)})
			continue
		}
		a := testscan.Assertion{Line: line, Kind: "supertest.expect", Subject: subject,
			Expected: t.norm(args[0][0], args[len(args)-1][1]), Strength: t.expectValueStrength(args[len(args)-1], len(args) == 1)}
		if len(args) == 2 && args[0][1] == args[0][0]+1 && t.kind(args[0][0]) == tkString {
			// .expect(field, value): supertest looks the header up by its
			// lower-cased name, so 'Content-Type' and 'content-type' are
			// one check.
			a.Expected = strings.ToLower(t.norm(args[0][0], args[0][1])) + "," + t.norm(args[1][0], args[1][1])
		}
		out = append(out, a)
	}
	return out
}

// isCallback reports whether an argument is supertest's end callback: a
// function literal or a conventionally named identifier.
func (t *tree) isCallback(a [2]int) bool {
	if a[1] == a[0]+1 && t.kind(a[0]) == tkIdent {
		return callbackNames[t.toks[a[0]].Text]
	}
	_, ok := t.fnAt(a[0], a[1])
	return ok
}

// expectValueStrength ranks what one .expect checks by its last argument: an
// exact status, body or header value is Strong; a regex, a function or an
// assertion helper's result is Medium. Only a lone argument can be a function,
// so a lone identifier or call counts as one; after a status or a header name
// it is the expected value.
func (t *tree) expectValueStrength(a [2]int, lone bool) testscan.Strength {
	from, to := a[0], a[1]
	if to == from+1 {
		switch t.kind(from) {
		case tkRegex:
			return testscan.Medium
		case tkNumber, tkString, tkTemplate:
			return testscan.Strong
		}
	}
	if _, ok := t.fnAt(from, to); ok {
		return testscan.Medium
	}
	if !lone || t.isConstant(from, to) || t.punct(from, "{") || t.punct(from, "[") || t.kind(from) == tkTemplateHead {
		return testscan.Strong
	}
	return testscan.Medium
}
