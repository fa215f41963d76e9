package collectors

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// xmlStream walks an XML document token by token with encoding/xml's
// Decoder, checking that elements nest and close properly, so the XML
// formats never hold a document in memory and report every problem with its
// line and the element it is inside.
type xmlStream struct {
	d      *xml.Decoder
	format string
	name   string
	stack  []string
}

func newXMLStream(format, name string, r io.Reader) *xmlStream {
	d := xml.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	d.Strict = true
	d.CharsetReader = charsetReader
	return &xmlStream{d: d, format: format, name: name}
}

// charsetReader accepts the encodings real reports declare: UTF-8 and its
// ASCII subset as they are, ISO-8859-1 decoded byte by byte.
func charsetReader(charset string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return r, nil
	case "iso-8859-1", "latin1", "latin-1":
		return &latin1Reader{r: bufio.NewReader(r)}, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", charset)
}

type latin1Reader struct {
	r       *bufio.Reader
	pending []byte
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.pending) > 0 {
			c := copy(p[n:], l.pending)
			l.pending = l.pending[c:]
			n += c
			continue
		}
		b, err := l.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b < 0x80 {
			p[n] = b
			n++
			continue
		}
		l.pending = []byte(string(rune(b)))
	}
	return n, nil
}

// next returns the next start element, end element or character data,
// skipping comments, processing instructions and directives. CharData is
// only valid until the following call. At the end of the document it
// returns io.EOF; the end of input inside an element is an error.
func (s *xmlStream) next() (xml.Token, error) {
	for {
		tok, err := s.d.RawToken()
		if errors.Is(err, io.EOF) {
			if len(s.stack) > 0 {
				return nil, s.errorf("unexpected EOF inside <%s>", s.stack[len(s.stack)-1])
			}
			return nil, io.EOF
		}
		if err != nil {
			return nil, s.wrap(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			s.stack = append(s.stack, t.Name.Local)
			return t, nil
		case xml.EndElement:
			if len(s.stack) == 0 || s.stack[len(s.stack)-1] != t.Name.Local {
				return nil, s.errorf("unexpected </%s>%s", t.Name.Local, s.inside())
			}
			s.stack = s.stack[:len(s.stack)-1]
			return t, nil
		case xml.CharData:
			if len(s.stack) == 0 {
				if len(strings.TrimSpace(string(t))) > 0 {
					return nil, s.errorf("text outside the root element")
				}
				continue
			}
			return t, nil
		}
	}
}

// root reads up to the root element and checks its name.
func (s *xmlStream) root(want ...string) (xml.StartElement, error) {
	tok, err := s.next()
	if errors.Is(err, io.EOF) {
		return xml.StartElement{}, s.errorf("empty document, want <%s>", strings.Join(want, "> or <"))
	}
	if err != nil {
		return xml.StartElement{}, err
	}
	se, ok := tok.(xml.StartElement)
	if ok {
		for _, w := range want {
			if se.Name.Local == w {
				return se, nil
			}
		}
	}
	return xml.StartElement{}, s.errorf("root element is %s, want <%s>", describe(tok), strings.Join(want, "> or <"))
}

// end checks that nothing but comments and space follows the root element.
func (s *xmlStream) end() error {
	tok, err := s.next()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.errorf("unexpected %s after the root element", describe(tok))
}

// skip consumes the rest of the element whose start was just read.
func (s *xmlStream) skip() error {
	depth := len(s.stack)
	for {
		if _, err := s.next(); err != nil {
			return err
		}
		if len(s.stack) < depth {
			return nil
		}
	}
}

// text consumes the rest of the element whose start was just read and
// returns its text, nested elements included, keeping at most
// MaxMessageBytes of it.
func (s *xmlStream) text() (string, error) {
	depth := len(s.stack)
	var m messageBuf
	for {
		tok, err := s.next()
		if err != nil {
			return "", err
		}
		if cd, ok := tok.(xml.CharData); ok {
			m.write(string(cd))
		}
		if len(s.stack) < depth {
			return m.String(), nil
		}
	}
}

func (s *xmlStream) line() int {
	line, _ := s.d.InputPos()
	return line
}

func (s *xmlStream) inside() string {
	if len(s.stack) == 0 {
		return ""
	}
	return " inside <" + s.stack[len(s.stack)-1] + ">"
}

func (s *xmlStream) errorf(format string, args ...any) *ParseError {
	return lineError(s.format, s.name, s.line(), fmt.Errorf(format, args...))
}

func (s *xmlStream) wrap(err error) *ParseError {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg := se.Msg
		if msg == "unexpected EOF" && len(s.stack) > 0 {
			msg += s.inside()
		}
		return lineError(s.format, s.name, se.Line, errors.New(msg))
	}
	return lineError(s.format, s.name, s.line(), err)
}

func describe(tok xml.Token) string {
	switch t := tok.(type) {
	case xml.StartElement:
		return "<" + t.Name.Local + ">"
	case xml.EndElement:
		return "</" + t.Name.Local + ">"
	case xml.CharData:
		return "text"
	}
	return "a token"
}

// attr returns the value of the attribute with the local name, and whether
// it is present.
func attr(se xml.StartElement, local string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}
