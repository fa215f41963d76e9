package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-gate/ralph-gate/internal/agent"
)

// maxDepth bounds nested scripts (sh -c '...', eval, xargs sh -c) followed.
const maxDepth = 6

// CheckCommand judges a Bash tool call. The command is parsed as the shell
// parses it (mvdan.cc/sh), and every simple command in it is judged, through
// lists, pipes, subshells, command substitutions, functions, sh -c and eval,
// and the wrappers that run another command (env, command, exec, nohup,
// timeout, xargs, find -exec, sudo, ...). Words whose value depends on the
// run time ($VAR, $(...)) are judged by what is known of them.
func (g *Guard) CheckCommand(command string) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = deny("ralph-gate: the command could not be analyzed (%v); run a simpler command", r)
		}
	}()
	return g.checkCommand(command)
}

func (g *Guard) checkCommand(command string) Decision {
	s := &shellCheck{g: g, cwd: g.WS.Cwd}
	s.script(command, 0)
	if len(s.reasons) == 0 {
		return allow()
	}
	return Decision{Deny: true, Reason: "ralph-gate: " + strings.Join(s.reasons, " ")}
}

// shellCheck walks one command line and gathers the reasons to deny it.
type shellCheck struct {
	g       *Guard
	cwd     string
	reasons []string
	seen    map[string]bool
	// producers maps the command at the right of a pipe to the one at its
	// left: what xargs reads.
	producers map[*syntax.Stmt]*syntax.Stmt
	budget    int // directory entries left to walk
	// vars holds the values variables were given earlier in the script.
	vars map[string][]string
}

func (s *shellCheck) deny(format string, args ...any) {
	r := fmt.Sprintf(format, args...)
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[r] {
		s.seen[r] = true
		s.reasons = append(s.reasons, r)
	}
}

// guardedWords are the commands a script that does not parse is refused for:
// the shell would not run it either, but a parser difference must not let
// one of them through.
var guardedWords = []string{"rm", "unlink", "mv", "git", "find", "xargs", "ralph-gate", "sh", "bash", "zsh", "eval", "shred", "truncate", "RALPH_GATE_SKIP"}

func (s *shellCheck) script(src string, depth int) {
	if depth > maxDepth {
		s.deny("the command nests shells more than %d deep; run the inner command directly.", maxDepth)
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		for _, w := range strings.FieldsFunc(src, func(r rune) bool { return strings.ContainsRune(" \t\n;|&()<>'\"`$=\\/", r) }) {
			for _, gw := range guardedWords {
				if w == gw {
					s.deny("the command does not parse as a shell command (%s) and mentions %s; write it so that it parses.", agent.OneLine(err.Error()), gw)
					return
				}
			}
		}
		return
	}
	if s.producers == nil {
		s.producers = map[*syntax.Stmt]*syntax.Stmt{}
		s.vars = map[string][]string{}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				s.producers[x.Y] = x.X
			}
		case *syntax.Stmt:
			s.redirects(x)
			if ce, ok := x.Cmd.(*syntax.CallExpr); ok {
				s.call(ce, s.producers[x], depth)
			}
		case *syntax.DeclClause:
			for _, a := range x.Args {
				if a.Name != nil {
					s.assign(a.Name.Value, a.Value, true)
					s.setVar(a.Name.Value, a.Value)
				}
			}
		case *syntax.Word:
			s.private(x)
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok && it.InPos.IsValid() && it.Name != nil {
				var vals []string
				for _, a := range s.words(it.Items) {
					vals = append(vals, s.paths(a)...)
				}
				s.vars[it.Name.Value] = vals
			}
		}
		return true
	})
}

// arg is one expanded word of a command line.
type arg struct {
	val string
	// dyn says the value is partly unknown ($VAR, $(...)): val holds the
	// known parts only.
	dyn bool
	// glob says the word has unquoted pattern characters.
	glob bool
	// alts are the values a dynamic word is known to take: a for loop's
	// items, an earlier assignment's value, or the test files a command
	// substitution lists.
	alts []string
}

// words expands a command's words: braces, quotes and escapes, as the shell
// would; parameter and command substitutions stay unknown.
func words(ws []*syntax.Word) []arg {
	var out []arg
	for _, w := range ws {
		if w == nil {
			continue
		}
		// SplitBraces rewrites the word it is given: split a copy, so
		// the tree being walked keeps only node types Walk knows.
		cp := *w
		if !syntax.SplitBraces(&cp) || braceCount(&cp) > maxBraceWords {
			out = append(out, word(w))
			continue
		}
		for _, bw := range expand.Braces(&cp) {
			out = append(out, word(bw))
		}
	}
	return out
}

// maxBraceWords bounds a brace expansion: {a,b}{a,b}... doubles with each
// group, and {1..99999999} is one group; such a word is judged unexpanded.
const maxBraceWords = 256

// braceCount is how many words a split word expands to, stopping early
// past maxBraceWords.
func braceCount(w *syntax.Word) int {
	n := 1
	for _, part := range w.Parts {
		b, ok := part.(*syntax.BraceExp)
		if !ok {
			continue
		}
		if b.Sequence {
			return maxBraceWords + 1
		}
		sum := 0
		for _, e := range b.Elems {
			sum += braceCount(e)
			if sum > maxBraceWords {
				return sum
			}
		}
		if sum == 0 {
			sum = 1
		}
		n *= sum
		if n > maxBraceWords {
			return n
		}
	}
	return n
}

func word(w *syntax.Word) arg {
	var a arg
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") {
				a.glob = true
			}
			b.WriteString(literalPart(p))
		case *syntax.SglQuoted:
			b.WriteString(literalPart(p))
		case *syntax.DblQuoted:
			for _, in := range p.Parts {
				if l, ok := in.(*syntax.Lit); ok {
					b.WriteString(literalPart(&syntax.DblQuoted{Parts: []syntax.WordPart{l}}))
				} else {
					a.dyn = true
				}
			}
		default:
			if _, ok := p.(*syntax.ExtGlob); ok {
				a.glob = true
			}
			a.dyn = true
		}
	}
	a.val = b.String()
	return a
}

func literalPart(p syntax.WordPart) string {
	s, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{p}})
	if err != nil {
		if l, ok := p.(*syntax.Lit); ok {
			return l.Value
		}
		return ""
	}
	return s
}

// redirects judges a statement's output redirections: nothing may be written
// to the gate's own files, and an existing test file may not be overwritten
// from the shell, where no analysis sees the new content.
func (s *shellCheck) redirects(st *syntax.Stmt) {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.RdrInOut:
		default:
			continue
		}
		if r.Word == nil {
			continue
		}
		a := s.word(r.Word)
		if a.dyn && len(a.alts) == 0 || a.val == "" && len(a.alts) == 0 {
			continue
		}
		for _, p := range s.paths(a) {
			t := s.resolve(p)
			if t.Own != "" {
				s.deny("the command writes %s (%s), which belongs to the gate and is out of an agent's reach; leave it to a human.", p, t.Own)
				continue
			}
			if (r.Op == syntax.RdrOut || r.Op == syntax.RdrAll || r.Op == syntax.ClbOut) && s.existingTest(t) {
				s.deny("the command overwrites the test file %s from the shell, where its new content cannot be checked; change tests with the Edit or Write tool.", t.Rel)
			}
		}
	}
}

// paths turns a path argument into the paths it names: a glob's matches
// (relative to the cwd), else the word itself.
func (s *shellCheck) paths(a arg) []string {
	if a.dyn && len(a.alts) > 0 {
		var out []string
		for _, v := range a.alts {
			out = append(out, s.paths(arg{val: v, glob: strings.ContainsAny(v, "*?[")})...)
		}
		return out
	}
	if a.glob && !a.dyn {
		pat := a.val
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(s.cwd, pat)
		}
		if m, err := filepath.Glob(pat); err == nil && len(m) > 0 {
			if len(m) > 1000 {
				m = m[:1000]
			}
			return m
		}
	}
	return []string{a.val}
}

func (s *shellCheck) resolve(p string) Target {
	ws := *s.g.WS
	ws.Cwd = s.cwd
	return ws.Resolve(p)
}

func (s *shellCheck) existingTest(t Target) bool {
	if !t.Inside() || !s.g.WS.IsTest(t.Rel) {
		return false
	}
	fi, err := os.Stat(t.Real)
	return err == nil && fi.Mode().IsRegular()
}

// testsUnder returns the test files a path names: itself, or, for a
// directory, the test files below it (a bounded walk that skips ignored
// trees). A path that does not exist is judged by its name.
func (s *shellCheck) testsUnder(t Target, recursive bool) []string {
	if !t.Inside() && (t.Real != s.g.WS.realRoot || s.g.WS.realRoot == "") {
		return nil
	}
	fi, err := os.Stat(t.Real)
	if err != nil || !fi.IsDir() {
		if s.g.WS.IsTest(t.Rel) {
			return []string{t.Rel}
		}
		return nil
	}
	if !recursive {
		return nil
	}
	var out []string
	s.walk(t.Real, &out, func(_, rel string, ok bool, d os.DirEntry) error {
		if ok && !d.IsDir() && s.g.WS.IsTest(rel) {
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// maxWalkFound is how many test files a walk reports at most.
const maxWalkFound = 20

// walk walks root within the shell check's budget of entries, until found
// holds maxWalkFound names, skipping .git and the trees the configuration
// ignores; visit gets each entry with its path relative to the workspace (ok
// is false outside it).
func (s *shellCheck) walk(root string, found *[]string, visit func(p, rel string, ok bool, d os.DirEntry) error) {
	if s.budget == 0 {
		s.budget = 50000
	}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		s.budget--
		if s.budget <= 0 || len(*found) >= maxWalkFound {
			return filepath.SkipAll
		}
		rel, ok := relInside(s.g.WS.realRoot, p)
		if d.IsDir() && (d.Name() == ".git" || ok && s.g.WS.Config.Ignored(rel+"/x")) {
			return filepath.SkipDir
		}
		return visit(p, rel, ok, d)
	})
}

func list(names []string) string {
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(names, ", ")
}

// words expands words as words does, and adds what is known of the dynamic
// ones.
func (s *shellCheck) words(ws []*syntax.Word) []arg {
	var out []arg
	for _, w := range ws {
		for _, a := range words([]*syntax.Word{w}) {
			if a.dyn {
				a.alts = s.alternatives(w)
			}
			out = append(out, a)
		}
	}
	return out
}

func (s *shellCheck) word(w *syntax.Word) arg {
	a := word(w)
	if a.dyn {
		a.alts = s.alternatives(w)
	}
	return a
}

// alternatives returns the values of a word with one dynamic part whose
// values are known: $f of a for loop or an assignment, or $(...) listing
// test files.
func (s *shellCheck) alternatives(w *syntax.Word) []string {
	var parts []syntax.WordPart
	for _, p := range w.Parts {
		if dq, ok := p.(*syntax.DblQuoted); ok {
			parts = append(parts, dq.Parts...)
			continue
		}
		parts = append(parts, p)
	}
	var prefix, suffix strings.Builder
	var vals []string
	dynamic := 0
	for _, p := range parts {
		var known []string
		isDyn := true
		switch x := p.(type) {
		case *syntax.ParamExp:
			if x.Param != nil && x.Exp == nil && x.Slice == nil && x.Repl == nil && x.Index == nil && !x.Length && !x.Excl {
				known = s.vars[x.Param.Value]
			}
		case *syntax.CmdSubst:
			known = s.producedTests(x)
		default:
			isDyn = false
		}
		if !isDyn {
			v := literalPart(p)
			if dynamic == 0 {
				prefix.WriteString(v)
			} else {
				suffix.WriteString(v)
			}
			continue
		}
		dynamic++
		if dynamic > 1 || len(known) == 0 {
			return nil
		}
		vals = known
	}
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		out = append(out, prefix.String()+v+suffix.String())
	}
	return out
}

// setVar remembers a variable's static value.
func (s *shellCheck) setVar(name string, value *syntax.Word) {
	if value == nil {
		return
	}
	a := s.word(value)
	switch {
	case !a.dyn:
		s.vars[name] = []string{a.val}
	case len(a.alts) > 0:
		s.vars[name] = a.alts
	default:
		delete(s.vars, name)
	}
}

// private refuses a command any of whose words (arguments, redirections,
// assignments, in any position) names the seal key or the loop's state: its
// file name, or a path into its directory as written, after ~ and $HOME, or
// as the known part of a dynamic word. Reading them is refused as much as
// writing.
func (s *shellCheck) private(w *syntax.Word) {
	ws := s.g.WS
	// The user's home as the guard was told it, and as the process sees
	// it: ~ and $HOME mean the same to the agent.
	homes := []string{}
	if ws.home != "" && ws.home != "." {
		homes = append(homes, ws.home)
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" && (len(homes) == 0 || homes[0] != h) {
		homes = append(homes, h)
	}
	if len(homes) == 0 {
		homes = []string{""}
	}
	for _, home := range homes {
		if s.privateWord(w, home) {
			return
		}
	}
}

// privateWord is private with one home; it reports whether it denied.
func (s *shellCheck) privateWord(w *syntax.Word, home string) bool {
	ws := s.g.WS
	a := word(w)
	vals := append([]string{a.val}, a.alts...)
	// The word as the shell would expand it, variables from the agent's
	// environment and globs over the file system: `cat $DIR/*` reads what
	// it matches.
	for _, v := range s.expanded(w, home) {
		t := s.resolve(v)
		if ws.IsPrivate(t) || strings.Contains(v, sealKeyName) && ws.Private != "" {
			s.deny("the command names %s (%s), which lives outside the repository and out of an agent's reach; leave it alone.", v, privateOwn)
			return true
		}
		if why := ws.ReadDenied(t); why != "" {
			s.deny("the command names %s (%s), which is the gate's and out of an agent's reach, to read as to write; 'ralph-gate status' shows the loop.", v, why)
			return true
		}
	}
	for _, v := range vals {
		if v == "" {
			continue
		}
		if ws.Private != "" && strings.Contains(v, sealKeyName) {
			s.deny("the command names %s (%s), which lives outside the repository and out of an agent's reach; leave it alone.", sealKeyName, privateOwn)
			return true
		}
		p := v
		if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
			p = home + p[1:]
		}
		cands := []string{p}
		if a.dyn && home != "" {
			// $HOME/.config/... leaves "/.config/..." as its known part.
			cands = append(cands, home+p)
		}
		for _, c := range cands {
			t := s.resolve(c)
			if ws.IsPrivate(t) {
				s.deny("the command names %s (%s), which lives outside the repository and out of an agent's reach; leave it alone.", v, privateOwn)
				return true
			}
			if why := ws.ReadDenied(t); why != "" || ws.Root != "" && strings.Contains(v, ".aiwg/ralph") {
				if why == "" {
					why = loopStateOwn
				}
				s.deny("the command names %s (%s), which is the gate's and out of an agent's reach, to read as to write; 'ralph-gate status' shows the loop.", v, why)
				return true
			}
		}
	}
	return false
}

// maxGlobMatches bounds the matches of one word the private check reads.
const maxGlobMatches = 256

// expanded is a word as the shell would expand it for the private check:
// ~ and variables from the agent's environment, then a glob's matches
// (relative to the command's directory). Command substitutions are not
// run: such a word is left to the other checks.
func (s *shellCheck) expanded(w *syntax.Word, home string) (out []string) {
	getenv := s.g.WS.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	cfg := &expand.Config{Env: expand.FuncEnviron(func(name string) string {
		if name == "HOME" && home != "" {
			return home
		}
		return getenv(name)
	})}
	v, err := expand.Literal(cfg, w)
	if err != nil || v == "" {
		return nil
	}
	if home != "" && (v == "~" || strings.HasPrefix(v, "~/")) {
		v = home + v[1:]
	}
	if !strings.ContainsAny(v, "*?[") {
		return []string{v}
	}
	pattern := v
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(s.cwd, pattern)
	}
	matches, _ := filepath.Glob(pattern)
	if len(matches) > maxGlobMatches {
		matches = matches[:maxGlobMatches]
	}
	return matches
}
