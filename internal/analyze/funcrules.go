package analyze

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/analyze/ci"
	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// This file holds the rules that compare a production function with its
// previous version (testscan.File.Funcs): an error path replaced by a
// silent empty result (AIWG's LP-018), and literal special cases piled into
// one function (LP-017). A function is matched by its qualified name in
// the same file: a new, renamed, moved or deleted function is not compared,
// since a definition is not a change of behaviour the diff can read; nor
// are the exits of a function whose declared result type changed (Java,
// Rust): its callers see the new API (serde's at_most_one, from
// `Result<Option<T>, ()>` to `Option<T>`, its errors reported aside).

// specialCasesAdded is how many new literal branches one change adds to one
// existing function before they are a finding: one or two are a fix for an
// edge case, a handful answer the inputs someone tried (AIWG's LP-017).
const specialCasesAdded = 3

// funcFindings reports error-to-null and special-cases-added for the
// production files both sides of a change have.
func funcFindings(pairs []*pair) []gate.Finding {
	var out []gate.Finding
	for _, pr := range pairs {
		if pr.old == nil || pr.new == nil || pr.old.facts == nil || pr.new.facts == nil || pr.old.isTest || pr.new.isTest || builtOutput(pr.new.path) {
			continue
		}
		before := byName(pr.old.facts.Funcs)
		after := byName(pr.new.facts.Funcs)
		p := pr.new.path
		for _, name := range after.order {
			old, ok := before.funcs[name]
			if !ok {
				continue
			}
			now := after.funcs[name]
			if slices.Equal(old.returns, now.returns) {
				out = append(out, errorToNull(p, name, old.exits, now.exits)...)
			}
			if f, ok := specialCases(p, name, old.branches, now.branches); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

// funcVersions are the functions of one file version by name: a name
// declared twice (a Python redefinition, TypeScript overloads) holds both,
// in order.
type funcVersions struct {
	order []string
	funcs map[string]*funcVersion
}

type funcVersion struct {
	exits    []testscan.Exit
	branches []testscan.Branch
	returns  []string // the declared result types, one per declaration
}

func byName(fs []testscan.Func) funcVersions {
	v := funcVersions{funcs: make(map[string]*funcVersion, len(fs))}
	for _, f := range fs {
		fv := v.funcs[f.Name]
		if fv == nil {
			fv = &funcVersion{}
			v.funcs[f.Name] = fv
			v.order = append(v.order, f.Name)
		}
		fv.exits = append(fv.exits, f.Exits...)
		fv.returns = append(fv.returns, f.Returns)
		fv.branches = append(fv.branches, f.Branches...)
	}
	return v
}

// errorToNull reports the exits of a function that were an error (raise,
// throw, a Go error returned) and are now an empty result at the same
// place (see replacedExits), as many as the function lost error exits and
// gained empty ones: an early `return None` added before a raise that
// stays, a raise moved to a helper (nothing added), `return err` wrapped
// (an error still), a throw turned into `return {error: e}` (a value, not
// empty), and two error checks merged into one are not reported.
func errorToNull(p, name string, old, now []testscan.Exit) []gate.Finding {
	n := min(countExits(old, testscan.ExitError)-countExits(now, testscan.ExitError),
		countExits(now, testscan.ExitEmpty)-countExits(old, testscan.ExitEmpty))
	if n <= 0 {
		return nil
	}
	var out []gate.Finding
	for _, r := range replacedExits(old, now) {
		if len(out) == n {
			break
		}
		was, is := r[0], r[1]
		msg := fmt.Sprintf("%s in %s now has %s where it had %s: the error path became a silent empty result, so its callers can no longer tell the failure from success", name, p, ci.Quoted(is.Text), ci.Quoted(was.Text))
		out = append(out, gate.NewFinding(gate.RuleErrorToNull, gate.SeverityMedium, p, is.Line, "", name, was.Text+"\x00"+is.Text, msg+"."))
	}
	return out
}

// replacedExits aligns two versions' exits, in order, on their unchanged
// exits (weight 2) and on error exits replaced by an empty one that stands
// for their result (weight 1; see nullFor), for the most weight, and
// returns the replaced pairs (old, new). An empty return added elsewhere
// than where an error went, such as an early exit before it, does not
// align with it: the unchanged exits between them come first.
func replacedExits(old, now []testscan.Exit) [][2]testscan.Exit {
	old, now = withoutChangedAnswers(old, now)
	same := func(i, j int) bool { return old[i].Kind == now[j].Kind && old[i].Text == now[j].Text }
	sub := func(i, j int) bool {
		return old[i].Kind == testscan.ExitError && now[j].Kind == testscan.ExitEmpty && nullFor(old[i], now[j])
	}
	// score[i][j] is the best weight of old[i:] against now[j:].
	score := make([][]int, len(old)+1)
	for i := range score {
		score[i] = make([]int, len(now)+1)
	}
	for i := len(old) - 1; i >= 0; i-- {
		for j := len(now) - 1; j >= 0; j-- {
			best := max(score[i+1][j], score[i][j+1])
			switch {
			case same(i, j):
				best = max(best, 2+score[i+1][j+1])
			case sub(i, j):
				best = max(best, 1+score[i+1][j+1])
			}
			score[i][j] = best
		}
	}
	var out [][2]testscan.Exit
	for i, j := 0, 0; i < len(old) && j < len(now); {
		switch {
		case same(i, j) && score[i][j] == 2+score[i+1][j+1]:
			i, j = i+1, j+1
		case sub(i, j) && score[i][j] == 1+score[i+1][j+1]:
			out = append(out, [2]testscan.Exit{old[i], now[j]})
			i, j = i+1, j+1
		case score[i][j] == score[i+1][j]:
			i++
		default:
			j++
		}
	}
	return out
}

// withoutChangedAnswers drops the last exits of two versions when the old
// one was no error and the new one differs: the last exit is where a
// function falls through to its answer, and a new last exit stands for the
// old answer, not for an error path before it. ripgrep's push_alternate
// dropped its "nested alternates" error when it learned to nest them, and
// its answer `Ok(self.stack.push(..))` became a push and `Ok(())`: the
// error went, the answer changed, nothing was swallowed.
func withoutChangedAnswers(old, now []testscan.Exit) ([]testscan.Exit, []testscan.Exit) {
	n, m := len(old), len(now)
	if n == 0 || m == 0 || old[n-1].Kind == testscan.ExitError || old[n-1].Kind == now[m-1].Kind && old[n-1].Text == now[m-1].Text {
		return old, now
	}
	return old[:n-1], now[:m-1]
}

// nullFor reports whether an empty exit stands for an error exit's
// result without the error: nothing else returned (`return nil`, `return
// None`), zero values (`return 0, nil`, `return Config{}, nil`), or what the
// error path returned with its error (`return cfg, err` -> `return cfg,
// nil`). A Go return of computed values (`return args, rest, nil`) is an
// answer, not a null.
func nullFor(was, is testscan.Exit) bool {
	if slices.Equal(was.Values, is.Values) {
		return true
	}
	for _, v := range is.Values {
		switch v {
		case "nil", "0", "0.0", `""`, "``", "false":
		default:
			if !strings.HasSuffix(v, "{}") {
				return false
			}
		}
	}
	return true
}

func countExits(es []testscan.Exit, k testscan.ExitKind) int {
	n := 0
	for _, e := range es {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// specialCases reports a function that gained specialCasesAdded or more
// branches answering a literal input with a literal: those whose variable
// and literal the old version did not test. A case of a switch (or match)
// counts only when the old version had no branch on its subject: cases
// added to a switch that was there extend a table, they do not start one.
// A branch that answers a literal as the old version answered it on
// another subject was there too, its subject renamed.
func specialCases(p, name string, old, now []testscan.Branch) (gate.Finding, bool) {
	if len(now) < specialCasesAdded {
		return gate.Finding{}, false
	}
	had := make(map[string]int, len(old))
	answered := make(map[string]int, len(old))
	subjects := make(map[string]bool, len(old))
	for _, b := range old {
		had[b.Subject+"\x00"+b.Literal]++
		answered[b.Literal+"\x00"+b.Answer]++
		subjects[b.Subject] = true
	}
	var added []testscan.Branch
	for _, b := range now {
		if k := b.Subject + "\x00" + b.Literal; had[k] > 0 {
			had[k]--
			continue
		}
		// The same literal answered the same way on a subject renamed
		// (`switch (c)` to `switch (ch)`): the table was there.
		if k := b.Literal + "\x00" + b.Answer; answered[k] > 0 {
			answered[k]--
			continue
		}
		if b.Case && subjects[b.Subject] {
			continue
		}
		added = append(added, b)
	}
	if len(added) < specialCasesAdded {
		return gate.Finding{}, false
	}
	var cases []string
	for i, b := range added {
		if i == 6 {
			cases = append(cases, fmt.Sprintf("and %d more", len(added)-6))
			break
		}
		cases = append(cases, fmt.Sprintf("%s == %s -> %s", b.Subject, b.Literal, b.Answer))
	}
	msg := fmt.Sprintf("%d branches that answer one literal input with a literal were added to %s in %s (%s): special cases for the inputs someone tried, not a computation of the result", len(added), name, p, strings.Join(cases, "; "))
	return gate.NewFinding(gate.RuleSpecialCasesAdded, gate.SeverityMedium, p, added[0].Line, "", name, name, msg+"."), true
}

// builtOutput reports whether a path is a build's output committed beside
// the sources (dist/, a minified bundle): its functions are the compiler's
// rewriting of code the change's sources show, and read as rewritten by
// hand they are noise (axios's dist/esm/axios.min.js).
func builtOutput(p string) bool {
	base := path.Base(p)
	if strings.Contains(base, ".min.") || strings.Contains(base, ".bundle.") {
		return true
	}
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if seg == "dist" || seg == "build" {
			return true
		}
	}
	return false
}
