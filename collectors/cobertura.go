package collectors

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
)

// Cobertura parses Cobertura XML, as coverage.py (coverage xml), istanbul's
// cobertura reporter (jest, nyc, c8, vitest) and gocover-cobertura write it:
//
//	<coverage line-rate="0.75" branch-rate="0.5" lines-covered="3" lines-valid="4" version="7.4">
//	  <sources><source>/src/project</source></sources>
//	  <packages><package name="calc" line-rate="0.75">
//	    <classes><class name="calc.py" filename="calc.py" line-rate="0.75">
//	      <methods/>
//	      <lines>
//	        <line number="1" hits="1"/>
//	        <line number="2" hits="0" branch="true" condition-coverage="50% (1/2)"/>
//	      </lines>
//	    </class></classes>
//	  </package></packages>
//	</coverage>
//
// Spec: the Cobertura DTD,
// https://github.com/cobertura/web/blob/master/htdocs/xml/coverage-04.dtd.
//
// Overall coverage is the root line-rate × 100, exactly as the file states
// it (Coverage.Stated); a root without line-rate falls back to the lines.
// Per-file lines come from <line number hits> directly under a class's
// <lines> (the copies under <methods> are not counted twice); a file split
// over several classes (gocover-cobertura writes one per type) keeps the
// larger count of a line listed twice. Paths are the class filename
// attributes as written, relative to the <source> directories.
type Cobertura struct{}

// Format returns "cobertura".
func (Cobertura) Format() string { return FormatCobertura }

// Parse reads one Cobertura XML document.
func (Cobertura) Parse(name string, r io.Reader) (*Result, error) {
	s := newXMLStream(FormatCobertura, name, r)
	root, err := s.root("coverage")
	if err != nil {
		return nil, err
	}
	cov := &Coverage{Files: map[string]*FileCoverage{}}
	if v, ok := attr(root, "line-rate"); ok {
		rate, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || rate < 0 || rate > 1 {
			return nil, s.errorf("<coverage> line-rate %q is not a number between 0 and 1", v)
		}
		pct := rate * 100
		cov.Stated = &pct
	}
	var file *FileCoverage
	for {
		tok, err := s.next()
		if err != nil {
			return nil, err
		}
		if _, ok := tok.(xml.EndElement); ok && len(s.stack) == 0 {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "class":
			fn, ok := attr(se, "filename")
			if !ok || fn == "" {
				return nil, s.errorf("<class> without a filename attribute")
			}
			file = cov.file(fn)
		case "methods":
			if err := s.skip(); err != nil {
				return nil, err
			}
		case "line":
			if file == nil || len(s.stack) < 3 || s.stack[len(s.stack)-2] != "lines" || s.stack[len(s.stack)-3] != "class" {
				return nil, s.errorf("<line> outside <class><lines>")
			}
			num, err := intAttr(s, se, "number")
			if err != nil {
				return nil, err
			}
			hits, err := intAttr(s, se, "hits")
			if err != nil {
				return nil, err
			}
			if num < 1 {
				return nil, s.errorf("<line> number %d is not positive", num)
			}
			file.lines.add(int(num), hits, false)
		}
	}
	if err := s.end(); err != nil {
		return nil, err
	}
	for _, f := range cov.Files {
		f.lines.compact()
	}
	return &Result{Sources: []string{name}, Coverage: cov}, nil
}

func intAttr(s *xmlStream, se xml.StartElement, name string) (int64, error) {
	v, ok := attr(se, name)
	if !ok {
		return 0, s.errorf("<%s> without a %s attribute", se.Name.Local, name)
	}
	n, err := atoiPos([]byte(strings.TrimSpace(v)), name)
	if err != nil {
		return 0, s.errorf("<%s> %v", se.Name.Local, err)
	}
	return n, nil
}
