package python

// stmt is one statement of the block tree. A compound statement (def, class, if,
// for, with, try...) is a header whose body holds the statements of its block,
// whether written on the following indented lines or after the colon.
type stmt struct {
	toks    []token // significant tokens; for a header, those before its ':'
	header  bool
	deco    bool    // a decorator line, before it is attached to its def/class
	body    []*stmt // the block of a header
	decos   []*stmt // decorators of a def or class
	line    int     // line of the first token (decorators excluded)
	endLine int     // last line of the statement including its body
	col     int
	// lastTok is the index in the file's token slice of the last token of the
	// statement including its body, used to find trailing comments.
	lastTok int
}

// tok returns the text of the i-th token, "" past the end.
func (s *stmt) tok(i int) string {
	if i < len(s.toks) {
		return s.toks[i].text
	}
	return ""
}

// keyword is the statement's leading keyword, with "async" skipped.
func (s *stmt) keyword() string {
	if s.tok(0) == "async" {
		return s.tok(1)
	}
	return s.tok(0)
}

// isDef reports whether s is a function definition (def or async def).
func (s *stmt) isDef() bool { return s.header && s.keyword() == "def" }

// isClass reports whether s is a class definition.
func (s *stmt) isClass() bool { return s.header && s.tok(0) == "class" }

// defName is the name a def or class statement binds, "" when missing.
func (s *stmt) defName() string {
	i := 1
	if s.tok(0) == "async" {
		i = 2
	}
	if i < len(s.toks) && s.toks[i].kind == tkName {
		return s.toks[i].text
	}
	return ""
}

// defParams are the names of a def's parameters, in order (`self`, `*args`
// and `**kw` read as self, args and kw; defaults and annotations left out).
func (s *stmt) defParams() []string {
	i := 2 // after `def name`
	if s.tok(0) == "async" {
		i = 3
	}
	if i >= len(s.toks) || !isOp(s.toks[i], "(") {
		return nil
	}
	close := matchClose(s.toks, i)
	if close <= i {
		return nil
	}
	var out []string
	for _, p := range splitTop(s.toks[i+1:close], ",") {
		for _, t := range p {
			if t.kind == tkName {
				out = append(out, t.text)
				break
			}
			if !isOp(t, "*") && !isOp(t, "**") {
				break // a bare `*` or `/` marker
			}
		}
	}
	return out
}

// startLine is the first line of the statement, decorators included.
func (s *stmt) startLine() int {
	if len(s.decos) > 0 {
		return s.decos[0].line
	}
	return s.line
}

var compoundKeywords = map[string]bool{
	"if": true, "elif": true, "else": true, "for": true, "while": true, "try": true,
	"except": true, "finally": true, "with": true, "def": true, "class": true,
}

// buildTree groups the tokens' logical lines into a block tree. Indentation
// that no header asked for (a fragment starting inside a block) is folded into
// the enclosing block; decorators that decorate nothing are dropped. Both set
// the returned partial flag.
func buildTree(toks []token) (*stmt, bool) {
	type frame struct {
		depth int
		s     *stmt
	}
	root := &stmt{header: true}
	stack := []frame{{-1, root}}
	partial := false
	depth := 0
	var pending []*stmt
	for i := 0; i < len(toks); {
		switch toks[i].kind {
		case tkIndent:
			depth++
			i++
			continue
		case tkDedent:
			if depth > 0 {
				depth--
			}
			i++
			continue
		case tkNewline:
			i++
			continue
		}
		start := i
		for i < len(toks) && toks[i].kind != tkNewline && toks[i].kind != tkIndent && toks[i].kind != tkDedent {
			i++
		}
		ss, bad := splitLine(toks[start:i], start)
		if bad {
			partial = true
		}
		for len(stack) > 1 && stack[len(stack)-1].depth >= depth {
			stack = stack[:len(stack)-1]
		}
		for _, s := range ss {
			if s.deco {
				pending = append(pending, s)
				continue
			}
			if len(pending) > 0 {
				if s.isDef() || s.isClass() {
					s.decos = pending
				} else {
					partial = true
				}
				pending = nil
			}
			parent := stack[len(stack)-1].s
			parent.body = append(parent.body, s)
			if s.header && len(s.body) == 0 {
				stack = append(stack, frame{depth, s})
			}
		}
	}
	if len(pending) > 0 {
		partial = true
	}
	finish(root)
	return root, partial
}

// finish computes endLine and lastTok bottom-up.
func finish(s *stmt) {
	for _, c := range s.body {
		finish(c)
	}
	if n := len(s.toks); n > 0 {
		s.endLine = s.toks[n-1].lastLine()
	}
	if n := len(s.body); n > 0 {
		last := s.body[n-1]
		if last.endLine > s.endLine {
			s.endLine = last.endLine
		}
		if last.lastTok > s.lastTok {
			s.lastTok = last.lastTok
		}
	}
}

// splitLine turns one logical line into statements: a decorator, a compound
// header (with its inline body, if any), or simple statements separated by ';'.
// base is the index of line[0] in the file's tokens. The flag reports a header
// without its colon.
func splitLine(line []token, base int) ([]*stmt, bool) {
	if len(line) == 0 {
		return nil, false
	}
	mk := func(toks []token, last int) *stmt {
		return &stmt{toks: toks, line: int(toks[0].line), col: int(toks[0].col), lastTok: last}
	}
	if line[0].text == "@" && line[0].kind == tkOp {
		s := mk(line, base+len(line)-1)
		s.deco = true
		return []*stmt{s}, false
	}
	if isCompound(line) {
		c := headerColon(line)
		if c < 0 {
			s := mk(line, base+len(line)-1)
			s.header = true
			return []*stmt{s}, true
		}
		h := mk(line[:max(c, 1)], base+len(line)-1)
		h.header = true
		bad := false
		if c+1 < len(line) {
			h.body, bad = splitSimple(line[c+1:], base+c+1)
		}
		return []*stmt{h}, bad
	}
	return splitSimple(line, base)
}

// splitSimple splits simple statements at top-level semicolons.
func splitSimple(toks []token, base int) ([]*stmt, bool) {
	var out []*stmt
	bad := false
	depth, start := 0, 0
	flush := func(end int) {
		if end <= start {
			return
		}
		if isCompound(toks[start:end]) {
			// "if x: a; b" reaches here only as an inline body; a nested compound
			// statement there is a syntax error, kept as a header anyway.
			bad = true
		}
		ss, b := splitLine(toks[start:end], base+start)
		if b {
			bad = true
		}
		for _, s := range ss {
			if !s.deco {
				out = append(out, s)
			}
		}
	}
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth > 0 {
				depth--
			}
		case ";":
			if depth == 0 {
				flush(i)
				start = i + 1
			}
		}
	}
	if start == 0 && !isCompound(toks) {
		s := &stmt{toks: toks, line: int(toks[0].line), col: int(toks[0].col), lastTok: base + len(toks) - 1}
		return []*stmt{s}, false
	}
	flush(len(toks))
	return out, bad
}

// isCompound reports whether the logical line starts a compound statement,
// including the soft keywords match and case.
func isCompound(line []token) bool {
	if line[0].kind != tkName {
		return false
	}
	w := line[0].text
	if compoundKeywords[w] {
		return true
	}
	if w == "async" && len(line) > 1 {
		n := line[1].text
		return n == "def" || n == "for" || n == "with"
	}
	if (w == "match" || w == "case") && len(line) > 2 {
		n := line[1]
		ok := n.kind == tkName || n.kind == tkNumber || n.kind == tkString ||
			(n.kind == tkOp && (n.text == "(" || n.text == "[" || n.text == "{" || n.text == "-" || n.text == "*"))
		if !ok || headerColon(line) < 0 {
			return false
		}
		if w == "match" {
			return line[len(line)-1].text == ":"
		}
		return true
	}
	return false
}

// headerColon finds the ':' that ends a compound statement's header: the first
// one outside brackets that does not belong to a lambda.
func headerColon(line []token) int {
	depth, lambdas := 0, 0
	for i, t := range line {
		switch t.kind {
		case tkName:
			if t.text == "lambda" && depth == 0 {
				lambdas++
			}
		case tkOp:
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			case ":":
				if depth == 0 {
					if lambdas > 0 {
						lambdas--
						continue
					}
					return i
				}
			}
		}
	}
	return -1
}

// walk calls fn for s's body statements and their bodies, depth first in source
// order. fn returns false to skip a statement's body.
func walk(body []*stmt, fn func(s *stmt) bool) {
	for _, s := range body {
		if fn(s) {
			walk(s.body, fn)
		}
	}
}
