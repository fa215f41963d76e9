package collectors

import (
	"encoding/xml"
	"errors"
	"fmt"
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
//
// Branch coverage comes from a line's condition-coverage="50% (1/2)": the
// conditions covered and all of them, the percentage before it being what
// they give. Overall branch coverage is the root branch-rate × 100
// (Coverage.StatedBranch), but only when the report holds branch data: its
// branches-valid is above 0 or, without that attribute, a line has
// condition coverage. coverage.py run without --branch and
// gocover-cobertura write branch-rate="0" with branches-valid="0", which
// says nothing was measured, not that no branch ran.
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
	if cov.Stated, err = rateAttr(s, root, "line-rate"); err != nil {
		return nil, err
	}
	// The branch figures matter only when the report holds branch data:
	// an unreadable branch-rate is an error then, and ignored otherwise,
	// as the branch attributes were before branch coverage was read.
	branchRate, branchRateErr := rateAttr(s, root, "branch-rate")
	branchesValid := int64(-1) // no attribute, or not a count
	if v, ok := attr(root, "branches-valid"); ok {
		if n, err := atoiPos([]byte(strings.TrimSpace(v)), "branches-valid"); err == nil {
			branchesValid = n
		}
	}
	conds := false
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
			if cc, ok := attr(se, "condition-coverage"); ok {
				covered, valid, err := conditionCoverage(cc)
				if err != nil {
					return nil, s.errorf("<line> condition-coverage %q: %v", cc, err)
				}
				if valid > 0 {
					file.branches.addConds(clampLine(num), covered, valid)
					conds = true
				}
			}
		}
	}
	if branchesValid > 0 || (branchesValid < 0 && conds) {
		if branchRateErr != nil {
			return nil, branchRateErr
		}
		cov.StatedBranch = branchRate
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

// rateAttr reads a root rate attribute (0 to 1) as a percentage; nil when
// the attribute is absent.
func rateAttr(s *xmlStream, se xml.StartElement, name string) (*float64, error) {
	v, ok := attr(se, name)
	if !ok {
		return nil, nil
	}
	rate, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || rate < 0 || rate > 1 {
		return nil, s.errorf("<%s> %s %q is not a number between 0 and 1", se.Name.Local, name, v)
	}
	pct := rate * 100
	return &pct, nil
}

// conditionCoverage reads "50% (1/2)": 1 of 2 conditions covered.
func conditionCoverage(v string) (covered, valid int32, err error) {
	_, counts, ok := strings.Cut(v, "(")
	counts, ok2 := strings.CutSuffix(strings.TrimSpace(counts), ")")
	c, t, ok3 := strings.Cut(counts, "/")
	if !ok || !ok2 || !ok3 {
		return 0, 0, errors.New(`want "P% (covered/valid)"`)
	}
	cn, err := atoiPos([]byte(strings.TrimSpace(c)), "covered count")
	if err != nil {
		return 0, 0, err
	}
	tn, err := atoiPos([]byte(strings.TrimSpace(t)), "condition count")
	if err != nil {
		return 0, 0, err
	}
	if tn > maxConditions || cn > tn {
		return 0, 0, fmt.Errorf("%d of %d conditions covered is not a count of one line's conditions", cn, tn)
	}
	return int32(cn), int32(tn), nil
}
