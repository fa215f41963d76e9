package collectors

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// jsonStream walks a JSON document with encoding/json's Decoder: objects key
// by key and arrays element by element, so no format holds more than one
// element (one file's messages, one run) at a time. Errors carry a byte
// offset, which is more useful than a line for the one-line documents most
// tools write.
type jsonStream struct {
	d      *json.Decoder
	format string
	name   string
}

func newJSONStream(format, name string, r io.Reader) *jsonStream {
	d := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	return &jsonStream{d: d, format: format, name: name}
}

func (j *jsonStream) errorf(format string, args ...any) *ParseError {
	return offsetError(j.format, j.name, j.d.InputOffset(), fmt.Errorf(format, args...))
}

// wrap turns a decoding error into a ParseError at its offset.
func (j *jsonStream) wrap(err error, what string) *ParseError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return j.errorf("unexpected end of input in %s (truncated?)", what)
	case errors.As(err, &se):
		return offsetError(j.format, j.name, se.Offset, fmt.Errorf("%s: %v", what, se))
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = what
		}
		return offsetError(j.format, j.name, te.Offset, fmt.Errorf("%s: %s is a JSON %s, want %s", what, field, te.Value, te.Type))
	}
	return j.errorf("%s: %v", what, err)
}

// delim reads the opening or closing delimiter want.
func (j *jsonStream) delim(want json.Delim, what string) error {
	tok, err := j.d.Token()
	if err != nil {
		return j.wrap(err, what)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return j.errorf("%s: got %s, want %q", what, tokenKind(tok), string(want))
	}
	return nil
}

// key reads the next key of an object, or reports its end (and consumes the
// closing brace).
func (j *jsonStream) key(what string) (key string, end bool, err error) {
	tok, err := j.d.Token()
	if err != nil {
		return "", false, j.wrap(err, what)
	}
	switch t := tok.(type) {
	case string:
		return t, false, nil
	case json.Delim:
		if t == '}' {
			return "", true, nil
		}
	}
	return "", false, j.errorf("%s: got %s, want a key", what, tokenKind(tok))
}

// skip discards the next value.
func (j *jsonStream) skip(what string) error {
	var v json.RawMessage
	if err := j.d.Decode(&v); err != nil {
		return j.wrap(err, what)
	}
	return nil
}

// decode reads the next value into v.
func (j *jsonStream) decode(v any, what string) error {
	if err := j.d.Decode(v); err != nil {
		return j.wrap(err, what)
	}
	return nil
}

// eof checks that nothing but white space follows the document.
func (j *jsonStream) eof() error {
	if _, err := j.d.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return j.wrap(err, "after the document")
		}
		return j.errorf("unexpected data after the document")
	}
	return nil
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", string(t))
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a value"
}
