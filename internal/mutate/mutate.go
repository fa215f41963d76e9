// Package mutate makes the mutants of diff-based mutation testing: for the
// lines a change added or edited, at most one small, deliberate break per
// line (a relational operator moved across its boundary, a condition
// negated, an arithmetic operator swapped, a result replaced by its zero
// value, a statement or call removed), chosen the same way every time.
// A test suite that still passes with a mutant in place does not pin the
// line the mutant changed.
//
// Lines whose breakage no reviewer would act on (logging, error wrapping,
// defers, simple field returns) are arid and get no mutant; each language
// has its own table, and the configuration can add patterns.
//
// A language is one file: a Mutator registered in languages.
package mutate

import (
	"bytes"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Mutant is one mutated version of a file.
type Mutant struct {
	// File is the file's path in the repository.
	File string `json:"file"`
	// Line is the mutated line's number (1-based).
	Line int `json:"line"`
	// Operator names the mutation: "boundary", "relational",
	// "negate-condition", "logical", "arithmetic", "zero-return",
	// "remove-statement", "increment".
	Operator string `json:"operator"`
	// Original and Mutated are the line's text before and after, trimmed.
	Original string `json:"original"`
	Mutated  string `json:"mutated"`
	// Src is the whole mutated file.
	Src []byte `json:"-"`
}

// Arid decides which lines get no mutant. Extra are patterns the
// configuration adds; a line whose trimmed text matches one is arid, as
// are the lines a language's own table calls arid.
type Arid struct {
	Extra []*regexp.Regexp
}

// Matches reports whether a trimmed line matches one of the extra
// patterns.
func (a *Arid) Matches(line string) bool {
	if a == nil {
		return false
	}
	for _, re := range a.Extra {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// Mutator makes the mutants of one language.
type Mutator interface {
	// Name is the language's name ("go", "python", "javascript").
	Name() string
	// Handles reports whether the mutator reads the file at path p (by its
	// extension).
	Handles(p string) bool
	// Mutants returns at most one mutant for each of lines (1-based line
	// numbers of src), skipping arid lines, in line order. The choice is
	// deterministic: the same src and lines give the same mutants. A file
	// that does not parse gives none and an error.
	Mutants(p string, src []byte, lines []int, arid *Arid) ([]Mutant, error)
}

var languages []Mutator

func register(m Mutator) { languages = append(languages, m) }

// For returns the mutator of the file at p; nil when no language reads it
// (or p is a test file, which a mutator never touches: see the callers).
func For(p string) Mutator {
	for _, m := range languages {
		if m.Handles(p) {
			return m
		}
	}
	return nil
}

// Languages names the languages with a mutator, sorted.
func Languages() []string {
	var out []string
	for _, m := range languages {
		out = append(out, m.Name())
	}
	sort.Strings(out)
	return out
}

// lineSet is lines as a set.
func lineSet(lines []int) map[int]bool {
	s := make(map[int]bool, len(lines))
	for _, l := range lines {
		s[l] = true
	}
	return s
}

// lineText is the trimmed text of line n (1-based) of src.
func lineText(src []byte, n int) string {
	start := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src[start:], '\n')
		if j < 0 {
			return ""
		}
		start += j + 1
	}
	end := bytes.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src) - start
	}
	return strings.TrimSpace(string(src[start : start+end]))
}

// splice returns src with src[from:to] replaced by with, and the mutant
// for it on line n.
func splice(p string, src []byte, n, from, to int, with, op string) Mutant {
	out := make([]byte, 0, len(src)-(to-from)+len(with))
	out = append(out, src[:from]...)
	out = append(out, with...)
	out = append(out, src[to:]...)
	return Mutant{File: p, Line: n, Operator: op, Original: lineText(src, n), Mutated: lineText(out, n), Src: out}
}

// ext is p's extension, lowercased.
func ext(p string) string { return strings.ToLower(path.Ext(p)) }
