package collectors

import (
	"encoding/xml"
	"io"
	"strings"
)

// Checkstyle parses checkstyle XML, as checkstyle, golangci-lint
// (--output.checkstyle.path) and eslint (-f checkstyle) write it:
//
//	<checkstyle version="4.3">
//	  <file name="src/a.js">
//	    <error line="1" column="7" severity="error" message="'x' is assigned a value but never used. (no-unused-vars)" source="eslint.rules.no-unused-vars"/>
//	    <error line="2" column="7" severity="warning" message="Expected '===' and instead saw '=='. (eqeqeq)" source="eslint.rules.eqeqeq"/>
//	  </file>
//	</checkstyle>
//
// Spec: https://checkstyle.org/config.html#Severity and the output of
// checkstyle's XMLLogger; there is no published schema.
//
// severity error counts as an error and warning as a warning; info and
// ignore are not counted; an absent severity is an error, checkstyle's
// default. The rule is the source attribute. <error> must sit in a <file>.
type Checkstyle struct{}

// Format returns "checkstyle".
func (Checkstyle) Format() string { return FormatCheckstyle }

// Parse reads one checkstyle document.
func (Checkstyle) Parse(name string, r io.Reader) (*Result, error) {
	s := newXMLStream(FormatCheckstyle, name, r)
	if _, err := s.root("checkstyle"); err != nil {
		return nil, err
	}
	diags := &Diagnostics{}
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
		case "file":
			if len(s.stack) != 2 {
				return nil, s.errorf("<file> not directly inside <checkstyle>")
			}
			if n, ok := attr(se, "name"); !ok || n == "" {
				return nil, s.errorf("<file> without a name attribute")
			}
		case "error":
			if len(s.stack) != 3 || s.stack[1] != "file" {
				return nil, s.errorf("<error> outside <file>")
			}
			sev, ok := attr(se, "severity")
			if !ok {
				sev = "error"
			}
			source, _ := attr(se, "source")
			switch strings.ToLower(strings.TrimSpace(sev)) {
			case "error":
				diags.add(source, levelError)
			case "warning":
				diags.add(source, levelWarning)
			case "info", "ignore":
			default:
				return nil, s.errorf("<error> severity %q, want error, warning, info or ignore", sev)
			}
			if err := s.skip(); err != nil {
				return nil, err
			}
		default:
			if err := s.skip(); err != nil {
				return nil, err
			}
		}
	}
	if err := s.end(); err != nil {
		return nil, err
	}
	return &Result{Sources: []string{name}, Lint: diags}, nil
}
