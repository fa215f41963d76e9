package ci

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// A type checker's strictness read from its configuration as the checker
// reads it: mypy's global section (mypy.ini, .mypy.ini, setup.cfg's
// [mypy], pyproject.toml's [tool.mypy]) and tsc's compilerOptions. An
// umbrella switch stands for the flags it turns on (mypy's and tsc's
// `strict`), a flag set on its own overrides it, and a flag left out has
// the checker's default: folding fifteen flags into `strict = true`
// lowers nothing, and a `#strict = true` comment sets nothing.

// mypyStrict are the flags of mypy's --strict that catch type errors
// (its others are hygiene: unused ignores, redundant casts, re-exports);
// config keys.
var mypyStrict = []string{"disallow_any_generics", "disallow_untyped_calls", "disallow_untyped_defs",
	"disallow_incomplete_defs", "check_untyped_defs", "warn_return_any", "strict_equality"}

// mypyOther are mypy flags outside --strict that make it stricter, with
// their defaults.
var mypyOther = map[string]bool{"strict_optional": true, "no_implicit_optional": true}

// tscStrict are the compilerOptions TypeScript's `strict` turns on.
var tscStrict = []string{"noImplicitAny", "strictNullChecks", "strictFunctionTypes", "strictBindCallApply",
	"strictPropertyInitialization", "noImplicitThis", "alwaysStrict", "useUnknownInCatchVariables"}

// tscOther are compilerOptions outside `strict` that make tsc stricter
// (all off by default).
var tscOther = []string{"noImplicitReturns", "noUncheckedIndexedAccess", "exactOptionalPropertyTypes",
	"noFallthroughCasesInSwitch", "noUnusedLocals", "noUnusedParameters"}

// checkerFlags is the effective value of each strictness flag a config
// file decides, by "tool:flag" ("mypy:disallow_untyped_defs"), and the
// umbrella switches it sets ("mypy:strict").
type checkerFlags struct {
	on      map[string]bool
	strict  map[string]bool // umbrella switches set true, by tool
	present map[string]bool // the tools the file configures
}

// readsStrictness reports whether a config file's strictness is read
// structurally (readCheckerFlags); other files keep the line rule.
func readsStrictness(p string) bool {
	base := path.Base(p)
	lower := strings.ToLower(base)
	switch {
	case base == "setup.cfg", base == "mypy.ini", base == ".mypy.ini", base == "pyproject.toml":
		return true
	case strings.HasPrefix(lower, "tsconfig") && strings.HasSuffix(lower, ".json"), lower == "jsconfig.json":
		return true
	}
	return false
}

// readCheckerFlags reads the strictness a config file sets; an error when
// the file does not parse.
func readCheckerFlags(p string, data []byte) (*checkerFlags, error) {
	f := &checkerFlags{on: map[string]bool{}, strict: map[string]bool{}, present: map[string]bool{}}
	if len(data) == 0 {
		return f, nil
	}
	base := path.Base(p)
	switch {
	case base == "pyproject.toml":
		doc, err := ReadTOML(data)
		if err != nil {
			return nil, err
		}
		if t := TOMLTable(doc, "tool", "mypy"); t != nil {
			set := map[string]bool{}
			for k, v := range t {
				if b, ok := v.(bool); ok {
					set[k] = b
				}
			}
			f.mypy(set)
		}
	case base == "setup.cfg" || base == "mypy.ini" || base == ".mypy.ini":
		ini, err := ReadINI(data)
		if err != nil {
			return nil, err
		}
		if sec, ok := ini.sections["mypy"]; ok {
			set := map[string]bool{}
			for k, v := range sec {
				if b, ok := iniBool(v.text); ok {
					set[k] = b
				}
			}
			f.mypy(set)
		}
	default:
		var cfg struct {
			CompilerOptions map[string]any `json:"compilerOptions"`
		}
		if err := json.Unmarshal(jsonc(data), &cfg); err != nil {
			return nil, err
		}
		if cfg.CompilerOptions != nil {
			set := map[string]bool{}
			for k, v := range cfg.CompilerOptions {
				if b, ok := v.(bool); ok {
					set[k] = b
				}
			}
			f.tsc(set)
		}
	}
	return f, nil
}

func (f *checkerFlags) mypy(set map[string]bool) {
	f.present["mypy"] = true
	strict := set["strict"]
	f.strict["mypy"] = strict
	for _, k := range mypyStrict {
		v, ok := set[k]
		if !ok {
			v = strict
		}
		f.on["mypy:"+k] = v
	}
	for k := range mypyOther {
		if v, ok := set[k]; ok {
			f.on["mypy:"+k] = v
		}
	}
}

// value is a flag's effective value: as the file sets it, else the
// checker's default.
func (f *checkerFlags) value(k string) bool {
	if v, ok := f.on[k]; ok {
		return v
	}
	tool, flag, _ := strings.Cut(k, ":")
	return tool == "mypy" && mypyOther[flag]
}

func (f *checkerFlags) tsc(set map[string]bool) {
	f.present["tsc"] = true
	strict := set["strict"]
	f.strict["tsc"] = strict
	for _, k := range tscStrict {
		v, ok := set[k]
		if !ok {
			v = strict
		}
		f.on["tsc:"+k] = v
	}
	for _, k := range tscOther {
		f.on["tsc:"+k] = set[k]
	}
}

// jsonc turns JSON with comments and trailing commas (tsconfig.json's
// dialect) into JSON: comments outside strings become spaces, a comma
// before a closing bracket goes.
func jsonc(data []byte) []byte {
	out := make([]byte, 0, len(data))
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr:
			out = append(out, c)
			if c == '\\' && i+1 < len(data) {
				i++
				out = append(out, data[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/') {
				i++
			}
			i++
			out = append(out, ' ')
		case c == ']' || c == '}':
			j := len(out) - 1
			for j >= 0 && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out[j] = ' '
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// strictnessChange is one config file's strictness at both sides.
type strictnessChange struct {
	p        string
	old, cur *checkerFlags
	newData  []byte
}

// structuredStrictness reports the strictness flags the change turned off
// in the config files read structurally: a flag on at BASE in a file and
// off at HEAD there, unless another changed file turns it on at HEAD (the
// [mypy] section moved from setup.cfg to pyproject.toml). One finding per
// file, naming the umbrella switch when it was what went.
func structuredStrictness(cs []strictnessChange) []gate.Finding {
	onNow := map[string]bool{}
	for _, c := range cs {
		for k := range c.cur.on {
			onNow[k] = onNow[k] || c.cur.value(k)
		}
	}
	var out []gate.Finding
	for _, c := range cs {
		var lost []string
		seen := map[string]bool{}
		for _, on := range []map[string]bool{c.old.on, c.cur.on} {
			for k := range on {
				tool, _, _ := strings.Cut(k, ":")
				if seen[k] || !c.old.present[tool] && !c.cur.present[tool] {
					continue
				}
				seen[k] = true
				if c.old.value(k) && !c.cur.value(k) && !onNow[k] {
					lost = append(lost, k)
				}
			}
		}
		if len(lost) == 0 {
			continue
		}
		sort.Strings(lost)
		var names []string
		umbrella := ""
		for _, k := range lost {
			tool, flag, _ := strings.Cut(k, ":")
			if c.old.strict[tool] && !c.cur.strict[tool] && umbrella == "" {
				umbrella = "strict"
			}
			names = append(names, flag)
		}
		what := QuotedList(names) + " " + Plural(len(names), "is", "are") + " no longer on"
		if umbrella != "" {
			what = "`strict` was turned off or removed, and with it " + QuotedList(names)
		}
		line := 0
		if umbrella != "" {
			line = lineOfKey(c.newData, "strict")
		} else {
			line = lineOfKey(c.newData, names[0])
		}
		out = append(out, gate.NewFinding(gate.RuleStrictnessLowered, gate.SeverityCritical, c.p, line, "", "", strings.Join(lost, ","),
			fmt.Sprintf("%s lowers type-checking strictness: %s.", c.p, what)))
	}
	return out
}

// lineOfKey is the line where a key is set (0 when it is not).
func lineOfKey(data []byte, key string) int {
	for i, l := range SplitLines(data) {
		t := strings.TrimLeft(strings.TrimSpace(l), `"'`)
		if strings.HasPrefix(t, key) && !isCommentLine(l) {
			rest := strings.TrimLeft(t[len(key):], `"' `)
			if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":") {
				return i + 1
			}
		}
	}
	return 0
}
