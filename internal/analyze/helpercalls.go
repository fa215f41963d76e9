package analyze

import (
	"slices"
	"strings"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// dropHelperCalls takes out of the Rust tests' checks the calls of assert_*
// functions (read as checks by the extractor, as serde_test's
// assert_tokens are) that a file of the change defines: helpers of the
// project's own, whose bodies say what they check (a helper the change
// added that ignores its arguments checks nothing). The extractor already
// left out the file's own helpers. Parsed facts are shared, so a side whose
// checks change gets its own copy.
func dropHelperCalls(pairs []*pair) {
	helpers := map[string]bool{}
	for _, pr := range pairs {
		for _, s := range []*side{pr.old, pr.new} {
			if s == nil || s.facts == nil || s.facts.Lang != testscan.Rust {
				continue
			}
			for _, h := range s.facts.Helpers {
				if i := strings.LastIndexAny(h, ":."); i >= 0 {
					h = h[i+1:]
				}
				helpers[h+"()"] = true
			}
		}
	}
	if len(helpers) == 0 {
		return
	}
	called := func(x testscan.Assertion) bool { return helpers[x.Kind] }
	for _, pr := range pairs {
		for _, s := range []*side{pr.old, pr.new} {
			if s == nil || s.facts == nil || s.facts.Lang != testscan.Rust || !helperCalled(s.facts, helpers) {
				continue
			}
			f := *s.facts
			f.Tests = slices.Clone(f.Tests)
			for i := range f.Tests {
				f.Tests[i].Assertions = slices.DeleteFunc(slices.Clone(f.Tests[i].Assertions), called)
			}
			f.HelperAssertions = slices.DeleteFunc(slices.Clone(f.HelperAssertions), called)
			s.facts = &f
		}
	}
}

// helperCalled reports whether a check of f is a call of one of helpers.
func helperCalled(f *testscan.File, helpers map[string]bool) bool {
	for _, t := range f.Tests {
		for _, x := range t.Assertions {
			if helpers[x.Kind] {
				return true
			}
		}
	}
	for _, x := range f.HelperAssertions {
		if helpers[x.Kind] {
			return true
		}
	}
	return false
}
