package analyze

import (
	"encoding/json"
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
)

// A JavaScript runner configuration (vitest.config.ts, jest.config.js)
// read as far as its collection lists: the arrays of its include and
// exclude properties, with the names they spread resolved to the arrays
// the file declares:
//
//	const serialTests = ['test/git-changed.test.ts']
//	export default defineConfig({ test: { projects: [
//	  { test: { name: 'main', exclude: [...defaultExclude, ...serialTests] } },
//	  { test: { name: 'serial', include: serialTests } },
//	] } })
//
// An exclusion that another project of the file includes, or that names
// a directory this change adds (a new fixture tree), takes no test out.

// jsSelection is what a config's include and exclude lists hold: string
// literals, and for what is not one, its source ("...defaultExclude").
type jsSelection struct {
	include, exclude map[string]bool
}

// jsTok is a token of a configuration file: a string's value (str set),
// or an identifier or punctuation's text.
type jsTok struct {
	text string
	str  bool
}

func jsTokens(src string) ([]jsTok, error) {
	var out []jsTok
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil, errors.New("unterminated comment")
			}
			i += j + 4
		case c == '\'' || c == '"' || c == '`':
			var b strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				if c != '`' && src[j] == '\n' {
					return nil, errors.New("unterminated string")
				}
				b.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, errors.New("unterminated string")
			}
			s := b.String()
			if c == '`' && strings.Contains(s, "${") {
				out = append(out, jsTok{text: "`" + s + "`"}) // not a literal
			} else {
				out = append(out, jsTok{text: s, str: true})
			}
			i = j + 1
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] == '$' || src[j] == '.' && j+1 < len(src) && src[j+1] != '.' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			out = append(out, jsTok{text: src[i:j]})
			i = j
		case strings.HasPrefix(src[i:], "..."):
			out = append(out, jsTok{text: "..."})
			i += 3
		default:
			out = append(out, jsTok{text: string(c)})
			i++
		}
	}
	return out, nil
}

// readJSSelection reads a configuration's include and exclude lists.
func readJSSelection(data []byte) (*jsSelection, error) {
	toks, err := jsTokens(string(data))
	if err != nil {
		return nil, err
	}
	consts := map[string][]string{}
	// The arrays the file declares: const NAME = [ ... ].
	for i := 0; i+3 < len(toks); i++ {
		if (toks[i].text == "const" || toks[i].text == "let" || toks[i].text == "var") && !toks[i].str && toks[i+2].text == "=" && toks[i+3].text == "[" && !toks[i+3].str {
			if vals, _, ok := jsArray(toks, i+3, consts); ok {
				consts[toks[i+1].text] = vals
			}
		}
	}
	sel := &jsSelection{include: map[string]bool{}, exclude: map[string]bool{}}
	for i := 0; i+2 < len(toks); i++ {
		k := toks[i].text
		if (k != "include" && k != "exclude") || toks[i+1].text != ":" || toks[i+1].str {
			continue
		}
		into := sel.include
		if k == "exclude" {
			into = sel.exclude
		}
		v := toks[i+2]
		switch {
		case v.text == "[" && !v.str:
			vals, _, ok := jsArray(toks, i+2, consts)
			if !ok {
				return nil, errors.New("unbalanced array")
			}
			for _, s := range vals {
				into[s] = true
			}
		case v.str:
			into[v.text] = true
		case consts[v.text] != nil:
			for _, s := range consts[v.text] {
				into[s] = true
			}
		default:
			into["?"+v.text] = true
		}
	}
	return sel, nil
}

// jsArray reads the array opening at toks[i]: its string elements, a
// spread or a name of a declared array resolved, anything else by its
// first token; the index after it.
func jsArray(toks []jsTok, i int, consts map[string][]string) ([]string, int, bool) {
	var out []string
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.str {
			if depth == 1 {
				out = append(out, t.text)
			}
			continue
		}
		switch t.text {
		case "[", "{", "(":
			depth++
			if depth > 1 && (j == 0 || toks[j-1].text == "," || toks[j-1].text == "[") {
				out = append(out, "?"+t.text)
			}
		case "]", "}", ")":
			depth--
			if depth == 0 {
				return out, j + 1, true
			}
		case ",", "...":
		default:
			if depth != 1 {
				continue
			}
			if vals, ok := consts[t.text]; ok {
				out = append(out, vals...)
			} else if j > 0 && toks[j-1].text == "..." {
				out = append(out, "..."+t.text)
			} else {
				out = append(out, "?"+t.text)
			}
		}
	}
	return nil, 0, false
}

// runnerDefaults are the names of a runner's own default lists: spreading
// them adds no exclusion.
var runnerDefaults = map[string]bool{"...defaultExclude": true, "...configDefaults.exclude": true, "...defaultInclude": true}

// jsExclusions reports the exclusions a JavaScript runner config added
// that take tests out: false, nil when both sides read and every added
// exclusion is included by another project of the file, is the runner's
// default list, or names a directory the change added (and that did not
// exist at BASE). ok is false when a side does not read.
func jsExclusions(pr *pair, pairs []*pair, exists func(string, bool) bool) (added []string, ok bool) {
	fc := pr.fc
	if fc.Old == nil || fc.New == nil {
		return nil, false
	}
	old, err := readJSSelection(fc.Old)
	if err != nil {
		return nil, false
	}
	cur, err := readJSSelection(fc.New)
	if err != nil {
		return nil, false
	}
	// The exclusions of the configs the change deleted or rewrote, which
	// move with their tests (test/snapshots/vitest.config.ts excluding
	// **/fixtures, folded into a project of test/e2e).
	moved := map[string]bool{}
	for _, o := range pairs {
		if o == pr || o.fc.Old == nil || ci.Classify(o.fc.OldPath) != ci.JSTestConfig {
			continue
		}
		if sel, err := readJSSelection(o.fc.Old); err == nil {
			for e := range sel.exclude {
				moved[e] = true
				if d := patternDir(e); d != "" {
					moved["dir:"+d] = true
				}
			}
		}
	}
	for _, e := range ci.SortedKeys(cur.exclude) {
		if old.exclude[e] || runnerDefaults[e] || cur.include[e] || moved[e] || patternDir(e) != "" && moved["dir:"+patternDir(e)] {
			continue
		}
		if dir := patternDir(e); dir != "" && exists != nil && !exists(dir, false) && addsUnder(dir, pairs) && !hadUnder(dir, pairs) {
			continue // a directory this change adds: nothing in it ran
		}
		added = append(added, e)
	}
	return added, true
}

// patternDir is the directory a glob names ('**/fixtures-trace/**' is
// fixtures-trace; 'test/unit/**' is test/unit), "" when it names none.
func patternDir(p string) string {
	p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "**/")
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/**"), "/")
	if p == "" || strings.ContainsAny(p, "*?[{!") || path.Ext(p) != "" {
		return ""
	}
	return p
}

// addsUnder reports a file the change adds below dir (at any depth of the
// tree: the glob matched it anywhere).
func addsUnder(dir string, pairs []*pair) bool {
	for _, pr := range pairs {
		if pr.fc.OldPath == "" && (strings.HasPrefix(pr.fc.NewPath, dir+"/") || strings.Contains(pr.fc.NewPath, "/"+dir+"/")) {
			return true
		}
	}
	return false
}

// hadUnder reports a file of BASE the change touched below a directory
// of that name: the glob reached files that existed.
func hadUnder(dir string, pairs []*pair) bool {
	for _, pr := range pairs {
		if p := pr.fc.OldPath; p != "" && (strings.HasPrefix(p, dir+"/") || strings.Contains(p, "/"+dir+"/")) {
			return true
		}
	}
	return false
}

// readsJSSelection reports a runner config whose two sides read.
func readsJSSelection(old, new []byte) bool {
	if old == nil || new == nil {
		return false
	}
	_, e1 := readJSSelection(old)
	_, e2 := readJSSelection(new)
	return e1 == nil && e2 == nil
}

// JSSetupFiles reads the setup files a JavaScript runner's configuration
// at cfgPath names (vitest's setupFiles and globalSetup, jest's
// setupFiles, setupFilesAfterEnv and globalSetup; in package.json, its
// "jest" object), as repository paths: code every test runs first, where
// custom matchers (expect.extend) and global hooks live.
func JSSetupFiles(cfgPath string, data []byte) []string {
	dir := path.Dir(cfgPath)
	var vals []string
	if path.Base(cfgPath) == "package.json" {
		var pkg struct {
			Jest map[string]json.RawMessage `json:"jest"`
		}
		if json.Unmarshal(data, &pkg) != nil {
			return nil
		}
		for _, k := range setupKeys {
			var one string
			var many []string
			if json.Unmarshal(pkg.Jest[k], &one) == nil && one != "" {
				vals = append(vals, one)
			} else if json.Unmarshal(pkg.Jest[k], &many) == nil {
				vals = append(vals, many...)
			}
		}
	} else {
		toks, err := jsTokens(string(data))
		if err != nil {
			return nil
		}
		for i := 0; i+2 < len(toks); i++ {
			if toks[i].str || !slices.Contains(setupKeys, toks[i].text) || toks[i+1].text != ":" || toks[i+1].str {
				continue
			}
			switch v := toks[i+2]; {
			case v.str:
				vals = append(vals, v.text)
			case v.text == "[":
				if arr, _, ok := jsArray(toks, i+2, nil); ok {
					vals = append(vals, arr...)
				}
			}
		}
	}
	var out []string
	for _, v := range vals {
		rooted := strings.HasPrefix(v, "<rootDir>/")
		v = strings.TrimPrefix(v, "<rootDir>/")
		if v == "" || strings.HasPrefix(v, "/") || !rooted && !strings.HasPrefix(v, ".") && !strings.Contains(v, "/") {
			continue // a package's module, not a file of the repository
		}
		p := path.Clean(path.Join(dir, v))
		if p != ".." && !strings.HasPrefix(p, "../") && !path.IsAbs(p) {
			out = append(out, p)
		}
	}
	return out
}

var setupKeys = []string{"setupFiles", "setupFilesAfterEnv", "globalSetup"}
