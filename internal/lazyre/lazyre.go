// Package lazyre holds regular expressions that are compiled on first use
// rather than when the program starts. A package-level regexp.MustCompile
// runs in every process, whatever it does: the binary's hundred-odd
// patterns (CI readers, collectors, mutators) cost several milliseconds of
// every `analyze C^ C`, most of them for patterns that process never uses.
//
// A pattern that does not compile panics on first use, as MustCompile
// would at start; CompileAll compiles every pattern made so far, for a
// test that imports the packages declaring them.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled the first time it is used. Its
// methods are those of regexp.Regexp and safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*Regexp
)

// New returns expr, to be compiled on first use.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// CompileAll compiles every pattern New has made and returns the
// expression of the first that does not compile, "" when all do.
func CompileAll() (bad string, err error) {
	mu.Lock()
	list := append([]*Regexp(nil), all...)
	mu.Unlock()
	for _, r := range list {
		if _, err := regexp.Compile(r.expr); err != nil {
			return r.expr, err
		}
	}
	return "", nil
}

// Get returns the compiled expression.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool { return r.Get().MatchString(s) }
func (r *Regexp) Match(b []byte) bool       { return r.Get().Match(b) }

func (r *Regexp) FindString(s string) string     { return r.Get().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int { return r.Get().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Get().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Get().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.Get().FindAllString(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Get().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Get().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Get().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) Find(b []byte) []byte                 { return r.Get().Find(b) }
func (r *Regexp) FindIndex(b []byte) []int             { return r.Get().FindIndex(b) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte       { return r.Get().FindSubmatch(b) }
func (r *Regexp) FindAll(b []byte, n int) [][]byte     { return r.Get().FindAll(b, n) }
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Get().FindAllIndex(b, n) }
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.Get().FindAllSubmatch(b, n)
}
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Get().FindAllSubmatchIndex(b, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Get().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Get().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Get().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.Get().ReplaceAll(src, repl) }
func (r *Regexp) Split(s string, n int) []string     { return r.Get().Split(s, n) }
func (r *Regexp) SubexpNames() []string              { return r.Get().SubexpNames() }
func (r *Regexp) SubexpIndex(name string) int        { return r.Get().SubexpIndex(name) }
func (r *Regexp) NumSubexp() int                     { return r.Get().NumSubexp() }
