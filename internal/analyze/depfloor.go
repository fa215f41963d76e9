package analyze

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A check that runs only with an old version of a dependency (`if
// int(click.__version__[0]) < 8: pytest.deprecated_call(...)`, the else
// of `if django.VERSION >= (3, 0):`) runs nowhere once the project requires
// a newer one: flask deleted test_click_7_deprecated, whose only check sat
// under click < 8, in a project whose setup.py requires click >= 8.0.
// Like a test that ran only on old versions of its language (see
// runtimefloor.go), deleting it loses no check that runs: it is reported,
// not blocking. The dependency's floor is read where the project states it
// as data: pyproject.toml's [project] dependencies or Poetry's
// dependencies, setup.cfg's install_requires, and a setup.py's
// install_requires when it is a literal list of strings (what GitHub's
// dependency graph reads there too; anything computed is not read). A
// requirement with an environment marker (`; python_version < "3.10"`)
// holds on some installs only, and sets no floor. Python only: the
// language whose tests branch on a dependency's __version__.

// depBound is what the arm of a check says about a dependency: the arm
// runs only when the dependency's version is below version (at most
// version when inclusive).
type depBound struct {
	dep, version string
	inclusive    bool
}

// The version tests read, on a condition with its spaces removed: the
// major version (`int(click.__version__[0]) < 8`, with .split(".")), a
// parsed version (`Version(pydantic.__version__) < Version("2")`), a tuple
// (`django.VERSION < (3, 0)`), a prefix (`click.__version__.startswith("7")`).
var (
	majorCond   = lazyre.New(`^int\(([A-Za-z_][\w.]*)\.__version__(?:\.split\(["']\.["']\))?\[0\]\)(<|<=|==|>=|>)(\d+)$`)
	parsedCond  = lazyre.New(`^(?:[\w.]*\.)?(?:Version|parse_version|parse|LooseVersion|StrictVersion)\(([A-Za-z_][\w.]*)\.__version__\)(<|<=|>=|>)(?:[\w.]*\.)?(?:Version|parse_version|parse|LooseVersion|StrictVersion)\(["']([\d.]+)["']\)$`)
	tupleCond   = lazyre.New(`^([A-Za-z_][\w.]*)\.(?:VERSION|version_info|__version_info__)(<|<=|>=|>)\(([\d,]+)\)$`)
	prefixCond  = lazyre.New(`^([A-Za-z_][\w.]*)\.__version__\.startswith\(["'](\d+)\.?["']\)$`)
	requirement = lazyre.New(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$`)
)

// armBound reads an arm (its condition as the extractor gives it, and
// which branch: 0 the if, 1 the else) as a bound on a dependency's version.
func armBound(cond string, index int) (depBound, bool) {
	c, ok := strings.CutPrefix(strings.TrimSpace(cond), "if ")
	if !ok {
		return depBound{}, false
	}
	c = strings.Join(strings.Fields(c), "")
	var dep, op, v string
	if m := majorCond.FindStringSubmatch(c); m != nil {
		dep, op, v = m[1], m[2], m[3]
		if op == "==" { // major N: below N+1
			n, _ := strconv.Atoi(v)
			op, v = "<", strconv.Itoa(n+1)
		}
	} else if m := parsedCond.FindStringSubmatch(c); m != nil {
		dep, op, v = m[1], m[2], m[3]
	} else if m := tupleCond.FindStringSubmatch(c); m != nil {
		dep, op, v = m[1], m[2], strings.Trim(strings.ReplaceAll(m[3], ",", "."), ".")
	} else if m := prefixCond.FindStringSubmatch(c); m != nil {
		n, _ := strconv.Atoi(m[2])
		dep, op, v = m[1], "<", strconv.Itoa(n+1)
	} else {
		return depBound{}, false
	}
	if _, ok := testscan.CompareVersions(v, "0"); !ok {
		return depBound{}, false
	}
	// The if runs below the bound for < and <=; the else of >= and >.
	switch {
	case index == 0 && (op == "<" || op == "<="):
		return depBound{dep: dep, version: v, inclusive: op == "<="}, true
	case index == 1 && (op == ">=" || op == ">"):
		return depBound{dep: dep, version: v, inclusive: op == ">"}, true
	}
	return depBound{}, false
}

// below reports whether a project that requires floor or newer never runs
// an arm with bound b.
func (b depBound) below(floor string) bool {
	c, ok := testscan.CompareVersions(floor, b.version)
	return ok && (c > 0 || c == 0 && !b.inclusive)
}

// normDep normalizes a distribution or import name for comparison
// (PEP 503: case and the runs of -, _ and . are not told apart).
func normDep(s string) string {
	return strings.NewReplacer("-", "_", ".", "_").Replace(strings.ToLower(s))
}

// depFloors reads the lowest versions a project's requirements allow, by
// normalized name, from one of its project files.
func depFloors(name string, data []byte) map[string]string {
	var reqs []string
	switch name {
	case "pyproject.toml":
		doc, err := ci.ReadTOML(data)
		if err != nil {
			return nil
		}
		if list, ok := ci.TOMLTable(doc, "project")["dependencies"].([]any); ok {
			for _, r := range list {
				if s, ok := r.(string); ok {
					reqs = append(reqs, s)
				}
			}
		}
		out := floorsOf(reqs)
		for dep, spec := range ci.TOMLTable(doc, "tool", "poetry", "dependencies") {
			if t, ok := spec.(map[string]any); ok {
				spec = t["version"]
			}
			if s, ok := spec.(string); ok && dep != "python" {
				if v := specFloor(s); v != "" {
					out[normDep(dep)] = v
				}
			}
		}
		return out
	case "setup.cfg":
		ini, err := ci.ReadINI(data)
		if err != nil {
			return nil
		}
		v, _ := ini.Value("options", "install_requires")
		reqs = strings.Split(v, "\n")
	case "setup.py":
		reqs = literalList(string(data), "install_requires")
	}
	return floorsOf(reqs)
}

// floorsOf reads requirement strings ("click >= 8.0", "Jinja2>=3.0,<4"):
// the lowest version each allows, by normalized name. One with an
// environment marker sets none.
func floorsOf(reqs []string) map[string]string {
	out := map[string]string{}
	for _, r := range reqs {
		if strings.Contains(r, ";") || strings.Contains(r, "@") {
			continue
		}
		m := requirement.FindStringSubmatch(r)
		if m == nil {
			continue
		}
		if v := specFloor(m[2]); v != "" {
			out[normDep(m[1])] = v
		}
	}
	return out
}

// literalList reads `key=[...]` in Python source when the list holds only
// string literals (and comments); nil otherwise.
func literalList(src, key string) []string {
	i := strings.Index(src, key)
	for i >= 0 {
		rest := strings.TrimLeft(src[i+len(key):], " \t")
		if before := src[:i]; (i == 0 || !isIdentByte(before[len(before)-1])) && strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") {
			rest = strings.TrimLeft(rest[1:], " \t\r\n")
			if strings.HasPrefix(rest, "[") {
				return stringsUntilClose(rest[1:])
			}
			return nil
		}
		j := strings.Index(src[i+len(key):], key)
		if j < 0 {
			break
		}
		i += len(key) + j
	}
	return nil
}

// stringsUntilClose reads string literals separated by commas up to a
// closing bracket; nil when anything else comes first.
func stringsUntilClose(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',':
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == ']':
			return out
		case c == '"' || c == '\'':
			j := skipString(s, i)
			if j > len(s) || j-i < 2 || s[j-1] != c || strings.Contains(s[i+1:j-1], "\\") {
				return nil
			}
			out = append(out, s[i+1:j-1])
			i = j
		default:
			return nil
		}
	}
	return nil
}

// depFloorAt returns the lowest version of dependency dep that the project
// holding file p requires, read with read, and the file saying so: the
// nearest project file above p that states requirements decides.
func depFloorAt(dep, p string, read func(string) []byte) (version, file string) {
	dep = normDep(dep)
	for d := path.Dir(p); ; d = path.Dir(d) {
		found := false
		for _, name := range []string{"pyproject.toml", "setup.cfg", "setup.py"} {
			f := path.Join(d, name)
			data := read(f)
			if data == nil {
				continue
			}
			found = true
			if v := depFloors(name, data)[dep]; v != "" {
				return v, f
			}
		}
		if found || d == "." || d == "/" || d == "" {
			return "", ""
		}
	}
}

// dependencyGone returns, for a deleted Python test whose every check
// (of medium strength or more) ran only with versions of a dependency that
// the project no longer allows at HEAD, what says so; "" otherwise.
func dependencyGone(o *locTest) string {
	if o.pr.readHead == nil || o.pr.readBase == nil || o.side.facts == nil || o.side.facts.Lang != testscan.Python {
		return ""
	}
	kept := func(f string) []byte { // BASE's project files, as HEAD has them
		if o.pr.readBase(f) == nil {
			return nil
		}
		return o.pr.readHead(f)
	}
	type floorAt struct{ now, file, was string }
	floors := map[string]floorAt{} // by dependency: each is read once per test
	floorOf := func(dep string) floorAt {
		f, ok := floors[dep]
		if !ok {
			f.now, f.file = depFloorAt(dep, o.side.path, kept)
			if f.now != "" {
				f.was, _ = depFloorAt(dep, o.side.path, o.pr.readBase)
			}
			floors[dep] = f
		}
		return f
	}
	var why string
	checked := 0
	for _, x := range o.tc.Assertions {
		if x.Strength < testscan.Medium {
			continue
		}
		checked++
		never := false
		for _, a := range x.Arms {
			b, ok := armBound(a.Cond, a.Index)
			if !ok {
				continue
			}
			if f := floorOf(b.dep); f.now != "" && b.below(f.now) {
				floor, file := f.now, f.file
				never = true
				if why == "" {
					runs := "below " + b.version
					if b.inclusive {
						runs = "up to " + b.version
					}
					why = fmt.Sprintf("its checks ran only with %s %s, and the project requires %s %s or newer (%s): they run nowhere", b.dep, runs, b.dep, floor, file)
					if f.was != floor {
						why = fmt.Sprintf("its checks ran only with %s %s, and the change raised the lowest %s the project requires to %s (%s): they run nowhere now", b.dep, runs, b.dep, floor, file)
					}
				}
				break
			}
		}
		if !never {
			return ""
		}
	}
	if checked == 0 {
		return ""
	}
	return why
}
