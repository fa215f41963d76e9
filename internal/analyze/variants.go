package analyze

import "github.com/ralph-gate/ralph-gate/internal/testscan"

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
