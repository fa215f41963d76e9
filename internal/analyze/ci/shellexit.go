package ci

import (
	"path"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ralph-gate/ralph-gate/internal/lazyre"
	"github.com/ralph-gate/ralph-gate/internal/shellwrap"
)

// A shell script decides a CI step's result by its exit status. The checks
// it runs (go test, pytest, eslint, make lint) only gate anything when their
// failure reaches that status: through -e (errexit), as the last command, or
// through an explicit `|| exit 1`. An agent that wants a failing check to
// pass does not need to delete it: `|| echo`, `set +e`, `; exit 0`, `&`, a
// pipe without pipefail or `if ! cmd; then :; fi` all keep the command and
// drop its status. shellChecks reads a script with mvdan.cc/sh's parser and
// follows each check's status to the script's result.

// checkRun is one check command in a script.
type checkRun struct {
	key  string // "go test", "npm run lint", "pytest"
	text string // the command as written
	line int    // 1-based, in the script
	// cause says why its failure does not fail the script, when it does
	// not (the first place its status was dropped).
	cause string
}

// shellFacts is what a script does with its checks' exit statuses.
type shellFacts struct {
	runs    []*checkRun
	reached map[*checkRun]bool
}

// reaching reports, per check key, whether some run of it fails the script.
func (f *shellFacts) reaching() map[string]bool {
	m := map[string]bool{}
	for _, r := range f.runs {
		m[r.key] = m[r.key] || f.reached[r]
	}
	return m
}

// shellOpts is the state of set -e and set -o pipefail.
type shellOpts struct{ errexit, pipefail bool }

// exitRes is the effect of running a piece of script.
type exitRes struct {
	p     []*checkRun  // checks whose failure makes its status non-zero
	pe    []*checkRun  // the same, where errexit applies to them
	a     []*checkRun  // checks whose failure ends the script failing (exit, errexit)
	np    []*checkRun  // a negated statement's inner p: their failure makes it succeed
	fails bool         // its status is always non-zero (false, exit 1)
	exit  int          // exitNone, exitOK (exit 0), exitFail (exit 1), exitLast (exit, exit $?)
	carry []*checkRun  // for exitLast: the checks whose failure is the status it exits with
	node  *syntax.Stmt // the statement, printed only when a cause quotes it
}

const (
	exitNone = iota
	exitOK
	exitFail
	exitLast
)

type shellRun struct {
	opts  shellOpts
	runs  []*checkRun
	bg    []*checkRun // checks started with &
	funcs map[string]*syntax.Stmt
	depth int
	// lastP is the previous statement's p: what $? holds.
	lastP []*checkRun
	// vars holds the variables assigned $? (rc=$?).
	vars map[string][]*checkRun
	// trapOK is set by `trap 'exit 0' EXIT` (or ERR): every failure after it
	// ends the script with success.
	trapOK   bool
	trapLine int
}

// shellChecks parses src as bash and reports its checks and which of them
// fail the script when they fail. The error is the parser's.
func shellChecks(src string, opts shellOpts) (*shellFacts, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	s := &shellRun{opts: opts, funcs: map[string]*syntax.Stmt{}, vars: map[string][]*checkRun{}}
	r := s.list(f.Stmts, false)
	out := &shellFacts{runs: s.runs, reached: map[*checkRun]bool{}}
	for _, c := range r.a {
		out.reached[c] = true
	}
	if r.exit != exitOK {
		for _, c := range r.p {
			out.reached[c] = true
		}
	}
	if s.trapOK {
		for _, c := range s.runs {
			if out.reached[c] && c.line >= s.trapLine {
				delete(out.reached, c)
				c.cause = "`trap 'exit 0'` turns the script's failure into success"
			}
		}
	}
	for _, c := range s.runs {
		if !out.reached[c] && c.cause == "" {
			c.cause = "its exit status does not reach the script's result"
		}
	}
	return out, nil
}

func drop(cs []*checkRun, cause string) {
	for _, c := range cs {
		if c.cause == "" {
			c.cause = cause
		}
	}
}

// list runs statements in order; exempt is set where errexit does not apply
// (an if condition, the left of && or ||).
func (s *shellRun) list(stmts []*syntax.Stmt, exempt bool) exitRes {
	var out exitRes
	var last exitRes
	var pending []*checkRun // the previous statement's p, not yet known to reach
	for _, st := range stmts {
		s.lastP = last.p
		r := s.stmt(st, exempt)
		out.a = append(out.a, r.a...)
		switch r.exit {
		case exitOK:
			drop(pending, "`exit 0` follows it")
			out.exit, out.p, out.pe = exitOK, nil, nil
			return out
		case exitLast:
			out.a = append(out.a, r.carry...)
			out.exit, out.p, out.pe = exitLast, r.carry, r.carry
			return out
		case exitFail:
			out.exit, out.fails, out.p, out.pe = exitFail, true, nil, nil
			return out
		}
		if exempt {
			drop(pending, "a later command's status decides the condition")
		} else {
			drop(pending, "the script does not stop on errors here (no -e, or after `set +e`), and a later command's status is the step's")
		}
		pending = nil
		if s.opts.errexit && !exempt {
			out.a = append(out.a, r.pe...)
			if r.fails {
				out.fails, out.p = true, nil
				return out
			}
		} else {
			pending = r.p
		}
		last = r
	}
	out.p, out.pe, out.np, out.fails = last.p, last.pe, last.np, last.fails
	return out
}

func (s *shellRun) stmt(st *syntax.Stmt, exempt bool) exitRes {
	if st.Background {
		saved := s.opts
		r := s.command(st.Cmd, true)
		s.opts = saved
		drop(r.p, "it runs in the background (`&`), so the script does not wait for its status")
		s.bg = append(s.bg, r.p...)
		return exitRes{node: st}
	}
	if st.Negated {
		r := s.command(st.Cmd, true)
		if r.exit != exitNone {
			return r
		}
		if !exempt {
			drop(r.p, "it is negated with `!`")
		}
		return exitRes{a: r.a, np: r.p, fails: false, node: st}
	}
	r := s.command(st.Cmd, exempt)
	r.node = st
	return r
}

func (s *shellRun) command(cmd syntax.Command, exempt bool) exitRes {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return s.call(c, exempt)
	case *syntax.BinaryCmd:
		return s.binary(c, exempt)
	case *syntax.Block:
		return s.list(c.Stmts, exempt)
	case *syntax.Subshell:
		saved := s.opts
		r := s.list(c.Stmts, exempt)
		s.opts = saved
		// An exit inside a subshell ends only the subshell.
		p := append(append([]*checkRun{}, r.a...), r.p...)
		if r.exit == exitOK {
			p = r.a
		}
		return exitRes{p: p, pe: p, fails: r.fails || r.exit == exitFail}
	case *syntax.IfClause:
		return s.ifClause(c, exempt)
	case *syntax.WhileClause:
		cond := s.list(c.Cond, true)
		drop(cond.p, "it is the condition of a loop")
		body := s.list(c.Do, exempt)
		body.a = append(body.a, cond.a...)
		return body
	case *syntax.ForClause:
		return s.list(c.Do, exempt)
	case *syntax.CaseClause:
		var out exitRes
		for _, it := range c.Items {
			r := s.list(it.Stmts, exempt)
			out.a = append(out.a, r.a...)
			out.p = append(out.p, r.p...)
			out.pe = append(out.pe, r.pe...)
		}
		return out
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return s.stmt(c.Stmt, exempt)
		}
	case *syntax.FuncDecl:
		if c.Name != nil && c.Body != nil {
			s.funcs[c.Name.Value] = c.Body
		}
	}
	return exitRes{}
}

func (s *shellRun) binary(c *syntax.BinaryCmd, exempt bool) exitRes {
	switch c.Op {
	case syntax.AndStmt:
		x := s.stmt(c.X, true)
		if x.exit != exitNone {
			return x
		}
		s.lastP = nil
		y := s.stmt(c.Y, exempt)
		if y.exit != exitNone { // runs only when x succeeded
			y.exit, y.fails, y.p, y.pe = exitNone, false, nil, nil
		}
		y.a = append(y.a, x.a...)
		y.p = append(y.p, x.p...)
		return y
	case syntax.OrStmt:
		x := s.stmt(c.X, true)
		if x.exit != exitNone {
			return x
		}
		s.lastP = x.p
		y := s.stmt(c.Y, exempt)
		switch {
		case y.exit == exitFail || y.exit == exitLast && len(y.carry) > 0:
			// `x || exit 1`: the script ends failing when x fails, and
			// goes on when it succeeds: the statement does not always fail.
			y.a = append(append(y.a, x.a...), x.p...)
			y.p = append(y.p, x.p...)
			y.exit, y.carry, y.fails = exitNone, nil, false
			return y
		case y.fails:
			// `x || false`: it fails exactly when x does.
			y.a = append(y.a, x.a...)
			y.p = append(y.p, x.p...)
			y.pe = append(y.pe, x.p...)
			y.fails = false
			return y
		}
		if len(x.p) > 0 {
			drop(x.p, "`|| "+stmtText(y.node)+"` replaces its exit status")
		}
		y.a = append(y.a, x.a...)
		if y.exit != exitNone {
			y.exit, y.carry = exitNone, nil
			y.p, y.pe = nil, nil
		}
		return y
	case syntax.Pipe, syntax.PipeAll:
		// Every part of a pipeline runs in a subshell: exits end only it.
		x := s.stmt(c.X, true)
		y := s.stmt(c.Y, exempt)
		xp := append(append([]*checkRun{}, x.a...), x.p...)
		yp := append(append([]*checkRun{}, y.a...), y.p...)
		if y.exit == exitOK {
			yp = y.a
		}
		out := exitRes{p: yp, pe: yp, fails: y.fails || y.exit == exitFail}
		if s.opts.pipefail {
			out.p = append(out.p, xp...)
			out.pe = out.p
		} else {
			if len(xp) > 0 {
				drop(xp, "it is piped into `"+stmtText(y.node)+"` and the script has no pipefail, so the pipe's status is the last command's")
			}
		}
		return out
	}
	return exitRes{}
}

func (s *shellRun) ifClause(c *syntax.IfClause, exempt bool) exitRes {
	if len(c.Cond) == 0 { // a plain else
		return s.list(c.Then, exempt)
	}
	cond := s.list(c.Cond, true)
	then := s.list(c.Then, exempt)
	var els exitRes
	if c.Else != nil {
		els = s.ifClause(c.Else, exempt)
	}
	out := exitRes{a: append(append(cond.a, then.a...), els.a...)}
	out.p = append(then.p, els.p...)
	out.pe = append(then.pe, els.pe...)
	// A check that fails makes the condition false (or true, negated);
	// its failure reaches the script only if the branch it leads to fails.
	branch := func(by []*checkRun, b exitRes) {
		switch {
		case b.exit == exitFail:
			out.a = append(out.a, by...)
		case b.fails:
			out.p = append(out.p, by...)
			out.pe = append(out.pe, by...)
		default:
			drop(by, "it is the condition of an `if` whose branch on failure does not fail")
		}
	}
	branch(cond.p, els)
	branch(cond.np, then)
	return out
}

func (s *shellRun) call(c *syntax.CallExpr, exempt bool) exitRes {
	args := make([]string, 0, len(c.Args))
	for _, w := range c.Args {
		args = append(args, wordText(w))
	}
	if len(args) == 0 {
		for _, as := range c.Assigns {
			if as.Name != nil && as.Value != nil && wordText(as.Value) == "$?" {
				s.vars[as.Name.Value] = s.lastP
			} else if as.Name != nil {
				delete(s.vars, as.Name.Value)
			}
		}
		return exitRes{}
	}
	args = unwrap(args)
	if len(args) == 0 {
		return exitRes{}
	}
	switch args[0] {
	case "set":
		s.set(args[1:])
		return exitRes{}
	case "trap":
		if len(args) >= 3 {
			action := strings.TrimSpace(args[1])
			for _, sig := range args[2:] {
				if (sig == "EXIT" || sig == "ERR" || sig == "0") && (strings.HasSuffix(action, "exit 0") || action == "exit") {
					s.trapOK, s.trapLine = true, int(c.Pos().Line())
				}
			}
		}
		return exitRes{}
	case "exit":
		switch {
		case len(args) == 1 || args[1] == "$?":
			return exitRes{exit: exitLast, carry: s.lastP}
		case args[1] == "0":
			return exitRes{exit: exitOK}
		case isNumber(args[1]):
			return exitRes{exit: exitFail, fails: true}
		}
		name := strings.Trim(strings.TrimPrefix(args[1], "$"), "{}")
		if v, ok := s.vars[name]; ok {
			return exitRes{exit: exitLast, carry: v}
		}
		return exitRes{exit: exitLast, carry: s.lastP} // exit $status: assume it carries one
	case "false":
		return exitRes{fails: true}
	case "true", ":", "echo", "printf":
		return exitRes{}
	case "wait":
		if len(args) > 1 {
			return exitRes{p: s.bg, pe: s.bg}
		}
		return exitRes{}
	case "eval":
		// eval runs its words as a script in this shell: its exits end the
		// script and set -e applies.
		if len(args) >= 2 && s.depth < 3 {
			inner, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(strings.Join(args[1:], " ")), "")
			if err == nil {
				from := len(s.runs)
				s.depth++
				r := s.list(inner.Stmts, exempt)
				s.depth--
				for _, cr := range s.runs[from:] {
					cr.line = int(c.Pos().Line())
				}
				return r
			}
		}
	case "bash", "sh", "zsh":
		if len(args) >= 3 && (args[1] == "-c" || args[1] == "-ec" || args[1] == "-ce") && s.depth < 3 {
			inner, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(args[2]), "")
			if err == nil {
				sub := &shellRun{opts: shellOpts{errexit: args[1] != "-c"}, funcs: map[string]*syntax.Stmt{}, vars: map[string][]*checkRun{}, depth: s.depth + 1}
				r := sub.list(inner.Stmts, false)
				line := c.Pos().Line()
				for _, cr := range sub.runs {
					cr.line = int(line)
					s.runs = append(s.runs, cr)
				}
				p := append(append([]*checkRun{}, r.a...), r.p...)
				if r.exit == exitOK {
					p = r.a
				}
				return exitRes{p: p, pe: p, fails: r.fails}
			}
		}
	}
	if body := s.funcs[args[0]]; body != nil {
		// A function named like the tool (`go() { :; }`) runs instead of
		// it: the check does not run.
		if key := checkKey(args); key != "" {
			cr := &checkRun{key: key, text: strings.Join(args, " "), line: int(c.Pos().Line()),
				cause: "`" + args[0] + "` is redefined as a shell function in the script, which runs instead of the tool"}
			s.runs = append(s.runs, cr)
			return exitRes{}
		}
	}
	if body := s.funcs[args[0]]; body != nil && s.depth < 3 {
		s.depth++
		defer func() { s.depth-- }()
		return s.stmt(body, exempt)
	}
	key := checkKey(args)
	if key == "" {
		return exitRes{}
	}
	cr := &checkRun{key: key, text: strings.Join(args, " "), line: int(c.Pos().Line())}
	s.runs = append(s.runs, cr)
	if path.Base(args[0]) == "make" && makeIgnoresErrors(args[1:]) {
		// make -i runs every recipe and succeeds whatever they return.
		cr.cause = "`make -i` (--ignore-errors) ignores the failures of the recipes it runs"
		return exitRes{}
	}
	return exitRes{p: []*checkRun{cr}, pe: []*checkRun{cr}}
}

// makeIgnoresErrors reports whether make's flags include -i
// (--ignore-errors), alone or among other one-letter flags (-ik), before
// the first target.
func makeIgnoresErrors(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--ignore-errors":
			return true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if makeFlagLetters.MatchString(a[1:]) && strings.ContainsRune(a[1:], 'i') {
				return true
			}
		}
	}
	return false
}

// makeFlagLetters are make's one-letter flags that take no argument, as
// they combine in -ik or in MAKEFLAGS's first word.
var makeFlagLetters = lazyre.New(`^[bBeikLnqrRsStw]+$`)

// set applies `set -e`, `set +e`, `set -o pipefail` and their combinations.
func (s *shellRun) set(args []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			continue
		}
		on := a[0] == '-'
		for _, f := range a[1:] {
			switch f {
			case 'e':
				s.opts.errexit = on
			case 'o':
				if i+1 < len(args) {
					switch args[i+1] {
					case "errexit":
						s.opts.errexit = on
					case "pipefail":
						s.opts.pipefail = on
					}
					i++
				}
			}
		}
	}
}

// unwrap drops the commands that run another command and pass its status
// on (shellwrap): env VAR=x cmd, sudo, time, timeout N, nice, xvfb-run, npx,
// uv run.
func unwrap(args []string) []string { return shellwrap.Unwrap(args) }

var (
	// checkTools are the commands whose exit status is a check's verdict.
	checkTools = lazyre.New(`^(go (test|vet)|gotestsum|pytest|py\.test|python3? -m (pytest|unittest|mypy|pylint|flake8|ruff|coverage)|coverage|jest|vitest|mocha|ava|tap|jasmine|karma|playwright|cypress|(npm|yarn|pnpm|bun) (run )?(test|lint|check|typecheck|type-check|verify|coverage)([:-]\S*)?|bun test|deno (test|lint|check)|node --test|cargo (test|nextest|clippy|check)|mvn\S* .*|\./mvnw .*|gradle\S* .*|\./gradlew .*|tox|nox|(make|just|task) (test|tests|check|lint|vet|verify|ci|coverage)\S*|ctest|golangci-lint|staticcheck|eslint|tsc|mypy|ruff( check)?|flake8|pylint|pyright|rubocop|rspec|phpunit|dotnet test|swift test|govulncheck|ralph-gate)$`)
	javaGoals  = lazyre.New(`(test|verify|check|build|install)`)
	// twoWord tools take a subcommand that names the check.
	twoWord = map[string]bool{"go": true, "cargo": true, "npm": true, "yarn": true, "pnpm": true, "bun": true, "deno": true, "make": true, "just": true, "task": true, "dotnet": true, "swift": true, "ruff": true, "node": true}
)

// checkKey names the check a command runs ("go test", "npm run lint"), or
// "" when it is not a check.
func checkKey(args []string) string {
	name := path.Base(args[0])
	rest := args[1:]
	key := name
	switch {
	case (name == "python" || name == "python3") && len(rest) >= 2 && rest[0] == "-m":
		key = name + " -m " + rest[1]
	case name == "mvn" || name == "mvnw" || name == "gradle" || name == "gradlew":
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				key = name + " " + a
				break
			}
		}
		if !javaGoals.MatchString(key) {
			return ""
		}
		return key
	case name == "node" && indexOf(rest, "--test") >= 0:
		key = "node --test"
	case twoWord[name]:
		sub := nonFlag(rest)
		if sub == "" {
			if name == "make" || name == "just" || name == "task" {
				return "" // the default target: unknown
			}
			break
		}
		key = name + " " + sub
		if (name == "npm" || name == "yarn" || name == "pnpm" || name == "bun") && sub == "run" {
			if s2 := nonFlag(rest[indexOf(rest, "run")+1:]); s2 != "" {
				key += " " + s2
			}
		}
	}
	if checkToolMemo.getString(key, func() bool { return checkTools.MatchString(key) }) {
		return key
	}
	return ""
}

// checkToolMemo keeps checkTools' verdict by key: CI holds few distinct
// commands, each run many times, and the pattern is long.
var checkToolMemo textMemo[bool]

func nonFlag(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			return a
		}
	}
	return ""
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == s {
			return i
		}
	}
	return -1
}

func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// wordText is a word's literal text, with quotes removed and expansions
// kept as written ("$?", "${GOFLAGS}").
func wordText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					b.WriteString(nodeText(q))
				}
			}
		default:
			b.WriteString(nodeText(p))
		}
	}
	return b.String()
}

// stmtText prints a statement for a cause ("" for none).
func stmtText(st *syntax.Stmt) string {
	if st == nil {
		return ""
	}
	return nodeText(st)
}

// printers are single-line shell printers: each holds a 4 KB buffer that
// a new one would allocate for every statement printed.
var printers = sync.Pool{New: func() any { return syntax.NewPrinter(syntax.SingleLine(true)) }}

func nodeText(n syntax.Node) string {
	var b strings.Builder
	p := printers.Get().(*syntax.Printer)
	defer printers.Put(p)
	if err := p.Print(&b, n); err != nil {
		return ""
	}
	return strings.TrimSpace(b.String())
}
