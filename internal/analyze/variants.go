package analyze

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// mergeVariants returns the checks of a test's old version with each set
// of variant checks that the new version merged collapsed into one: checks
// of one kind and subject in mutually exclusive arms of one conditional
// (if (browser === 'webkit') expect(x).toMatchInlineSnapshot(A) else
// expect(x).toMatchInlineSnapshot(B)) run once per run between them, so
// one check of that kind and subject, at least as strong, made where the
// conditional stood (no longer guarded by it, still under the arms that
// guarded the conditional) is all of them. The collapsed set keeps the
// member the new check repeats, else its first, for the usual comparison
// with the new check. A merged check left in one arm, a check of another
// subject or kind, or a new check that the old version's other checks of
// that kind and subject need, collapses nothing.
func mergeVariants(old, cur []testscan.Assertion) []testscan.Assertion {
	armed := false
	for _, x := range old {
		if len(x.Arms) > 0 && x.Subject != "" {
			armed = true
			break
		}
	}
	if !armed {
		return old
	}
	drop := make([]bool, len(old))
	taken := make([]bool, len(old)) // a member of a collapsed set
	collapses := map[string]int{}
	for _, y := range cur {
		if y.Subject == "" || !knownArms(y.Arms) {
			continue
		}
		k := variantKey(y)
		var set []int
		for i, x := range old {
			if taken[i] || variantKey(x) != k || effStrength(x) > effStrength(y) || !underArms(x.Arms, y.Arms) {
				continue
			}
			exclusive := true
			for _, m := range set {
				if !exclusiveArms(old[m].Arms, x.Arms) {
					exclusive = false
					break
				}
			}
			if exclusive {
				set = append(set, i)
			}
		}
		if len(set) < 2 {
			continue
		}
		keep := set[0]
		for _, m := range set {
			taken[m] = true
			if assertKey(old[m]) == assertKey(y) {
				keep = m
			}
		}
		for _, m := range set {
			drop[m] = m != keep
		}
		collapses[k]++
	}
	// A check re-made in an arm of a conditional with no other arm (if
	// (browser === 'webkit') expect(x).toMatch(B) after expect(x).toMatch(A)
	// outside it), where B differs from A in numbers only, is A's variant
	// for one platform (a stack trace's column): one check in the new
	// version, where A stood and no longer in the arm, is both of them, when
	// A itself was rewritten in numbers (the values made the same
	// everywhere). Dropping the arm and keeping A word for word drops a
	// platform's check.
	for i, x := range old {
		if taken[i] || len(x.Arms) == 0 {
			continue
		}
		refines := false
		for j, z := range old {
			if j == i || taken[j] || z.Line >= x.Line || !underArms(x.Arms, z.Arms) || !knownArms(z.Arms) || !numbersVariant(x, z) {
				continue
			}
			zk := assertKey(z)
			rewritten := slices.ContainsFunc(cur, func(y testscan.Assertion) bool {
				return sameArms(y.Arms, z.Arms) && assertKey(y) != zk && numbersVariant(y, z) && effStrength(y) >= effStrength(x)
			})
			if rewritten && !slices.ContainsFunc(cur, func(y testscan.Assertion) bool { return assertKey(y) == zk }) {
				refines = true
				break
			}
		}
		if refines && !slices.ContainsFunc(cur, func(y testscan.Assertion) bool { return len(y.Arms) >= len(x.Arms) && numbersVariant(y, x) }) {
			taken[i], drop[i] = true, true
			collapses[variantKey(x)]++
		}
	}
	if len(collapses) == 0 {
		return old
	}
	// Each collapsed set needs a check of the new version of its own: the
	// old version's other checks of that kind and subject keep theirs.
	have := map[string]int{}
	for _, y := range cur {
		have[variantKey(y)]++
	}
	need := map[string]int{}
	for i, x := range old {
		if !drop[i] {
			need[variantKey(x)]++
		}
	}
	out := make([]testscan.Assertion, 0, len(old))
	for i, x := range old {
		if drop[i] && need[variantKey(x)] <= have[variantKey(x)] {
			continue
		}
		out = append(out, x)
	}
	return out
}

// variantKey is what variant checks share: kind, sense and subject.
func variantKey(x testscan.Assertion) string {
	if x.Negated {
		return x.Kind + "\x00!\x00" + x.Subject
	}
	return x.Kind + "\x00\x00" + x.Subject
}

// knownArms reports whether every arm of arms names its conditional.
func knownArms(arms []testscan.Arm) bool {
	for _, a := range arms {
		if a.Cond == "" {
			return false
		}
	}
	return true
}

// underArms reports whether arms (of the old version) run deeper than
// prefix (of the new version) and within it: prefix's arms, by condition
// and index, and then more.
func underArms(arms, prefix []testscan.Arm) bool {
	if len(arms) <= len(prefix) {
		return false
	}
	for i, p := range prefix {
		if arms[i].Cond != p.Cond || arms[i].Index != p.Index {
			return false
		}
	}
	return true
}

// exclusiveArms reports whether checks guarded by a and b (of one file
// version) never both run in one pass: where their arms first differ,
// they are different arms of the same conditional.
func exclusiveArms(a, b []testscan.Arm) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].At == b[i].At && a[i].Index == b[i].Index {
			continue
		}
		return a[i].At == b[i].At
	}
	return false
}

// numbersVariant reports whether two checks are one check with other
// numbers: of one kind and sense, one operand the same and the other
// differing in its numbers only (`:58:10` and `:58:14`; `"x:58:10" in out`
// and `"x:58:14" in out`).
func numbersVariant(x, z testscan.Assertion) bool {
	if x.Kind != z.Kind || x.Negated != z.Negated || x.Subject == "" || x.Expected == "" {
		return false
	}
	differ := func(a, b string) bool { return hasDigit(a) && withoutDigits(a) == withoutDigits(b) }
	return x.Subject == z.Subject && differ(x.Expected, z.Expected) || x.Expected == z.Expected && differ(x.Subject, z.Subject)
}

// sameArms reports whether two lists of arms are the same conditionals and
// arms, by condition and index.
func sameArms(a, b []testscan.Arm) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Cond != b[i].Cond || a[i].Index != b[i].Index {
			return false
		}
	}
	return true
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

// withoutDigits is s with each run of digits replaced by one '#'.
func withoutDigits(s string) string {
	var b strings.Builder
	digits := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			if !digits {
				b.WriteByte('#')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteByte(c)
	}
	return b.String()
}
