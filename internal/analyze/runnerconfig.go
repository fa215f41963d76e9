package analyze

import (
	"encoding/xml"
	"fmt"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"sort"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
)

// The runner's configuration decides which files it collects: pytest's
// testpaths and python_files, jest's testMatch and roots, vitest's include,
// mocha's spec, Surefire's includes and excludes. A change that drops a
// pattern the runner collected by (or adds an exclusion of test files)
// takes tests out of its reach without touching them.

var (
	// includeKeys name the patterns a runner collects by.
	includeKeys = lazyre.New(`(?m)(?:^|[\s{,"'])(testpaths|python_files|python_classes|python_functions|testMatch|testRegex|roots|include|testDir|testFiles|spec|specPattern)["']?\s*[=:]\s*`)
	// quotedVal picks the quoted strings of a value.
	quotedVal = lazyre.New(`"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'`)
	pomTag    = lazyre.New(`<(include|exclude)>\s*([^<]*?)\s*</(?:include|exclude)>`)
)

// runnerPatterns returns, per collection key of a runner configuration, the
// patterns it lists.
func runnerPatterns(kind ci.ConfigKind, p string, data []byte) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(k, v string) {
		v = strings.TrimSpace(v)
		if v == "" {
			return
		}
		if out[k] == nil {
			out[k] = map[string]bool{}
		}
		out[k][v] = true
	}
	text := string(data)
	if !mentionsCollection(text) {
		return out // names no collection key: nothing the runner collects by
	}
	if kind == ci.JavaBuild && strings.HasSuffix(p, ".xml") {
		if pats, err := pomTestPatterns(data); err == nil {
			for k, vs := range pats {
				for _, v := range vs {
					add(k, v)
				}
			}
			return out
		}
		for _, m := range pomTag.FindAllStringSubmatch(text, -1) {
			add(m[1], m[2])
		}
		return out
	}
	for _, loc := range includeKeys.FindAllStringSubmatchIndex(text, -1) {
		key := text[loc[2]:loc[3]]
		rest := text[loc[1]:]
		var val string
		switch {
		case strings.HasPrefix(rest, "["):
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				continue
			}
			val = rest[:end+1]
		case strings.HasPrefix(rest, "\"") || strings.HasPrefix(rest, "'"):
			val, _, _ = strings.Cut(rest, "\n")
		default:
			// An ini value: the rest of the line and its indented
			// continuation lines, whitespace-separated.
			lines := strings.Split(rest, "\n")
			val = lines[0]
			for _, l := range lines[1:] {
				if l == "" || (l[0] != ' ' && l[0] != '\t') {
					break
				}
				val += " " + l
			}
			if kind == ci.PythonConfig || strings.HasSuffix(p, ".ini") || strings.HasSuffix(p, ".cfg") {
				for _, w := range strings.Fields(strings.Split(val, "#")[0]) {
					add(key, strings.Trim(w, `"',`))
				}
			}
			continue
		}
		for _, m := range quotedVal.FindAllStringSubmatch(val, -1) {
			add(key, m[1]+m[2])
		}
	}
	return out
}

// testLike reports whether a pattern names tests (coverage includes such
// as src/** do not).
func testLike(v string) bool {
	l := strings.ToLower(v)
	if strings.Contains(l, "test") || strings.Contains(l, "spec") || strings.Contains(v, "IT") {
		return true
	}
	// A wildcard broad enough to take every file ("**/*", "*.java").
	rest := strings.Trim(l, "*/.")
	return strings.Contains(l, "*") && (rest == "" || rest == "java" || rest == "py" || rest == "js" || rest == "ts")
}

// compareRunnerConfig reports a runner configuration that collects less.
// A path a key no longer lists that is gone at HEAD (the package moved
// to src/, tests/typing renamed tests/type_check) takes nothing out.
// Unless the change moved its tests to a path the key does not list.
func (a *Analyzer) compareRunnerConfig(pr *pair, pairs []*pair, files []*ci.File, exists func(string, bool) bool) []gate.Finding {
	if pr.fc.OldPath == "" || pr.fc.NewPath == "" {
		return nil
	}
	kind := ci.Classify(pr.fc.NewPath)
	switch kind {
	case ci.PythonConfig, ci.JSTestConfig, ci.JavaBuild, ci.PackageJSON:
	default:
		return nil
	}
	before := a.runnerPatternsCached(kind, pr.fc.OldPath, pr.fc.OldKey, pr.fc.Old)
	after := a.runnerPatternsCached(kind, pr.fc.NewPath, pr.fc.NewKey, pr.fc.New)
	p := pr.path()
	var keys []string
	for k := range before {
		keys = append(keys, k)
	}
	for k := range after {
		if before[k] == nil {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []gate.Finding
	jsRead := false
	if kind == ci.JSTestConfig {
		var added []string
		if added, jsRead = jsExclusions(pr, pairs, exists); len(added) > 0 {
			out = append(out, gate.NewFinding(gate.RuleRunnerNarrowed, gate.SeverityHigh, p, ci.LineOf(pr.fc.New, strings.TrimPrefix(added[0], "?")), "", "", "exclude +"+strings.Join(added, ","),
				fmt.Sprintf("%s now excludes %s from the test run.", p, ci.QuotedList(added))))
		}
	}
	for _, k := range keys {
		if k == "exclude" && jsRead {
			continue
		}
		if k == "exclude" {
			var added []string
			for v := range after[k] {
				if !before[k][v] && testLike(v) {
					added = append(added, v)
				}
			}
			if len(added) > 0 {
				sort.Strings(added)
				out = append(out, gate.NewFinding(gate.RuleRunnerNarrowed, gate.SeverityHigh, p, ci.LineOf(pr.fc.New, added[0]), "", "", k+" +"+strings.Join(added, ","),
					fmt.Sprintf("%s now excludes %s from the test run.", p, ci.QuotedList(added))))
			}
			continue
		}
		if before[k] == nil || after[k] == nil {
			continue // a key dropped widens to the default; one added is judged by the tests it loses
		}
		var lost []string
		for v := range before[k] {
			if !after[k][v] && (k != "include" || testLike(v)) && !(gone(v, exists) && !ci.MovedOutOf(v, after[k], files)) {
				lost = append(lost, v)
			}
		}
		if len(lost) == 0 || len(after[k]) == 0 {
			continue
		}
		sort.Strings(lost)
		var now []string
		for v := range after[k] {
			now = append(now, v)
		}
		sort.Strings(now)
		// tests -> tests/unit tests/integration may list the same tests.
		sev := gate.SeverityHigh
		if allRefined(lost, now) {
			sev = gate.SeverityMedium
		}
		out = append(out, gate.NewFinding(gate.RuleRunnerNarrowed, sev, p, ci.LineOf(pr.fc.New, now[0]), "", "", k+" -"+strings.Join(lost, ","),
			fmt.Sprintf("%s narrows which tests the runner collects: %s no longer lists %s (now %s).", p, k, ci.QuotedList(lost), ci.QuotedList(now))))
	}
	return out
}

// allRefined reports whether every lost pattern is the directory of a
// pattern still listed.
func allRefined(lost, now []string) bool {
	for _, l := range lost {
		ok := false
		for _, n := range now {
			if strings.HasPrefix(n, strings.TrimSuffix(l, "/")+"/") {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// dedupeRunner drops runner-narrowed findings of a file the line rules
// already found filtering tests (an added exclude: [...] line).
func dedupeRunner(have, prog []gate.Finding) []gate.Finding {
	for _, f := range have {
		if f.Rule == gate.RuleRunnerFilter.ID {
			return nil
		}
	}
	return prog
}

// collectionKeys are the literal names includeKeys and pomTag look for.
var collectionKeys = []string{"testpaths", "python_files", "python_classes", "python_functions", "testMatch",
	"testRegex", "roots", "include", "testDir", "testFiles", "spec", "exclude"}

// mentionsCollection is a cheap look before the regular expressions.
func mentionsCollection(text string) bool {
	for _, k := range collectionKeys {
		if strings.Contains(text, k) {
			return true
		}
	}
	return false
}

// runnerPatternsCached is runnerPatterns once per file version.
func (a *Analyzer) runnerPatternsCached(kind ci.ConfigKind, p, key string, data []byte) map[string]map[string]bool {
	return ci.Memo(&a.mu, a.patCache, p, key, func() map[string]map[string]bool { return runnerPatterns(kind, p, data) })
}

// gone reports a literal path that does not exist at HEAD; false for a
// glob, or where existence is not known.
func gone(v string, exists func(string, bool) bool) bool {
	v = strings.TrimSuffix(strings.TrimPrefix(v, "./"), "/")
	if exists == nil || v == "" || strings.ContainsAny(v, "*?[{$") {
		return false
	}
	return !exists(v, true)
}

// pomNode is an element of a pom.xml, read whole.
type pomNode struct {
	XMLName xml.Name
	Nodes   []pomNode `xml:",any"`
	Text    string    `xml:",chardata"`
}

// child returns n's last child element named name, nil when it has none.
func (n *pomNode) child(name string) *pomNode {
	var out *pomNode
	for i := range n.Nodes {
		if n.Nodes[i].XMLName.Local == name {
			out = &n.Nodes[i]
		}
	}
	return out
}

// text is a node's text, trimmed; "" for a nil node.
func (n *pomNode) text() string {
	if n == nil {
		return ""
	}
	return strings.TrimSpace(n.Text)
}

// testPlugins are the Maven plugins whose includes and excludes decide
// which tests run (Surefire, Failsafe) or compile (the compiler's
// testIncludes and testExcludes).
var testPlugins = map[string]bool{"maven-surefire-plugin": true, "maven-failsafe-plugin": true, "maven-compiler-plugin": true}

// pomTestPatterns reads the include and exclude patterns of a pom's test
// plugins; those of other plugins (spotless's formatter excludes, a
// resource's includes) select no tests:
//
//	<plugin>
//	  <artifactId>maven-surefire-plugin</artifactId>
//	  <configuration><excludes><exclude>**/SlowTest.java</exclude></excludes></configuration>
//	</plugin>
//
// See https://maven.apache.org/surefire/maven-surefire-plugin/test-mojo.html#excludes.
func pomTestPatterns(data []byte) (map[string][]string, error) {
	var root pomNode
	if err := xml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	var collect func(n *pomNode, compiler bool)
	collect = func(n *pomNode, compiler bool) {
		for i := range n.Nodes {
			c := &n.Nodes[i]
			name := c.XMLName.Local
			switch {
			case !compiler && (name == "include" || name == "exclude"):
				out[name] = append(out[name], strings.TrimSpace(c.Text))
			case compiler && (name == "testInclude" || name == "testExclude"):
				k := "include"
				if name == "testExclude" {
					k = "exclude"
				}
				out[k] = append(out[k], strings.TrimSpace(c.Text))
			}
			collect(c, compiler)
		}
	}
	var walk func(n *pomNode)
	walk = func(n *pomNode) {
		for i := range n.Nodes {
			c := &n.Nodes[i]
			if c.XMLName.Local == "plugin" {
				art := c.child("artifactId").text()
				if testPlugins[art] {
					collect(c, art == "maven-compiler-plugin")
				}
				continue
			}
			walk(c)
		}
	}
	walk(&root)
	return out, nil
}
