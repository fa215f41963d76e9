package guard

import (
	"strings"
)

// gitGlobalWithValue are git's options before the subcommand that take the
// next word.
var gitGlobalWithValue = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true, "--config-env": true, "--exec-path": true, "--super-prefix": true, "--list-cmds": true, "--attr-source": true}

// git judges a git command line.
func (s *shellCheck) git(args []arg, depth int) {
	cwd := s.cwd
	defer func() { s.cwd = cwd }()
	for len(args) > 0 && strings.HasPrefix(args[0].val, "-") {
		o, v, hasV := strings.Cut(args[0].val, "=")
		if !hasV && gitGlobalWithValue[o] && len(args) > 1 {
			v, hasV = args[1].val, true
			args = args[1:]
		}
		switch o {
		case "-C":
			s.cwd = s.resolve(v).Abs
		case "-c", "--config-env":
			key, val, _ := strings.Cut(v, "=")
			if strings.EqualFold(key, "core.hooksPath") {
				s.deny("git -c core.hooksPath=... skips the repository's git hooks; run git without it and fix what the hooks report.")
			}
			if l := strings.ToLower(key); strings.HasPrefix(l, "alias.") && strings.HasPrefix(val, "!") {
				s.script(val[1:], depth+1)
			}
		}
		args = args[1:]
	}
	if len(args) == 0 || args[0].dyn {
		return
	}
	sub, rest := args[0].val, args[1:]
	if sub != "commit" && sub != "push" && hasWord(rest, "--no-verify") {
		s.deny("git %s --no-verify skips the repository's git hooks; run it without --no-verify and fix what the hooks report.", sub)
	}
	switch sub {
	case "rm":
		s.gitRm(rest)
	case "mv":
		s.move("git mv", rest)
	case "commit":
		s.gitCommit(rest)
	case "push":
		s.gitPush(rest)
	case "config":
		s.gitConfig(rest)
	case "tag":
		s.gitTag(rest)
	case "update-ref":
		for _, a := range rest {
			if isLoopTag(a.val) {
				s.deny("git update-ref on %s rewrites the loop's iteration tags, which only ralph-gate writes.", a.val)
			}
		}
	case "reset":
		s.gitReset(rest)
	}
}

// gitRm judges git rm (a dry run changes nothing).
func (s *shellCheck) gitRm(args []arg) {
	recursive := false
	var targets []arg
	opts := true
	for _, a := range args {
		switch {
		case opts && a.val == "--":
			opts = false
		case opts && (a.val == "-n" || a.val == "--dry-run"):
			return
		case opts && strings.HasPrefix(a.val, "--"):
			if a.val == "--recursive" {
				recursive = true
			}
		case opts && strings.HasPrefix(a.val, "-") && len(a.val) > 1:
			if strings.Contains(a.val, "r") {
				recursive = true
			}
			if strings.Contains(a.val, "n") {
				return
			}
		default:
			targets = append(targets, a)
		}
	}
	s.removeTargets("git rm", targets, recursive)
}

// gitCommit denies commit --no-verify and -n, also inside a cluster of short
// options (-an) and abbreviated (--no-veri), as git's option parser takes them.
func (s *shellCheck) gitCommit(args []arg) {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if args[i].dyn {
			continue
		}
		if v == "--" {
			return
		}
		if strings.HasPrefix(v, "--") {
			name, _, _ := strings.Cut(v, "=")
			if len(name) >= len("--no-veri") && strings.HasPrefix("--no-verify", name) {
				s.denyNoVerify("commit")
			}
			switch name {
			case "--message", "--file", "--reuse-message", "--reedit-message", "--template", "--author", "--date", "--fixup", "--squash", "--cleanup", "--trailer", "--pathspec-from-file":
				if !strings.Contains(v, "=") {
					i++
				}
			}
			continue
		}
		if !strings.HasPrefix(v, "-") || len(v) < 2 {
			continue
		}
		cluster := v[1:]
	short:
		for j := 0; j < len(cluster); j++ {
			switch cluster[j] {
			case 'n':
				s.denyNoVerify("commit")
			case 'm', 'F', 'C', 'c', 't':
				if j == len(cluster)-1 {
					i++ // the value is the next word
				}
				break short
			case 'S', 'u':
				break short // optional value attached
			}
		}
	}
}

func (s *shellCheck) denyNoVerify(sub string) {
	s.deny("git %s --no-verify (-n) skips the repository's git hooks; commit without it and fix what the hooks report.", sub)
}

// gitPush denies force pushes (however spelled), --no-verify, and deleting
// or overwriting the loop's tags on the remote.
func (s *shellCheck) gitPush(args []arg) {
	pos := 0
	deleting := false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if args[i].dyn {
			continue
		}
		switch {
		case strings.HasPrefix(v, "--"):
			name, _, _ := strings.Cut(v, "=")
			switch {
			case len(name) >= len("--no-v") && strings.HasPrefix("--no-verify", name):
				s.denyNoVerify("push")
			case name == "--force" || name == "--force-with-lease" || name == "--force-if-includes" || len(name) >= len("--forc") && strings.HasPrefix("--force", name):
				s.denyForce()
			case name == "--mirror":
				s.deny("git push --mirror overwrites every ref on the remote; push the branch instead.")
			case name == "--delete":
				deleting = true
			case name == "--repo" || name == "--receive-pack" || name == "--exec" || name == "--push-option":
				if !strings.Contains(v, "=") {
					i++
				}
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			cluster := v[1:]
			for j := 0; j < len(cluster); j++ {
				switch cluster[j] {
				case 'f':
					s.denyForce()
				case 'd':
					deleting = true
				case 'o':
					if j == len(cluster)-1 {
						i++
					}
					j = len(cluster)
				}
			}
		default:
			pos++
			if pos == 1 {
				continue // the remote
			}
			if strings.HasPrefix(v, "+") {
				s.denyForce()
			}
			src, dst, hasColon := strings.Cut(v, ":")
			if hasColon && src == "" || deleting {
				name := dst
				if !hasColon {
					name = v
				}
				if isLoopTag(name) || isLoopTag("refs/tags/"+name) {
					s.deny("git push would delete the loop's tag %s on the remote; those tags belong to ralph-gate.", name)
				}
			}
		}
	}
}

func (s *shellCheck) denyForce() {
	s.deny("a force push (--force, -f, --force-with-lease, +refspec) rewrites shared history; push new commits on top instead (git pull --rebase first if the remote moved).")
}

// gitConfig denies setting core.hooksPath.
func (s *shellCheck) gitConfig(args []arg) {
	var pos []string
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-f" || v == "--file" || v == "--blob" || v == "--type" || v == "--default" || v == "--comment" || v == "--value":
			i++
		case strings.HasPrefix(v, "--get") || strings.HasPrefix(v, "--unset") || v == "-l" || v == "--list" || v == "--remove-section" || v == "--rename-section":
			return
		case strings.HasPrefix(v, "-"):
		default:
			pos = append(pos, v)
		}
	}
	if len(pos) > 0 && (pos[0] == "get" || pos[0] == "unset" || pos[0] == "list") {
		return
	}
	if len(pos) > 0 && pos[0] == "set" {
		pos = pos[1:]
	}
	if len(pos) >= 2 && strings.EqualFold(pos[0], "core.hooksPath") {
		s.deny("git config core.hooksPath points git away from the repository's hooks; leave it alone and fix what the hooks report.")
	}
}

// gitTag denies creating, moving or deleting the loop's ralph/* tags.
func (s *shellCheck) gitTag(args []arg) {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-l" || v == "--list" || v == "-v" || v == "--verify" || strings.HasPrefix(v, "--contains") || strings.HasPrefix(v, "--points-at") || strings.HasPrefix(v, "--merged") || strings.HasPrefix(v, "--no-merged"):
			return
		case v == "-m" || v == "-F" || v == "-u" || v == "--message" || v == "--file" || v == "--local-user" || v == "--cleanup":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			if isLoopTag("refs/tags/" + v) {
				s.deny("git tag %s would create, move or delete one of the loop's tags (ralph/*), which only ralph-gate writes.", v)
			}
			return
		}
	}
}

func isLoopTag(ref string) bool {
	ref = strings.TrimPrefix(ref, "+")
	return strings.HasPrefix(ref, "refs/tags/ralph/") || strings.HasPrefix(ref, "tags/ralph/")
}

// gitReset denies moving HEAD to a commit the loop's baseline does not lead
// to: that drops the loop's recorded iterations.
func (s *shellCheck) gitReset(args []arg) {
	var pos []arg
	for i, a := range args {
		if a.val == "--" {
			if i+1 < len(args) {
				return // paths: only the index changes
			}
			break
		}
		if a.val == "-p" || a.val == "--patch" {
			return
		}
		if strings.HasPrefix(a.val, "-") {
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) != 1 || pos[0].dyn || s.g.Loop == nil {
		return
	}
	before, base, err := s.g.Loop.BeforeBaseline(pos[0].val)
	if err != nil || !before {
		return
	}
	s.deny("git reset to %s moves the branch to before the loop's baseline (%s) and drops its recorded iterations; to go back to an earlier iteration, stop and ask a human (ralph-gate reject restores one).", pos[0].val, base)
}
