package golang

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// unit is one parsed piece of a file: the whole file when it parses, otherwise one
// top-level declaration (or a run of loose statements) of a fragment.
type unit struct {
	tf   *token.File
	file *ast.File
	// src is the buffer that was parsed; positions of file index into it.
	src []byte
	// lineDelta maps a line of the unit to a line of src, and lines (nil
	// when src is not masked) a line of src to one of the original file.
	lineDelta int
	lines     testscan.LineMap
	// loose is set for statements that belong to no declaration of the fragment:
	// they are wrapped in a dummy function and yield markers only.
	loose bool
	// synthetic is set when the package clause was made up for a fragment piece.
	synthetic bool
	// comments are file.Comments flattened, in source order.
	comments []*ast.Comment
	// segStarts are the offsets where the segments of src start (see
	// segmentAt); segs are the segments scanned so far.
	segStarts []int
	segs      []*source
	scratch   *scratch // where segments take their memory from
}

const parseMode = parser.ParseComments | parser.SkipObjectResolution

// parseWhole parses src as one file. It returns nil when src has a syntax error.
func parseWhole(src []byte) *unit {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parseMode)
	if err != nil || f == nil {
		return nil
	}
	return newUnit(fset, f, src, 0, false)
}

func newUnit(fset *token.FileSet, f *ast.File, src []byte, delta int, loose bool) *unit {
	u := &unit{tf: fset.File(f.FileStart), file: f, src: src, lineDelta: delta, loose: loose}
	if u.tf == nil {
		return nil
	}
	for _, g := range f.Comments {
		u.comments = append(u.comments, g.List...)
	}
	return u
}

// line is the 1-based line of p in the original file.
func (u *unit) line(p token.Pos) int {
	if !p.IsValid() || int(p) < u.tf.Base() || int(p) > u.tf.Base()+u.tf.Size() {
		return 0
	}
	l := u.tf.PositionFor(p, false).Line + u.lineDelta
	if u.lines != nil {
		l = u.lines.Line(l)
	}
	return l
}

// endLine is the line of the last character of n.
func (u *unit) endLine(n ast.Node) int {
	end := n.End()
	if end > n.Pos() {
		end--
	}
	return u.line(end)
}

// off is the byte offset of p in u.src, clamped to the buffer.
func (u *unit) off(p token.Pos) int {
	o := int(p) - u.tf.Base()
	if o < 0 {
		return 0
	}
	if o > len(u.src) {
		return len(u.src)
	}
	return o
}

// text is the normalized token text of n (see tokenSeq.join).
func (u *unit) text(n ast.Node) string {
	if n == nil {
		return ""
	}
	return u.span(n).join()
}

// parseFragment cuts src at every top-level declaration keyword that starts a line
// and parses each piece with its brackets balanced.
func parseFragment(src []byte) []*unit {
	toks := scanAll(src)
	var cuts []int
	for _, t := range toks {
		switch t.tok {
		case token.PACKAGE, token.IMPORT, token.FUNC, token.TYPE, token.VAR, token.CONST:
			if t.off == 0 || src[t.off-1] == '\n' {
				cuts = append(cuts, t.off)
			}
		}
	}
	var units []*unit
	ti := 0
	piece := func(start, end int, leading bool) {
		from := ti
		for ti < len(toks) && toks[ti].off < end {
			ti++
		}
		if from == ti {
			return
		}
		line := 1 + bytes.Count(src[:start], []byte{'\n'})
		if u := parsePiece(src[start:end], line, leading); u != nil {
			units = append(units, u)
		}
	}
	bounds := append([]int{0}, cuts...)
	bounds = append(bounds, len(src))
	for i := 0; i+1 < len(bounds); i++ {
		if bounds[i] < bounds[i+1] {
			piece(bounds[i], bounds[i+1], i == 0)
		}
	}
	return units
}

// maxRepairs bounds how many lines with syntax errors parsePiece blanks out.
const maxRepairs = 8

// parsePiece parses one piece of a fragment. leading marks the statements before
// the first declaration keyword. A line the parser reports an error on is blanked
// out and the piece parsed again, so one bad line does not hide the statements
// after it.
func parsePiece(text []byte, line int, leading bool) *unit {
	text = append([]byte(nil), text...)
	toks := scanAll(text)
	if len(toks) == 0 {
		return nil
	}
	var prefix, suffix string
	switch {
	case leading:
		prefix, suffix = "package p;func _(){", "\n}"
	case toks[0].tok != token.PACKAGE:
		prefix = "package p;"
	}
	var u *unit
	for attempt := 0; attempt <= maxRepairs; attempt++ {
		buf := make([]byte, 0, len(prefix)+len(text)+len(suffix)+8)
		buf = append(buf, prefix...)
		buf = append(buf, balance(text, toks)...)
		buf = append(buf, suffix...)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", buf, parseMode|parser.AllErrors)
		if f == nil {
			return u
		}
		u = newUnit(fset, f, buf, line-1, leading)
		if u == nil {
			return nil
		}
		u.synthetic = prefix != ""
		var list scanner.ErrorList
		if !errors.As(err, &list) || len(list) == 0 || !blankLine(text, list[0].Pos.Line) {
			return u
		}
		toks = scanAll(text)
	}
	return u
}

// blankLine replaces the characters of a 1-based line of text with spaces. It
// reports false when there is nothing left to blank.
func blankLine(text []byte, line int) bool {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(text[start:], '\n')
		if i < 0 {
			return false
		}
		start += i + 1
	}
	changed := false
	for i := start; i < len(text) && text[i] != '\n'; i++ {
		if text[i] != ' ' {
			text[i] = ' '
			changed = true
		}
	}
	return changed
}

// scanned is one token of a fragment.
type scanned struct {
	off int
	tok token.Token
}

func scanAll(src []byte) []scanned {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, func(token.Position, string) {}, 0)
	var out []scanned
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.SEMICOLON {
			continue
		}
		out = append(out, scanned{off: f.Offset(pos), tok: tok})
	}
}

// balance returns text with unmatched closing brackets blanked out, missing closing
// brackets inserted where an outer bracket closes, and still-open brackets closed at
// the end. A brace that starts its line is matched by indentation (the code is
// assumed gofmt-ed): one indented deeper than every open brace closes a block
// whose opening line is hidden. Newlines are kept, so lines do not move.
func balance(text []byte, toks []scanned) []byte {
	type opener struct {
		tok    token.Token
		indent int
	}
	out := make([]byte, 0, len(text)+8)
	var stack []opener
	last := 0
	for _, t := range toks {
		var open token.Token
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			ind, _ := indentAt(text, t.off)
			stack = append(stack, opener{t.tok, ind})
			continue
		case token.RPAREN:
			open = token.LPAREN
		case token.RBRACK:
			open = token.LBRACK
		case token.RBRACE:
			open = token.LBRACE
		default:
			continue
		}
		depth := -1
		ind, first := indentAt(text, t.off)
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].tok != open {
				continue
			}
			if open == token.LBRACE && first && stack[i].indent > ind {
				continue
			}
			if !(open == token.LBRACE && first && stack[i].indent < ind) {
				depth = i
			}
			break
		}
		out = append(out, text[last:t.off]...)
		last = t.off + 1
		if depth < 0 {
			out = append(out, ' ')
			continue
		}
		for i := len(stack) - 1; i > depth; i-- {
			out = append(out, closer(stack[i].tok))
		}
		out = append(out, text[t.off])
		stack = stack[:depth]
	}
	out = append(out, text[last:]...)
	if len(stack) > 0 {
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		for i := len(stack) - 1; i >= 0; i-- {
			out = append(out, closer(stack[i].tok))
		}
	}
	return out
}

// indentAt is the indentation of the line holding offset off, and whether the
// character at off is the first non-blank one of its line.
func indentAt(text []byte, off int) (indent int, first bool) {
	start := bytes.LastIndexByte(text[:off], '\n') + 1
	i := start
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i - start, i == off
}

func closer(open token.Token) byte {
	switch open {
	case token.LPAREN:
		return ')'
	case token.LBRACK:
		return ']'
	}
	return '}'
}
