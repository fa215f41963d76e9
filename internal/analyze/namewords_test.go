package analyze

import (
	"slices"
	"sort"
	"testing"
)

func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"test_untagged_newtype_struct", []string{"newtype", "struct", "untagged"}},
		{"variant_identifier::variant1", []string{"identifier", "variant"}},
		{"TestScrapeLoopCacheRef", []string{"cache", "loop", "ref", "scrape"}},
		{"tests", nil},
	} {
		var got []string
		for w := range nameWords(c.in) {
			got = append(got, w)
		}
		sort.Strings(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("nameWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
