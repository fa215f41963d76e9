package guard

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// remove judges rm and its kin: test files and the gate's own files stay.
func (s *shellCheck) remove(name string, args []arg) {
	recursive := name == "unlink"
	var targets []arg
	opts := true
	for _, a := range args {
		switch {
		case opts && a.val == "--":
			opts = false
		case opts && strings.HasPrefix(a.val, "--") && !a.dyn:
			if a.val == "--recursive" {
				recursive = true
			}
		case opts && strings.HasPrefix(a.val, "-") && len(a.val) > 1 && !a.dyn:
			if strings.ContainsAny(a.val, "rR") {
				recursive = true
			}
		default:
			targets = append(targets, a)
		}
	}
	if name == "gio" {
		if len(targets) == 0 || (targets[0].val != "trash" && targets[0].val != "remove") {
			return
		}
		targets, recursive = targets[1:], true
	}
	if name == "trash" || name == "trash-put" || name == "srm" {
		recursive = true
	}
	s.removeTargets(name, targets, recursive)
}

func (s *shellCheck) removeTargets(what string, targets []arg, recursive bool) {
	var tests []string
	for _, a := range targets {
		if a.dyn && len(a.alts) == 0 {
			if base := path.Base(a.val); a.val != "" && isTestPath(base) {
				tests = append(tests, a.val)
			}
			continue
		}
		for _, p := range s.paths(a) {
			t := s.resolve(p)
			if t.Own != "" {
				s.deny("%s would delete %s (%s), which belongs to the gate; leave it to a human.", what, p, t.Own)
				continue
			}
			tests = append(tests, s.testsUnder(t, recursive)...)
		}
	}
	if len(tests) > 0 {
		s.deny("%s would delete the test file%s %s. Keep the tests and fix the code they check; if a test is obsolete, stop and ask a human to approve removing it.", what, plural(len(tests)), list(tests))
	}
}

// move judges mv and git mv: a test file may be renamed among test paths,
// never moved out of them (or out of the repository).
func (s *shellCheck) move(what string, args []arg) {
	var pos []arg
	target := ""
	noTargetDir := false
	opts := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case opts && a.val == "--":
			opts = false
		case opts && (a.val == "-t" || a.val == "--target-directory") && i+1 < len(args):
			i++
			target = args[i].val
		case opts && strings.HasPrefix(a.val, "--target-directory="):
			target = strings.TrimPrefix(a.val, "--target-directory=")
		case opts && (a.val == "-S" || a.val == "--suffix") && i+1 < len(args):
			i++
		case opts && strings.HasPrefix(a.val, "-") && len(a.val) > 1 && !a.dyn:
			if a.val == "-T" || a.val == "--no-target-directory" {
				noTargetDir = true
			}
			if what == "git mv" && (a.val == "-n" || a.val == "--dry-run") {
				return
			}
		default:
			pos = append(pos, a)
		}
	}
	srcs := pos
	if target == "" {
		if len(pos) < 2 {
			return
		}
		srcs, target = pos[:len(pos)-1], pos[len(pos)-1].val
		if pos[len(pos)-1].dyn {
			target = ""
		}
	}
	dest := s.resolve(target)
	if target != "" && dest.Own != "" {
		s.deny("%s would write %s (%s), which belongs to the gate; leave it to a human.", what, target, dest.Own)
	}
	destIsDir := false
	if fi, err := os.Stat(dest.Real); err == nil && fi.IsDir() && !noTargetDir {
		destIsDir = true
	}
	if len(srcs) > 1 || strings.HasSuffix(target, "/") {
		destIsDir = true
	}
	var lost []string
	for _, a := range srcs {
		if a.dyn && len(a.alts) == 0 {
			continue
		}
		for _, p := range s.paths(a) {
			src := s.resolve(p)
			if src.Own != "" {
				s.deny("%s would move %s (%s), which belongs to the gate; leave it to a human.", what, p, src.Own)
				continue
			}
			tests := s.testsUnder(src, true)
			if len(tests) == 0 {
				continue
			}
			if target == "" {
				lost = append(lost, tests...)
				continue
			}
			newBase := dest.Real
			if destIsDir {
				newBase = filepath.Join(dest.Real, filepath.Base(src.Real))
			}
			for _, tf := range tests {
				under, _ := relInside(src.Real, filepath.Join(s.g.WS.realRoot, filepath.FromSlash(tf)))
				np := newBase
				if under != "" {
					np = filepath.Join(newBase, filepath.FromSlash(under))
				}
				rel, ok := relInside(s.g.WS.realRoot, np)
				if !ok || !isTestPath(rel) || s.g.WS.Config.Ignored(rel) {
					lost = append(lost, tf)
				}
			}
		}
	}
	if len(lost) > 0 {
		s.deny("%s would move the test file%s %s out of the test paths, so they would no longer run. Rename a test only to another test file name (foo_test.go, test_foo.py, foo.test.ts); keep the tests and fix the code they check.", what, plural(len(lost)), list(lost))
	}
}

// write judges the commands that write files named in their arguments: the
// gate's own files stay out of reach, and test files are not rewritten in
// place from the shell (truncate, sed -i, perl -i, tee, cp onto them).
func (s *shellCheck) write(name string, args []arg) {
	inPlace := false
	switch name {
	case "truncate", "tee", "patch":
		inPlace = true
	case "sed", "perl":
		for _, a := range args {
			if a.val == "-i" || strings.HasPrefix(a.val, "--in-place") || (strings.HasPrefix(a.val, "-") && !strings.HasPrefix(a.val, "--") && strings.Contains(a.val, "i")) {
				inPlace = true
			}
		}
	}
	var pos []arg
	for i, a := range args {
		if a.dyn && len(a.alts) == 0 {
			continue
		}
		if name == "dd" {
			if v, ok := strings.CutPrefix(a.val, "of="); ok {
				pos = append(pos, arg{val: v})
				inPlace = true
			}
			continue
		}
		if strings.HasPrefix(a.val, "-") {
			if name == "tee" && (a.val == "-a" || a.val == "--append") {
				inPlace = false
			}
			continue
		}
		if (name == "cp" || name == "install" || name == "ln" || name == "rsync") && i != len(args)-1 {
			if name == "ln" {
				// A link to the gate's own file would let a later write
				// through the link reach it.
				for _, p := range s.paths(a) {
					if t := s.resolve(p); t.Own != "" {
						s.deny("ln would link %s (%s), which belongs to the gate; leave it to a human.", p, t.Own)
					}
				}
			}
			continue // only the destination is written
		}
		pos = append(pos, a)
	}
	for _, a := range pos {
		for _, p := range s.paths(a) {
			t := s.resolve(p)
			if t.Own != "" {
				s.deny("%s would change %s (%s), which belongs to the gate; leave it to a human.", name, p, t.Own)
				continue
			}
			if (inPlace || name == "cp" || name == "install" || name == "rsync" || name == "ln") && s.existingTest(t) {
				s.deny("%s would rewrite the test file %s from the shell, where the change cannot be checked; change tests with the Edit or Write tool.", name, t.Rel)
			}
		}
	}
}
