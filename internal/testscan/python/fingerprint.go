package python

import (
	"crypto/sha256"
	"encoding/hex"
)

// maxLiterals caps TestCase.Literals.
const maxLiterals = 64

// fpData is the material a test's fingerprint is hashed from.
type fpData struct {
	material []byte
	tokens   int
	literals []string
	scratch  []token
}

// hash returns the fingerprint, mixing in extra (a parametrize case id) so
// that each case of one function has its own.
func (f fpData) hash(extra string) string {
	h := sha256.New()
	h.Write(f.material)
	if extra != "" {
		h.Write([]byte("\x00["))
		h.Write([]byte(extra))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// fingerprintDef serializes a def's parameters and body as canonical tokens
// with the block structure, leaving out the function's name, comments, layout,
// a leading docstring and the parentheses and trailing commas formatters add or
// remove. It also counts the body's significant tokens (pass, ... and the
// docstring do not count) and collects its literals.
func fingerprintDef(def *stmt) fpData {
	f := fpData{material: make([]byte, 0, 512)}
	nameIdx := 1
	if def.tok(0) == "async" {
		nameIdx = 2
	}
	for i, t := range normalize(def.toks) {
		if i != nameIdx {
			f.material = append(f.material, t.text...)
			f.material = append(f.material, 0x1f)
		}
	}
	body := def.body
	if len(body) > 0 && isDocstring(body[0]) {
		body = body[1:]
	}
	f.writeBody(body, 0)
	return f
}

func (f *fpData) writeBody(body []*stmt, depth int) {
	f.material = append(f.material, '{')
	for _, s := range body {
		f.scratch = normalizeInto(f.scratch[:0], stripStatementParens(s.toks))
		toks := f.scratch
		filler := !s.header && len(toks) == 1 && (toks[0].text == "pass" || toks[0].text == "...")
		for _, t := range toks {
			f.material = append(f.material, t.text...)
			f.material = append(f.material, 0x1f)
		}
		f.literals = literalTexts(s.toks, f.literals, maxLiterals)
		if !filler {
			f.tokens += len(toks)
		}
		f.material = append(f.material, 0x1e)
		if s.header && depth < 200 {
			f.writeBody(s.body, depth+1)
		}
	}
	f.material = append(f.material, '}')
}

// isDocstring reports whether s is a bare string expression statement.
func isDocstring(s *stmt) bool {
	if s.header || len(s.toks) == 0 {
		return false
	}
	for _, t := range s.toks {
		if t.kind != tkString {
			return false
		}
	}
	return true
}
