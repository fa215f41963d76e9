package collectors

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Parser reads one report format.
type Parser interface {
	// Format is the format's name, as New takes it.
	Format() string
	// Parse reads one report. name is the file name used in errors; it is
	// also recorded in Result.Sources. On error the Result is nil and the
	// error is a *ParseError.
	Parse(name string, r io.Reader) (*Result, error)
}

// The format names New accepts.
const (
	FormatGoTest       = "gotest"
	FormatJUnit        = "junit"
	FormatCoverProfile = "coverprofile"
	FormatLCOV         = "lcov"
	FormatCobertura    = "cobertura"
	FormatSARIF        = "sarif"
	FormatCheckstyle   = "checkstyle"
	FormatESLint       = "eslint"
	FormatGolangCI     = "golangci"
	FormatTSC          = "tsc"
	FormatCargoTest    = "cargotest"
	FormatMaven        = "maven"
	FormatGradle       = "gradle"
)

var parsers = map[string]Parser{
	FormatGoTest:       GoTest{},
	FormatJUnit:        JUnit{},
	FormatCoverProfile: CoverProfile{},
	FormatLCOV:         LCOV{},
	FormatCobertura:    Cobertura{},
	FormatSARIF:        SARIF{},
	FormatCheckstyle:   Checkstyle{},
	FormatESLint:       ESLint{},
	FormatGolangCI:     GolangCI{},
	FormatTSC:          TSC{},
	FormatCargoTest:    CargoTest{},
	FormatMaven:        Maven{},
	FormatGradle:       Gradle{},
}

// Compile-time checks that every format implements Parser.
var (
	_ Parser = GoTest{}
	_ Parser = JUnit{}
	_ Parser = CoverProfile{}
	_ Parser = LCOV{}
	_ Parser = Cobertura{}
	_ Parser = SARIF{}
	_ Parser = Checkstyle{}
	_ Parser = ESLint{}
	_ Parser = GolangCI{}
	_ Parser = TSC{}
	_ Parser = CargoTest{}
	_ Parser = Maven{}
	_ Parser = Gradle{}
)

// New returns the parser of a format by name (see Formats). Names are
// case-insensitive; an unknown name is an error that lists the known ones.
func New(format string) (Parser, error) {
	p, ok := parsers[strings.ToLower(strings.TrimSpace(format))]
	if !ok {
		return nil, fmt.Errorf("unknown report format %q (want one of %s)", format, strings.Join(Formats(), ", "))
	}
	return p, nil
}

// Formats lists the format names New accepts, sorted.
func Formats() []string {
	names := make([]string, 0, len(parsers))
	for n := range parsers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseError is the error of every parser: which format, which file, where and
// what is wrong. Line is 1-based and 0 when unknown; Offset is a byte offset,
// used by the JSON formats (whose reports are often one long line), and -1
// when unknown.
type ParseError struct {
	Format string
	File   string
	Line   int
	Offset int64
	Err    error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "parse %s %s: ", e.Format, e.File)
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	case e.Offset >= 0:
		fmt.Fprintf(&b, "offset %d: ", e.Offset)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// lineError builds a ParseError located at a line (0: unknown).
func lineError(format, file string, line int, err error) *ParseError {
	return &ParseError{Format: format, File: file, Line: line, Offset: -1, Err: err}
}

// offsetError builds a ParseError located at a byte offset.
func offsetError(format, file string, offset int64, err error) *ParseError {
	return &ParseError{Format: format, File: file, Offset: offset, Err: err}
}
