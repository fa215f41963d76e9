package analyze

import (
	"encoding/json"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"path"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A JavaScript test file is its project's test only when the project's
// runner collects it. vitest's e2e fixtures (test/e2e/fixtures/run-mode/
// example.test.ts) are named like tests, but test/e2e's vitest.config.ts
// includes only test/**: they run when a test of the project starts vitest
// on them, never as the project's own tests. So a file of the base whose
// tests are lost is asked what the base's runner configurations say: those
// of its package (the nearest directory with a package.json) and of every
// directory above it. The file counts as collected unless every one of
// them reads and none includes it, no package script or CI file of the
// base names its directory (vitest --root=./fixtures/x), and no package
// runs a runner without a configuration. A fixture's own config (a
// vitest.config.js beside it, below its package) is the config of the
// vitest a test starts there, not of the project's run.

// jsRunnerConfigs are the files vitest reads its configuration from, in
// its order, then jest's.
var jsRunnerConfigs = []string{
	"vitest.config.ts", "vitest.config.mts", "vitest.config.cts", "vitest.config.js", "vitest.config.mjs", "vitest.config.cjs",
	"vite.config.ts", "vite.config.mts", "vite.config.cts", "vite.config.js", "vite.config.mjs", "vite.config.cjs",
}

// jsOtherRunnerFiles are configurations this reader does not follow: a
// directory holding one collects whatever it may.
var jsOtherRunnerFiles = []string{
	"vitest.workspace.ts", "vitest.workspace.js", "vitest.workspace.mts", "vitest.workspace.mjs", "vitest.workspace.json",
	"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json", ".mocharc.js", ".mocharc.cjs",
	".mocharc.json", ".mocharc.yml", ".mocharc.yaml", "ava.config.js", "ava.config.mjs", "ava.config.cjs",
}

// vitestDefaultInclude is vitest's include when a project names none.
const vitestDefaultInclude = "**/*.{test,spec}.?(c|m)[jt]s?(x)"

// dropUncollectedJS takes the tests out of the base side of a JavaScript
// file the base's runners did not collect (see above), when a test of it
// is lost: nothing that ran is lost with them.
func (a *Analyzer) dropUncollectedJS(pairs []*pair, ch Change) {
	if ch.ReadBase == nil || ch.Exists == nil {
		return
	}
	for _, pr := range pairs {
		o := pr.old
		if o == nil || o.facts == nil || o.facts.Lang != testscan.JavaScript || len(o.facts.Tests) == 0 || o.outOfReach != "" || !rustTestsLost(pr) {
			continue
		}
		cfg := jsUncollected(o.path, ch)
		if cfg == "" {
			continue
		}
		f := *o.facts
		f.Tests, f.HelperAssertions = nil, nil
		o.facts = &f
		a.note(o.path, "the base's runner configuration ("+cfg+") does not include it: its tests ran only when a test started a runner on them")
	}
}

// jsUncollected returns the base's runner configuration that leaves the
// file p out, "" when p may be collected.
func jsUncollected(p string, ch Change) string {
	dir := path.Dir(p)
	pkg := ""
	for d := dir; ; d = path.Dir(d) {
		if ch.Exists(path.Join(d, "package.json"), false) {
			pkg = d
			break
		}
		if d == "." || d == "/" {
			return ""
		}
	}
	read := ""
	for d := pkg; ; d = path.Dir(d) {
		for _, f := range jsOtherRunnerFiles {
			if ch.Exists(path.Join(d, f), false) {
				return ""
			}
		}
		runs := false
		if pj := ch.ReadBase(path.Join(d, "package.json")); pj != nil {
			var scripts struct {
				Scripts map[string]string `json:"scripts"`
				Jest    json.RawMessage   `json:"jest"`
			}
			if err := json.Unmarshal(pj, &scripts); err != nil || scripts.Jest != nil {
				return ""
			}
			for _, s := range scripts.Scripts {
				if namesDirOf(s, d, pkg, p, true) {
					return ""
				}
				runs = runs || runsJSRunner(s)
			}
		} else if ch.Exists(path.Join(d, "package.json"), false) {
			return ""
		}
		cfg := ""
		for _, f := range jsRunnerConfigs {
			if c := path.Join(d, f); ch.Exists(c, false) {
				cfg = c
				break
			}
		}
		switch {
		case cfg != "":
			data := ch.ReadBase(cfg)
			if data == nil {
				return ""
			}
			in, ok := vitestIncludes(data, d, p)
			if !ok || in {
				return ""
			}
			if read == "" {
				read = cfg
			}
		case runs:
			return "" // a runner with its defaults: the file's name decides
		}
		if d == "." || d == "/" {
			break
		}
	}
	if read != "" && ch.BaseCI != nil {
		for _, s := range ch.BaseCI() {
			if namesDirOf(string(s.Data), ".", pkg, p, false) {
				return ""
			}
		}
	}
	return read
}

// runnerWord matches a script that starts a JavaScript test runner.
var runnerWord = lazyre.New(`(^|[\s;&|(/])(vitest|jest|mocha|ava|jasmine|tap|node\s+--test)(\s|$|[;&|)])`)

func runsJSRunner(script string) bool { return runnerWord.MatchString(script) }

// runnerConfigName matches the file name of a runner's configuration.
var runnerConfigName = lazyre.New(`^(vitest|vite|jest)\.(config|workspace)\.[cm]?[jt]s$`)

// namesDirOf reports whether text (a package script run in dir, or with
// script false a CI file run at the repository's root, dir ".") names a directory that holds
// p below its package pkg (a runner pointed at it: --root=./fixtures/x,
// --dir fixtures, a config file under it), or another configuration than
// the one read (a runner script's --config, a vitest.config.* of the
// package named): the package's own
// directory is where its runner starts anyway.
func namesDirOf(text, dir, pkg, p string, script bool) bool {
	runner := script && runsJSRunner(text)
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '=' || r == '"' || r == '\'' || r == ',' || r == ';' || r == '`' || r == '(' || r == ')'
	}) {
		if (w == "--config" || w == "-c" || w == "--workspace") && runner {
			return true // another configuration than the one read
		}
		if runnerConfigName.MatchString(path.Base(w)) && (pkg == "." || strings.HasPrefix(path.Join(dir, w), pkg+"/")) {
			return true
		}
		if strings.ContainsAny(w, "$*{") {
			continue
		}
		d := path.Join(dir, w)
		if path.Ext(w) != "" {
			d = path.Dir(d)
		}
		if d != pkg && strings.HasPrefix(p, d+"/") && (pkg == "." || strings.HasPrefix(d, pkg+"/")) {
			return true
		}
	}
	return false
}

// vitestIncludes reports whether the vitest configuration data, in
// directory dir, collects the file p in one of its projects; ok is false
// when the configuration does not read (an include built at run time,
// projects named by a glob, a root it cannot place, another config merged
// in).
func vitestIncludes(data []byte, dir, p string) (in, ok bool) {
	toks, err := jsTokens(string(data))
	if err != nil {
		return false, false
	}
	consts := map[string][]string{}
	for i := 0; i+3 < len(toks); i++ {
		if (toks[i].text == "const" || toks[i].text == "let" || toks[i].text == "var") && !toks[i].str && toks[i+2].text == "=" && toks[i+3].text == "[" && !toks[i+3].str {
			if vals, _, ok := jsArray(toks, i+3, consts); ok {
				consts[toks[i+1].text] = vals
			}
		}
	}
	var tests [][2]int // the test: { .. } objects, by their braces
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if t.str {
			continue
		}
		switch t.text {
		case "mergeConfig", "defineWorkspace":
			return false, false
		case "require", "import":
			if toks[i+1].text == "(" {
				return false, false // another file read at run time
			}
		case "root":
			if toks[i+1].text == ":" && !inAny(tests, i) && !inTestLater(toks, i) {
				return false, false // vite's root moves every project
			}
		case "extends":
			if toks[i+1].text == ":" && toks[i+2].text != "true" {
				return false, false
			}
		case "test":
			if toks[i+1].text == ":" && !toks[i+1].str && toks[i+2].text == "{" && !toks[i+2].str {
				end := closeTok(toks, i+2)
				if end < 0 {
					return false, false
				}
				tests = append(tests, [2]int{i + 2, end})
			}
		}
	}
	if len(tests) == 0 {
		return matchesAny([]string{vitestDefaultInclude}, dir, p)
	}
	var rootInclude []string
	collectors := 0
	for k, span := range tests {
		keys := directKeys(toks, span)
		if _, has := keys["projects"]; has {
			if _, has := keys["workspace"]; has {
				return false, false
			}
			j := keys["projects"]
			if toks[j].text != "[" || toks[j].str {
				return false, false
			}
			// A project named by a path or a glob of configs, or built
			// by a call, is not read.
			for _, x := range elements(toks, j) {
				if toks[x].text != "{" || toks[x].str {
					return false, false
				}
			}
			if k == 0 {
				if inc, has := keys["include"]; has {
					vals, ok := includeValues(toks, inc, consts)
					if !ok {
						return false, false
					}
					rootInclude = vals
				}
			}
			continue
		}
		if _, has := keys["dir"]; has {
			return false, false
		}
		collectors++
		root := dir
		if r, has := keys["root"]; has {
			rel, ok := rootValue(toks, r)
			if !ok {
				return false, false
			}
			root = path.Join(dir, rel)
		}
		var include []string
		for x := span[0]; x < span[1]; x++ {
			if toks[x].text == "include" && !toks[x].str && toks[x+1].text == ":" && !nestedTest(tests, k, x) {
				vals, ok := includeValues(toks, x+2, consts)
				if !ok {
					return false, false
				}
				include = append(include, vals...)
			}
		}
		if _, has := keys["include"]; !has {
			if rootInclude != nil {
				include = append(include, rootInclude...)
			} else {
				include = append(include, vitestDefaultInclude)
			}
		}
		in, ok := matchesAny(include, root, p)
		if !ok || in {
			return in, ok
		}
	}
	if collectors == 0 {
		return false, false
	}
	return false, true
}

// elements returns the first token of each element of the array at i.
func elements(toks []jsTok, i int) []int {
	end := closeTok(toks, i)
	var out []int
	depth := 0
	for x := i + 1; x < end; x++ {
		if depth == 0 && (toks[x-1].text == "[" || toks[x-1].text == ",") && !toks[x-1].str && toks[x].text != "]" {
			out = append(out, x)
		}
		if !toks[x].str {
			switch toks[x].text {
			case "{", "[", "(":
				depth++
			case "}", "]", ")":
				depth--
			}
		}
	}
	return out
}

// inAny reports whether token x lies inside one of the spans.
func inAny(spans [][2]int, x int) bool {
	for _, s := range spans {
		if x > s[0] && x < s[1] {
			return true
		}
	}
	return false
}

// inTestLater reports whether token x lies inside a test: { .. } object
// that opens before it (the spans are found in one pass, so one that
// opened before x may not be recorded yet when x is read).
func inTestLater(toks []jsTok, x int) bool {
	depth := 0
	for j := x - 1; j >= 0; j-- {
		if toks[j].str {
			continue
		}
		switch toks[j].text {
		case "}", "]", ")":
			depth++
		case "{", "[", "(":
			if depth > 0 {
				depth--
				continue
			}
			if toks[j].text == "{" && j >= 2 && toks[j-1].text == ":" && toks[j-2].text == "test" && !toks[j-2].str {
				return true
			}
		}
	}
	return false
}

// nestedTest reports whether token x lies in a test object nested in the
// k-th (a project's, read on its own).
func nestedTest(tests [][2]int, k, x int) bool {
	for j, s := range tests {
		if j != k && s[0] > tests[k][0] && s[1] < tests[k][1] && x > s[0] && x < s[1] {
			return true
		}
	}
	return false
}

// includeValues reads an include list at toks[i]: its globs, ok false when
// one is not a string.
func includeValues(toks []jsTok, i int, consts map[string][]string) ([]string, bool) {
	var vals []string
	switch {
	case toks[i].text == "[" && !toks[i].str:
		v, _, ok := jsArray(toks, i, consts)
		if !ok {
			return nil, false
		}
		vals = v
	case toks[i].str:
		vals = []string{toks[i].text}
	case consts[toks[i].text] != nil:
		vals = consts[toks[i].text]
	default:
		return nil, false
	}
	for _, v := range vals {
		if strings.HasPrefix(v, "?") || strings.HasPrefix(v, "...") {
			return nil, false
		}
	}
	return vals, true
}

// rootValue reads a project's root: a string, or path.join / path.resolve
// of import.meta.dirname (or __dirname) and strings; the path relative to
// the config's directory.
func rootValue(toks []jsTok, i int) (string, bool) {
	if toks[i].str {
		return toks[i].text, !path.IsAbs(toks[i].text)
	}
	switch toks[i].text {
	case "path.join", "path.resolve", "join", "resolve", "resolvePath":
	default:
		return "", false
	}
	if toks[i+1].text != "(" {
		return "", false
	}
	end := closeTok(toks, i+1)
	if end < 0 {
		return "", false
	}
	var parts []string
	for x := i + 2; x < end; x++ {
		t := toks[x]
		switch {
		case t.str:
			if path.IsAbs(t.text) {
				return "", false
			}
			parts = append(parts, t.text)
		case t.text == ",":
		case x == i+2 && (t.text == "import.meta.dirname" || t.text == "__dirname"):
		default:
			return "", false
		}
	}
	return path.Join(parts...), true
}

// directKeys returns the keys of the object whose braces span holds, at
// its own level, each with the index of its value's first token.
func directKeys(toks []jsTok, span [2]int) map[string]int {
	keys := map[string]int{}
	depth := 0
	for x := span[0] + 1; x < span[1]; x++ {
		t := toks[x]
		if !t.str {
			switch t.text {
			case "{", "[", "(":
				depth++
				continue
			case "}", "]", ")":
				depth--
				continue
			}
		}
		if depth == 0 && x+1 < span[1] && toks[x+1].text == ":" && !toks[x+1].str && (toks[x-1].text == "{" || toks[x-1].text == ",") {
			keys[t.text] = x + 2
		}
	}
	return keys
}

// closeTok returns the index of the token closing the bracket at i.
func closeTok(toks []jsTok, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		if toks[j].str {
			continue
		}
		switch toks[j].text {
		case "{", "[", "(":
			depth++
		case "}", "]", ")":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// matchesAny reports whether p, relative to root, matches one of the globs.
func matchesAny(globs []string, root, p string) (bool, bool) {
	rel := p
	if root != "." && root != "" {
		if !strings.HasPrefix(p, root+"/") {
			return false, true
		}
		rel = strings.TrimPrefix(p, root+"/")
	}
	for _, g := range globs {
		re, err := globRegexp(g)
		if err != nil {
			return false, false
		}
		if re.MatchString(rel) {
			return true, true
		}
	}
	return false, true
}
