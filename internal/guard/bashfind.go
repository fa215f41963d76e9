package guard

import (
	"os"
	"path/filepath"
	"strings"
)

// find judges find with -delete, or -exec/-execdir/-ok running a command on
// what it matches: the command is judged as if run on the matched test files.
func (s *shellCheck) find(args []arg, depth int) {
	matches := []string(nil)
	computed := false
	for i := 0; i < len(args); i++ {
		switch args[i].val {
		case "-delete":
			if !computed {
				matches, computed = s.findMatches(args), true
			}
			if len(matches) > 0 {
				s.deny("find -delete would delete the test file%s %s. Keep the tests and fix the code they check.", plural(len(matches)), list(matches))
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			var cmd []arg
			for ; j < len(args) && args[j].val != ";" && args[j].val != "+"; j++ {
				cmd = append(cmd, args[j])
			}
			i = j
			if len(cmd) == 0 {
				continue
			}
			if !computed {
				matches, computed = s.findMatches(args), true
			}
			if len(matches) == 0 {
				continue
			}
			var run []arg
			for _, a := range cmd {
				if strings.Contains(a.val, "{}") {
					for _, m := range matches {
						run = append(run, arg{val: strings.ReplaceAll(a.val, "{}", m), dyn: a.dyn})
					}
					continue
				}
				run = append(run, a)
			}
			s.argv(run, nil, depth)
		}
	}
}

// findMatches simulates find's name tests over its start paths and returns
// the test files it would act on (at most 20). Tests it cannot simulate
// (-regex, -newer, ...) are taken as matching.
func (s *shellCheck) findMatches(args []arg) []string {
	var starts []arg
	i := 0
	for ; i < len(args); i++ {
		v := args[i].val
		if strings.HasPrefix(v, "-") || v == "(" || v == "!" {
			break
		}
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []arg{{val: "."}}
	}
	type test struct {
		kind, pat string
		neg       bool
	}
	var tests []test
	or := false
	neg := false
	for ; i < len(args); i++ {
		v := args[i].val
		switch v {
		case "-o", "-or":
			or = true
		case "!", "-not":
			neg = true
			continue
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			if i+1 < len(args) {
				i++
				tests = append(tests, test{kind: v, pat: args[i].val, neg: neg})
			}
		case "-type":
			if i+1 < len(args) {
				i++
				tests = append(tests, test{kind: v, pat: args[i].val, neg: neg})
			}
		}
		neg = false
	}
	match := func(rel, name string, isDir bool) bool {
		any := false
		for _, t := range tests {
			var ok bool
			switch t.kind {
			case "-name":
				ok, _ = filepath.Match(t.pat, name)
			case "-iname":
				ok, _ = filepath.Match(strings.ToLower(t.pat), strings.ToLower(name))
			case "-path", "-wholename":
				ok = globPath(t.pat, rel)
			case "-ipath", "-iwholename":
				ok = globPath(strings.ToLower(t.pat), strings.ToLower(rel))
			case "-type":
				ok = (t.pat == "d") == isDir
			}
			if t.neg {
				ok = !ok
			}
			if or && ok {
				return true
			}
			if !or && !ok {
				return false
			}
			any = any || ok
		}
		return !or || any || len(tests) == 0
	}
	var out []string
	for _, st := range starts {
		if st.dyn {
			// Unknown start: judge the name patterns alone.
			for _, t := range tests {
				if !t.neg && (t.kind == "-name" || t.kind == "-iname") && isTestPath(t.pat) {
					out = append(out, t.pat)
				}
			}
			continue
		}
		root := s.resolve(st.val)
		if !root.Inside() && root.Real != s.g.WS.realRoot {
			continue
		}
		s.walk(root.Real, &out, func(p, rel string, ok bool, d os.DirEntry) error {
			// find prints paths as start + the rest.
			shown := filepath.ToSlash(filepath.Join(st.val, strings.TrimPrefix(p, root.Real)))
			if !match(shown, d.Name(), d.IsDir()) {
				return nil
			}
			if !ok {
				return nil
			}
			if d.IsDir() {
				sub := s.testsUnder(Target{Real: p, Rel: rel}, true)
				out = append(out, sub...)
				return filepath.SkipDir
			}
			if s.g.WS.IsTest(rel) {
				out = append(out, shown)
			}
			return nil
		})
	}
	return out
}

// globPath matches find's -path pattern, where * also matches /.
func globPath(pat, p string) bool {
	ok, _ := filepath.Match(strings.ReplaceAll(pat, "/", "\x00"), strings.ReplaceAll(p, "/", "\x00"))
	return ok
}
