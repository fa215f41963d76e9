package analyze

import "strings"

// Code deleted under its name may live on without it: a helper inlined
// into its one caller (got's urlToOptions, whose object literal moved into
// Request._createCacheableRequest line for line) is not a feature
// removed, and the tests of it that went with it are tests lost. A
// deleted function counts as inlined when most of its code lines are still
// lines of production code after the change.

const (
	// minInlinedLine is how long a line of code must be, trimmed, to tell
	// one function's code from another's (not `}`, `return nil`).
	minInlinedLine = 12
	// minInlinedLines is how many of a function's lines must come back.
	minInlinedLines = 2
)

// withoutInlined deletes from names, and returns, those whose code lives
// on in production code (inlined).
func (u *codeUse) withoutInlined(names map[string]bool) map[string]bool {
	for name := range u.inlined(names) {
		delete(names, name)
	}
	return names
}

// inlined returns, of the deleted names, those whose code lives on in
// production code: at least half of the code lines of their declaration
// (minInlinedLine long; comments and imports left out), and
// minInlinedLines of them, are lines of a new production version of the
// change, in the same file or another. A declaration is its header's line
// and the lines indented deeper below it, with the closing bracket at the
// header's depth (declBody).
func (u *codeUse) inlined(names map[string]bool) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, pr := range u.decls.pairs {
		for _, v := range pr.versions() {
			if !v.old {
				continue
			}
			var lines []string
			for _, f := range v.sd.facts.Funcs {
				keys := funcKeys(f.Name)
				if !anyOf(names, keys) {
					continue
				}
				if lines == nil {
					lines = strings.Split(string(v.data), "\n")
				}
				if u.code == nil {
					u.code = productionCode(u.newVersions())
				}
				if codeCameBack(declBody(lines, f.Line), u.code) {
					for _, key := range keys {
						if names[key] {
							out[key] = true
						}
					}
				}
			}
		}
	}
	return out
}

// declBody returns the lines of the declaration whose header is on line
// (1-based): the header, the lines below it indented deeper (blank ones
// too), and a closing line at the header's depth that starts with a
// closing bracket.
func declBody(lines []string, line int) []string {
	if line < 1 || line > len(lines) {
		return nil
	}
	depth := indent(lines[line-1])
	end := line
	for end < len(lines) {
		l := lines[end]
		if strings.TrimSpace(l) == "" || indent(l) > depth {
			end++
			continue
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "}") || strings.HasPrefix(t, ")") || strings.HasPrefix(t, "end") {
			end++
		}
		break
	}
	return lines[line-1 : end]
}

func indent(l string) int {
	return len(l) - len(strings.TrimLeft(l, " \t"))
}

// funcKeys are the names a function's qualified name is known by among
// deleted names: itself, its last part, and ".last" for a method.
func funcKeys(name string) []string {
	keys := []string{name}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		keys = append(keys, name[i+1:], name[i:])
	}
	return keys
}

func anyOf(set map[string]bool, keys []string) bool {
	for _, k := range keys {
		if set[k] {
			return true
		}
	}
	return false
}

// codeCameBack reports whether at least half of the code lines of body,
// and minInlinedLines of them, are in now.
func codeCameBack(body []string, now map[string]bool) bool {
	code, back := 0, 0
	for _, l := range body {
		k := codeLine(l)
		if k == "" {
			continue
		}
		code++
		if now[k] {
			back++
		}
	}
	return back >= minInlinedLines && 2*back >= code
}

// productionCode is the set of code lines (codeLine) of the change's new
// production versions.
func productionCode(versions [][]byte) map[string]bool {
	out := map[string]bool{}
	for _, data := range versions {
		for _, l := range strings.Split(string(data), "\n") {
			if k := codeLine(l); k != "" {
				out[k] = true
			}
		}
	}
	return out
}

// codeLine is a line of code trimmed of its indentation and of a trailing
// comma or semicolon, "" for a line too short to tell code apart
// (minInlinedLine), a comment's or an import's.
func codeLine(l string) string {
	k := strings.TrimRight(strings.TrimSpace(l), ",;")
	if len(k) < minInlinedLine {
		return ""
	}
	for _, p := range []string{"//", "#", "/*", "*", "import ", "from ", "use "} {
		if strings.HasPrefix(k, p) {
			return ""
		}
	}
	return k
}
