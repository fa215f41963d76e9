package ci

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Python's configuration files read as the tools read them, never by line:
// setup.cfg, tox.ini, mypy.ini and pytest.ini with configparser's rules,
// pyproject.toml as TOML. A `#key = true` line is a comment, not a
// setting; a value may span indented continuation lines.

// INIFile is an INI file as Python's configparser reads it (the dialect
// of setup.cfg, tox.ini, mypy.ini and pytest.ini):
//
//	[mypy]
//	# a comment
//	strict = True
//	files =
//	    src
//	    tests
//
// See https://docs.python.org/3/library/configparser.html#supported-ini-file-structure.
type INIFile struct {
	sections map[string]map[string]iniValue
	order    []string // section names as they appear
}

// iniValue is one key's value and the file line of its key.
type iniValue struct {
	text string
	line int
}

// ReadINI reads an INI file. Comments are whole lines starting with # or ;
// (configparser's default: no inline comments); a line indented deeper than
// its key continues the key's value; keys are lower-cased, as configparser
// does. Text outside any section, or a line that is neither a section, a
// key nor a continuation, is an error: configparser refuses such a file.
func ReadINI(data []byte) (*INIFile, error) {
	f := &INIFile{sections: map[string]map[string]iniValue{}}
	var sec map[string]iniValue
	var key string
	keyIndent := 0
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r")
		t := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";"):
			continue
		case key != "" && indent > keyIndent:
			v := sec[key]
			if v.text != "" {
				v.text += "\n"
			}
			v.text += t
			sec[key] = v
			continue
		case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") && indent == 0:
			name := strings.TrimSpace(t[1 : len(t)-1])
			if f.sections[name] == nil {
				f.sections[name] = map[string]iniValue{}
				f.order = append(f.order, name)
			}
			sec, key = f.sections[name], ""
			continue
		}
		if sec == nil {
			return nil, fmt.Errorf("line %d: a key outside any section", i+1)
		}
		j := strings.IndexAny(t, "=:")
		if j <= 0 {
			return nil, fmt.Errorf("line %d: neither a section nor a key", i+1)
		}
		key = strings.ToLower(strings.TrimSpace(t[:j]))
		keyIndent = indent
		sec[key] = iniValue{text: strings.TrimSpace(t[j+1:]), line: i + 1}
	}
	return f, nil
}

// iniBool reads a configparser boolean ("True", "yes", "on", "1").
func iniBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "yes", "true", "on":
		return true, true
	case "0", "no", "false", "off":
		return false, true
	}
	return false, false
}

// ReadTOML reads a TOML document (pyproject.toml) into nested maps.
func ReadTOML(data []byte) (map[string]any, error) {
	var doc map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// TOMLTable follows a dotted path of tables ("tool", "mypy") from doc; nil
// when a step is missing or not a table.
func TOMLTable(doc map[string]any, keys ...string) map[string]any {
	cur := doc
	for _, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

// Value is the text of key in section, and whether the file sets it.
func (f *INIFile) Value(section, key string) (string, bool) {
	v, ok := f.sections[section][key]
	return v.text, ok
}
