package analyze

import (
	"fmt"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/gate"
	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// This file holds the rules that compare a production function with its
// previous version (testscan.File.Funcs): an error path replaced by a
// silent empty result (AIWG's LP-018), and literal special cases piled into
// one function (LP-017). A function is matched by its qualified name in
// the same file: a new, renamed, moved or deleted function is not compared,
// since a definition is not a change of behaviour the diff can read.

// errorToNullType is the finding type of error-to-null. DESIGN.md's
// error_suppression covers "swallowed errors", and an error path that now
// returns nil, None, null or an empty value swallows the error it reported
// (the Go spelling, `if err != nil { return nil }`, is already the
// error_suppression rule swallowed-error). validation_bypass is about the
// checking machinery (test steps, thresholds, the gate's configuration),
// and feature_removal about API or feature code deleted: the function and
// its path are still there, only their failure is hidden.
const errorToNullType = gate.ErrorSuppression

// specialCasesAdded is how many new literal branches one change adds to one
// existing function before they are a finding: one or two are a fix for an
// edge case, a handful answer the inputs someone tried (AIWG's LP-017).
const specialCasesAdded = 3

// funcFindings reports error-to-null and special-cases-added for the
// production files both sides of a change have.
func funcFindings(pairs []*pair) []gate.Finding {
	var out []gate.Finding
	for _, pr := range pairs {
		if pr.old == nil || pr.new == nil || pr.old.facts == nil || pr.new.facts == nil || pr.old.isTest || pr.new.isTest {
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
			out = append(out, errorToNull(p, name, old.exits, now.exits)...)
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
		fv.branches = append(fv.branches, f.Branches...)
	}
	return v
}

// errorToNull reports the exits of a function that were an error (raise,
// throw, a Go error returned) and are now an empty result at the same
// place: the two versions' exits are aligned on the unchanged ones, and
// between two aligned exits the change must remove more errors than it adds
// and add more empty returns than it removes. So an early `return None`
// added before a raise that stays, a raise moved to a helper (nothing
// added), `return err` wrapped (an error still), and a throw turned into
// `return {error: e}` (a value, not empty) are not reported.
func errorToNull(p, name string, old, now []testscan.Exit) []gate.Finding {
	if !hasExit(old, testscan.ExitError) || !hasExit(now, testscan.ExitEmpty) {
		return nil
	}
	var out []gate.Finding
	eachGap(old, now, func(removed, added []testscan.Exit) {
		var errs, empties []testscan.Exit
		for _, e := range removed {
			if e.Kind == testscan.ExitError {
				errs = append(errs, e)
			}
		}
		for _, e := range added {
			if e.Kind == testscan.ExitEmpty {
				empties = append(empties, e)
			}
		}
		n := min(len(errs)-countExits(added, testscan.ExitError), len(empties)-countExits(removed, testscan.ExitEmpty))
		for i := 0; i < n; i++ {
			was, is := errs[i], empties[i]
			msg := fmt.Sprintf("%s in %s now has %s where it had %s: the error path became a silent empty result, so its callers can no longer tell the failure from success", name, p, quoted(is.Text), quoted(was.Text))
			out = append(out, newFinding(errorToNullType, gate.SeverityMedium, "error-to-null", p, is.Line, "", name, was.Text+"\x00"+is.Text, msg+"."))
		}
	})
	return out
}

func hasExit(es []testscan.Exit, k testscan.ExitKind) bool { return countExits(es, k) > 0 }

func countExits(es []testscan.Exit, k testscan.ExitKind) int {
	n := 0
	for _, e := range es {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// eachGap aligns two versions' exits on a longest common subsequence of
// their texts and passes gap each stretch between two aligned exits (and
// before the first, and after the last) that differs: the old exits there
// and the new ones.
func eachGap(old, now []testscan.Exit, gap func(removed, added []testscan.Exit)) {
	same := func(i, j int) bool { return old[i].Kind == now[j].Kind && old[i].Text == now[j].Text }
	// lcs[i][j] is the length of the longest common subsequence of old[i:]
	// and now[j:].
	lcs := make([][]int, len(old)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(now)+1)
	}
	for i := len(old) - 1; i >= 0; i-- {
		for j := len(now) - 1; j >= 0; j-- {
			if same(i, j) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j, fromI, fromJ := 0, 0, 0, 0
	flush := func() {
		if i > fromI || j > fromJ {
			gap(old[fromI:i], now[fromJ:j])
		}
	}
	for i < len(old) && j < len(now) {
		switch {
		case same(i, j):
			flush()
			i, j = i+1, j+1
			fromI, fromJ = i, j
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	i, j = len(old), len(now)
	flush()
}

// specialCases reports a function that gained specialCasesAdded or more
// branches answering a literal input with a literal: those whose variable
// and literal the old version did not test. A case of a switch (or match)
// counts only when the old version had no branch on its subject: cases
// added to a switch that was there extend a table, they do not start one.
func specialCases(p, name string, old, now []testscan.Branch) (gate.Finding, bool) {
	if len(now) < specialCasesAdded {
		return gate.Finding{}, false
	}
	had := make(map[string]int, len(old))
	subjects := make(map[string]bool, len(old))
	for _, b := range old {
		had[b.Subject+"\x00"+b.Literal]++
		subjects[b.Subject] = true
	}
	var added []testscan.Branch
	for _, b := range now {
		if k := b.Subject + "\x00" + b.Literal; had[k] > 0 {
			had[k]--
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
	return newFinding(gate.ValidationBypass, gate.SeverityMedium, "special-cases-added", p, added[0].Line, "", name, name, msg+"."), true
}
