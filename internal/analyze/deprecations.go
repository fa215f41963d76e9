package analyze

import (
	"bytes"
	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// A deprecated API is removed in two steps: first production code warns its
// users (depd's deprecate('res.json(obj, status): Use ... instead'),
// warnings.warn("'app.env' is deprecated", DeprecationWarning), a
// "// Deprecated:" comment, @Deprecated, #[deprecated]), then a release
// removes the API with its notice, and the tests that used it that way go
// with it. retiredAPIs reads the notices a change removed from production
// code; a deleted test whose name calls the API as the notice writes it
// (".json(object, status)" for res.json(obj, status)) was about it.

// retired is an API whose deprecation notice the change removed.
type retired struct {
	name  string // as the notice writes it: "res.json", "app.router", "NewApp"
	arity int    // the arguments of the call the notice writes, -1 for none
	file  string // the production file it was removed from
	// notice is what must be gone from every new version for the API to
	// be retired: the notice's text, or the name of the declaration.
	notice string
}

var (
	// apiToken is a name in a notice that reads as code: dotted, or
	// called (res.json(obj, status), 'app.router', OldName()).
	apiToken = lazyre.New(`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(([^()]*)\))?`)
	// declared is a declaration's name at the start of a line: Go's func
	// (and method), def, function, class, Rust's fn, `a.b = `
	// assignments, and a Java method (modifiers, a type, the name and its
	// parenthesis).
	declared = lazyre.New(`^\s*(?:(?:export\s+)?(?:async\s+)?(?:func(?:\s*\([^)]*\))?|def|function|class|(?:pub(?:\([\w:]+\))?\s+)?fn)\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\s*=[^=]|(?:(?:public|protected|private|static|final|abstract|synchronized|default)\s+)+[\w.<>\[\]?, ]*?\s*([A-Za-z_$][\w$]*)\s*\()`)
)

// retiredAPIs returns the APIs whose deprecation notices the change removed
// from production code and added nowhere (a notice moved with its code is
// not retired).
func retiredAPIs(pairs []*pair) []retired {
	added := newProduction(pairs)
	var out []retired
	for _, pr := range pairs {
		oldData, newData, inTest, ok := pr.production()
		if !ok || !bytes.Contains(oldData, []byte("eprecat")) && !bytes.Contains(oldData, []byte("EPRECAT")) {
			continue
		}
		lines := strings.Split(string(oldData), "\n")
		gone := removedLines(lines, newData)
		for i, l := range lines {
			if !gone[i] || inTest(i+1) || !strings.Contains(strings.ToLower(l), "deprecat") {
				continue
			}
			for _, r := range noticeNames(lines, gone, i) {
				if !mentionedIn(added, r.notice) {
					r.file = pr.fc.OldPath
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// production returns the old and new production versions of a changed
// file (ok false when it had no old one) and which lines of the old one
// belong to its tests (a Rust file's test module): those are not the
// production code's words.
func (pr *pair) production() (oldData, newData []byte, inTest func(line int) bool, ok bool) {
	var tests []testscan.TestCase
	for _, v := range pr.versions() {
		if v.old {
			oldData, ok = v.data, true
			tests = v.sd.facts.Tests
		} else {
			newData = v.data
		}
	}
	inTest = func(line int) bool {
		for i := range tests {
			if line >= tests[i].Line && line <= tests[i].EndLine {
				return true
			}
		}
		return false
	}
	return oldData, newData, inTest, ok
}

// removedLines marks the lines of the old version that the new one does not
// have (as a multiset: a line kept once of twice is removed once).
func removedLines(lines []string, newData []byte) []bool {
	have := map[string]int{}
	for _, l := range strings.Split(string(newData), "\n") {
		have[strings.TrimSpace(l)]++
	}
	gone := make([]bool, len(lines))
	for i, l := range lines {
		k := strings.TrimSpace(l)
		if have[k] > 0 {
			have[k]--
			continue
		}
		gone[i] = true
	}
	return gone
}

// noticeNames reads the API a removed notice on line i is about: the first
// name in its text that reads as code, on the line or the removed lines
// right around it (a Python warn's message on the line above its
// DeprecationWarning); else the declaration it is on or that follows it
// (`app.del = deprecate.function(...)`, a "// Deprecated:" comment over
// func OldName).
func noticeNames(lines []string, gone []bool, i int) []retired {
	for _, j := range []int{i, i - 1, i + 1, i - 2, i + 2} {
		if j < 0 || j >= len(lines) || !gone[j] {
			continue
		}
		for _, lit := range quotedTexts(lines[j]) {
			for _, m := range apiToken.FindAllStringSubmatchIndex(lit, -1) {
				tok := lit[m[0]:m[1]]
				called := m[2] >= 0
				name, _, _ := strings.Cut(tok, "(")
				if !called && !strings.Contains(name, ".") {
					continue // a word of the message
				}
				arity := -1
				if called {
					arity = countArgs(lit[m[2]:m[3]])
				}
				return []retired{{name: name, arity: arity, notice: lit}}
			}
		}
	}
	for j := i; j < len(lines) && j <= i+6 && gone[j]; j++ {
		if m := declared.FindStringSubmatch(lines[j]); m != nil {
			name := m[1] + m[2] + m[3]
			return []retired{{name: name, arity: -1, notice: name}}
		}
	}
	return nil
}

// quotedTexts returns the contents of the string literals of a line.
func quotedTexts(l string) []string {
	var out []string
	literalSpans(l, func(start, end int) {
		out = append(out, l[start+1:min(end, len(l))])
	})
	return out
}

// countArgs counts the arguments of a call's argument text.
func countArgs(s string) int {
	if strings.TrimSpace(s) == "" {
		return 0
	}
	return strings.Count(s, ",") + 1
}

func mentionedIn(data [][]byte, name string) bool {
	for _, d := range data {
		if bytes.Contains(d, []byte(name)) {
			return true
		}
	}
	return false
}

// retiredSubject returns the retired API a deleted test's name calls as its
// notice wrote it ("res > .json(object, status) > ..." for res.json(obj,
// status), "app.del() > ..." for app.del), nil when there is none.
func retiredSubject(id string, apis []retired) *retired {
	for _, r := range apis {
		last := r.name[strings.LastIndexByte(r.name, '.')+1:]
		if !strings.Contains(r.name, ".") {
			if k := lowerAlnum(last); len(k) >= 4 && strings.Contains(lowerAlnum(id), k) {
				return &r
			}
			continue
		}
		if !strings.Contains(id, ".") {
			// An identifier's name (test_get_env, TestAppEnv) names the
			// API by its last part, as one of its words.
			if len(last) >= 3 && slices.Contains(idWords(id), strings.ToLower(last)) {
				return &r
			}
			continue
		}
		for from := 0; ; {
			k := strings.Index(id[from:], "."+last)
			if k < 0 {
				break
			}
			at := from + k + 1 + len(last)
			from = at
			if at < len(id) && ci.IsIdentByte(id[at]) {
				continue // .delete for .del
			}
			if r.arity < 0 {
				return &r
			}
			if at < len(id) && id[at] == '(' {
				if end := strings.IndexByte(id[at:], ')'); end > 0 && countArgs(id[at+1:at+end]) == r.arity {
					return &r
				}
			}
		}
	}
	return nil
}

// idWords splits a test's id into lower-case words at every character
// that is not a letter or digit and at camel-case humps (TestAppEnv:
// test, app, env).
func idWords(id string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(id); i++ {
		boundary := i == len(id) || !ci.IsIdentByte(id[i]) || id[i] == '_' || id[i] == '$'
		hump := !boundary && i > 0 && id[i] >= 'A' && id[i] <= 'Z' && id[i-1] >= 'a' && id[i-1] <= 'z'
		if (boundary || hump) && start >= 0 {
			out = append(out, strings.ToLower(id[start:i]))
			start = -1
		}
		if !boundary && start < 0 {
			start = i
		}
	}
	return out
}
