package golang

import (
	"go/ast"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// tests reads the test functions, examples and suite methods of a unit into
// ctx.roots.
func (ctx *fileCtx) tests(u *unit) {
	for _, d := range u.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if n := ctx.testFunc(u, fd); n != nil {
			ctx.roots = append(ctx.roots, n)
		} else {
			ctx.helperFunc(u, fd)
		}
	}
}

// flattenAll gives ids to the test trees read and lists their test cases.
func (ctx *fileCtx) flattenAll() {
	count := 0
	for _, n := range ctx.roots {
		count += n.size()
	}
	if count > 0 {
		ctx.out.Tests = make([]testscan.TestCase, 0, count)
	}
	for _, n := range ctx.roots {
		ctx.flatten(n, "", nil, false, nil)
	}
}

// size is the number of nodes in the tree of n.
func (n *node) size() int {
	s := 1
	for _, c := range n.children {
		s += c.size()
	}
	return s
}

// testFunc reads one function declaration if `go test` runs it.
func (ctx *fileCtx) testFunc(u *unit, fd *ast.FuncDecl) *node {
	name := fd.Name.Name
	params := fd.Type.Params.NumFields()
	results := fd.Type.Results.NumFields()
	var output *ast.CommentGroup
	id, suiteRecv := name, ""
	switch {
	case fd.Recv != nil:
		if !isTestName(name, "Test") || results != 0 || len(fd.Recv.List) != 1 {
			return nil
		}
		if params > 1 || (params == 1 && testingParamKind(fd.Type.Params.List[0].Type) != "C") {
			return nil
		}
		recv := recvTypeName(fd.Recv.List[0].Type)
		if recv == "" {
			return nil
		}
		id = recv + "." + name
		if names := fd.Recv.List[0].Names; len(names) == 1 {
			suiteRecv = names[0].Name
		}
	case isTestName(name, "Test") && name != "TestMain":
		if params != 1 || testingParamKind(fd.Type.Params.List[0].Type) != "T" {
			return nil
		}
	case isTestName(name, "Fuzz"):
		if params != 1 || testingParamKind(fd.Type.Params.List[0].Type) != "F" {
			return nil
		}
	case isTestName(name, "Example"):
		if params != 0 || results != 0 {
			return nil
		}
		if output = exampleOutput(u, fd.Body); output == nil {
			return nil
		}
	default:
		return nil
	}
	e := newEnv(ctx, u, fd.Body)
	e.suiteRecv = suiteRecv
	e.addParams(fd.Type)
	e.marks.startFunc(fd)
	n := &node{
		name:    id,
		line:    u.line(fd.Pos()),
		endLine: u.endLine(fd),
		runLine: u.line(fd.Pos()),
	}
	e.walk(fd.Body, n)
	e.marks.endFunc(fd)
	e.skips(fd.Body, n)
	h := ctx.hash.reset()
	seq := u.bodySeq(fd.Body)
	h.add(seq)
	n.literals = seq.literals(nil)
	if output != nil {
		text, unordered := outputText(output)
		kind := "example.Output"
		if unordered {
			kind = "example.UnorderedOutput"
		}
		h.addText(kind)
		h.addText(text)
		n.asserts = append(n.asserts, testscan.Assertion{
			Line: u.line(output.Pos()), Kind: kind, Strength: testscan.Strong, Expected: text,
		})
	}
	n.fingerprint, n.tokens = h.sum(), h.tokens
	return n
}

// exampleOutput is the last comment group of an example body when it is an
// "Output:" or "Unordered output:" comment, which makes `go test` run it.
func exampleOutput(u *unit, body *ast.BlockStmt) *ast.CommentGroup {
	var last *ast.CommentGroup
	for _, g := range u.file.Comments {
		if g.Pos() > body.Lbrace && g.End() <= body.Rbrace {
			last = g
		}
	}
	if last == nil {
		return nil
	}
	if _, _, ok := parseOutput(last.Text()); !ok {
		return nil
	}
	return last
}

func outputText(g *ast.CommentGroup) (string, bool) {
	text, unordered, _ := parseOutput(g.Text())
	return text, unordered
}

// parseOutput reads the text of an output comment, with each line trimmed.
func parseOutput(text string) (out string, unordered, ok bool) {
	t := strings.TrimSpace(text)
	lower := strings.ToLower(t)
	switch {
	case strings.HasPrefix(lower, "output:"):
		t = t[len("output:"):]
	case strings.HasPrefix(lower, "unordered output:"):
		t, unordered = t[len("unordered output:"):], true
	default:
		return "", false, false
	}
	lines := strings.Split(strings.TrimSpace(t), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n"), unordered, true
}

// flatten gives ids to a test tree and appends its test cases. A parent is a
// test case itself only when it has no subtests or asserts outside them; a skip
// in a parent applies to the subtests that start after it.
func (ctx *fileCtx) flatten(n *node, parentID string, inherited *testscan.Skip, parentDynamic bool, parentCalls []testscan.Call) {
	var id, name string
	switch {
	case parentID == "":
		id = ctx.names.unique("", n.name)[1:]
		name = id
		if i := strings.LastIndexByte(id, '.'); i >= 0 {
			name = id[i+1:]
		}
	case n.dynamic:
		id = ctx.names.unique(parentID, "*")
		if id != parentID+"/*" {
			id += "*"
		}
		name = id[len(parentID)+1:]
	default:
		id = ctx.names.unique(parentID, n.name)
		name = id[len(parentID)+1:]
	}
	skip := n.skip
	if skip == nil && inherited != nil && inherited.Line <= n.runLine {
		s := *inherited
		skip = &s
	}
	dynamic := n.dynamic || parentDynamic
	calls := n.calls
	if len(parentCalls) > 0 {
		calls = parentCalls
		if len(n.calls) > 0 {
			calls = append([]testscan.Call(nil), parentCalls...)
			for _, c := range n.calls {
				calls = testscan.AddCalls(calls, c.Name, c.Sites)
			}
		}
	}
	if len(n.children) == 0 || len(n.asserts) > 0 {
		ctx.out.Tests = append(ctx.out.Tests, testscan.TestCase{
			ID:                  id,
			Name:                name,
			Line:                n.line,
			EndLine:             max(n.endLine, n.line),
			Skip:                skip,
			Dynamic:             dynamic,
			Assertions:          n.asserts,
			CommentedAssertions: n.commented,
			Fingerprint:         n.fingerprint,
			BodyTokens:          n.tokens,
			Literals:            n.literals,
			NameLiteral:         n.nameLit,
			Calls:               calls,
			Detached:            testscan.OnlyDetached(n.detached, calls),
		})
	}
	for _, c := range n.children {
		ctx.flatten(c, id, skip, dynamic, calls)
	}
}
