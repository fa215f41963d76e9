package analyze

import (
	"encoding/xml"
	"fmt"
	"go/build/constraint"
	"path"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A test that runs only on old versions of its language (pytest's
// skipif(sys.version_info >= (3, 7)), JUnit's @EnabledOnJre(JAVA_8), see
// testscan.Skip.Runtime) runs nowhere once the project no longer supports
// them: flask deleted its Python-3.6-only test with the commit that raised
// python_requires to 3.7. Deleting it loses no check that runs; it is
// reported, not blocking. The lowest version is read where the project
// states it as data: requires-python (pyproject.toml's [project], Poetry's
// python dependency), setup.cfg's python_requires, a pom.xml's compiler
// release or source (its properties or the compiler plugin's
// configuration), and, for a Go file built only on some toolchains
// (//go:build !go1.21), go.mod's go directive (see goBuildGone). A
// setup.py or a Gradle build is code, not read: such a project keeps the
// finding.

// runtimeGone returns, for a deleted test that ran only on versions its
// project no longer supports at HEAD, what says so ("those runs were on
// Python below 3.7, and the change raised the lowest Python the project
// supports to 3.7 (setup.cfg): it runs nowhere now"); "" otherwise.
func runtimeGone(o *locTest) string {
	if o.pr.readHead == nil || o.pr.readBase == nil || o.side.facts == nil {
		return ""
	}
	lang := o.side.facts.Lang
	if lang == testscan.Go {
		if o.side.facts.Constraint == "" {
			return ""
		}
	} else if o.tc.Skip == nil || o.tc.Skip.Runtime == "" {
		return ""
	}
	f := o.pr.floor(lang, o.side.path)
	if f.head == "" {
		return ""
	}
	if lang == testscan.Go {
		return goBuildGone(o.side.facts.Constraint, f.head, f.file)
	}
	if !testscan.RuntimeGone(o.tc.Skip.Runtime, f.head) {
		return ""
	}
	name := map[testscan.Lang]string{testscan.Python: "Python", testscan.Java: "Java"}[lang]
	runs := "below " + strings.TrimPrefix(o.tc.Skip.Runtime, "<")
	if v, ok := strings.CutPrefix(o.tc.Skip.Runtime, "<="); ok {
		runs = "up to " + v
	}
	if f.base != f.head {
		return fmt.Sprintf("those runs were on %s %s, and the change raised the lowest %s the project supports to %s (%s): it runs nowhere now", name, runs, name, f.head, f.file)
	}
	return fmt.Sprintf("those runs were on %s %s, below the lowest %s the project supports, %s (%s): it ran nowhere", name, runs, name, f.head, f.file)
}

// floorRead is the lowest runtime version a pair's project supports: at
// HEAD, as BASE's project files say it there, the file saying so, and at
// BASE.
type floorRead struct{ p, head, file, base string }

// floor reads the floor of the project holding file p of the pair, once
// per pair (the deleted tests of a file ask for it one by one). The project
// is the one BASE has: a project file the change adds next to the tests (a
// tests/setup.cfg claiming a higher floor) is not read, only what BASE's
// files say at HEAD.
func (pr *pair) floor(lang testscan.Lang, p string) floorRead {
	if pr.floors == nil || pr.floors.p != p {
		kept := func(f string) []byte {
			if pr.readBase(f) == nil {
				return nil
			}
			return pr.readHead(f)
		}
		f := &floorRead{p: p}
		f.head, f.file = runtimeFloor(lang, p, kept)
		if f.head != "" {
			f.base, _ = runtimeFloor(lang, p, pr.readBase)
		}
		pr.floors = f
	}
	return *pr.floors
}

// runtimeFloor returns the lowest version of the language's runtime the
// project holding file p states it supports, read with read at one side
// of the change, and the file stating it; "" when none does. The nearest
// project file above p decides; a pom.xml that states nothing defers to
// the one above it (a module inherits its parent's compiler settings).
func runtimeFloor(lang testscan.Lang, p string, read func(string) []byte) (version, file string) {
	for d := path.Dir(p); ; d = path.Dir(d) {
		switch lang {
		case testscan.Python:
			found := false
			for _, name := range []string{"pyproject.toml", "setup.cfg"} {
				f := path.Join(d, name)
				data := read(f)
				if data == nil {
					continue
				}
				found = true
				if v := pythonFloor(name, data); v != "" {
					return v, f
				}
			}
			if found {
				return "", ""
			}
		case testscan.Java:
			f := path.Join(d, "pom.xml")
			if data := read(f); data != nil {
				if v := pomRelease(data); v != "" {
					return v, f
				}
			}
		case testscan.Go:
			f := path.Join(d, "go.mod")
			if data := read(f); data != nil {
				if mf, err := modfile.ParseLax(f, data, nil); err == nil && mf.Go != nil {
					return mf.Go.Version, f
				}
				return "", ""
			}
		default:
			return "", ""
		}
		if d == "." || d == "/" || d == "" {
			return "", ""
		}
	}
}

// pythonFloor reads the Requires-Python of a pyproject.toml or setup.cfg
// and returns its lower bound.
func pythonFloor(name string, data []byte) string {
	spec := ""
	if name == "pyproject.toml" {
		doc, err := ci.ReadTOML(data)
		if err != nil {
			return ""
		}
		if s, ok := ci.TOMLTable(doc, "project")["requires-python"].(string); ok {
			spec = s
		} else if s, ok := ci.TOMLTable(doc, "tool", "poetry", "dependencies")["python"].(string); ok {
			spec = s
		}
	} else {
		ini, err := ci.ReadINI(data)
		if err != nil {
			return ""
		}
		spec, _ = ini.Value("options", "python_requires")
	}
	return specFloor(spec)
}

// specFloor is the lower bound of a version specifier (PEP 440's ">= 3.7,
// != 3.8.*", Poetry's "^3.8" and "~3.8"): its highest >=, >, ~=, ^, ~ or
// == version; "" when it has none. A > reads as its version, a bound no
// higher than the real one.
func specFloor(spec string) string {
	best := ""
	for _, clause := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == '|' }) {
		clause = strings.TrimSpace(clause)
		var v string
		for _, op := range []string{">=", "~=", "==", ">", "^", "~"} {
			if rest, ok := strings.CutPrefix(clause, op); ok {
				v = strings.TrimSuffix(strings.TrimSpace(rest), ".*")
				break
			}
		}
		if v == "" {
			continue
		}
		if _, ok := testscan.CompareVersions(v, "0"); !ok {
			continue
		}
		if c, _ := testscan.CompareVersions(v, best); best == "" || c > 0 {
			best = v
		}
	}
	return best
}

// pomRelease reads the Java version a pom.xml compiles for: the compiler
// plugin's release or source, or the maven.compiler.release or .source
// property (Spring Boot's java.version through them), "1.8" read as 8.
func pomRelease(data []byte) string {
	var root pomNode
	if err := xml.Unmarshal(data, &root); err != nil {
		return ""
	}
	props := map[string]string{}
	var plugin map[string]string
	for i := range root.Nodes {
		n := &root.Nodes[i]
		switch n.XMLName.Local {
		case "properties":
			for _, p := range n.Nodes {
				props[p.XMLName.Local] = strings.TrimSpace(p.Text)
			}
		case "build":
			plugin = compilerConfig(n)
		}
	}
	resolve := func(v string) string {
		for range 4 {
			name, ok := strings.CutPrefix(v, "${")
			if !ok {
				break
			}
			v = props[strings.TrimSuffix(name, "}")]
		}
		v = strings.TrimPrefix(v, "1.")
		if _, ok := testscan.CompareVersions(v, "0"); !ok {
			return ""
		}
		return v
	}
	for _, v := range []string{plugin["release"], plugin["source"], props["maven.compiler.release"], props["maven.compiler.source"]} {
		if v != "" {
			return resolve(v)
		}
	}
	return ""
}

// compilerConfig returns the configuration of the build's
// maven-compiler-plugin, by element name.
func compilerConfig(build *pomNode) map[string]string {
	plugins := build.child("plugins")
	if plugins == nil {
		return nil
	}
	for i := range plugins.Nodes {
		pl := &plugins.Nodes[i]
		if conf := pl.child("configuration"); pl.child("artifactId").text() == "maven-compiler-plugin" && conf != nil {
			out := map[string]string{}
			for j := range conf.Nodes {
				out[conf.Nodes[j].XMLName.Local] = conf.Nodes[j].text()
			}
			return out
		}
	}
	return nil
}

// goBuildGone returns, for a Go file built only under constraint expr,
// what says that no toolchain from the module's go directive (version,
// read from file) on builds it (//go:build !go1.21 in a module that says
// go 1.22); "" otherwise. A directive is a floor from Go 1.21 on, which
// refuses to build a module that needs a newer toolchain; older ones only
// warned.
func goBuildGone(expr, version, file string) string {
	rest, ok := strings.CutPrefix(version, "1.")
	if !ok {
		return ""
	}
	minor, err := strconv.Atoi(strings.SplitN(rest, ".", 2)[0])
	if err != nil || minor < 21 || !neverBuildsFrom(expr, minor) {
		return ""
	}
	return fmt.Sprintf("its file builds only under //go:build %s, which no Go toolchain from the module's go %s on satisfies (%s)", expr, version, file)
}

// neverBuildsFrom reports whether a build constraint is false on every Go
// toolchain from 1.minor on, whatever its other tags (at most maxFreeTags
// of them, each tried both ways; more answer false).
func neverBuildsFrom(expr string, minor int) bool {
	x, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return false
	}
	var free []string
	top := minor
	seen := map[string]bool{}
	var walk func(e constraint.Expr)
	walk = func(e constraint.Expr) {
		switch e := e.(type) {
		case *constraint.AndExpr:
			walk(e.X)
			walk(e.Y)
		case *constraint.OrExpr:
			walk(e.X)
			walk(e.Y)
		case *constraint.NotExpr:
			walk(e.X)
		case *constraint.TagExpr:
			if v, ok := strings.CutPrefix(e.Tag, "go1."); ok {
				if n, err := strconv.Atoi(v); err == nil {
					top = max(top, n)
					return
				}
			}
			if !seen[e.Tag] {
				seen[e.Tag] = true
				free = append(free, e.Tag)
			}
		}
	}
	walk(x)
	if len(free) > maxFreeTags {
		return false
	}
	for v := minor; v <= top+1; v++ {
		for set := 0; set < 1<<len(free); set++ {
			on := map[string]bool{}
			for i, t := range free {
				on[t] = set&(1<<i) != 0
			}
			built := x.Eval(func(tag string) bool {
				if n, ok := strings.CutPrefix(tag, "go1."); ok {
					if k, err := strconv.Atoi(n); err == nil {
						return k <= v
					}
				}
				return on[tag]
			})
			if built {
				return false
			}
		}
	}
	return true
}

// maxFreeTags bounds the tags other than Go versions neverBuildsFrom tries.
const maxFreeTags = 6
