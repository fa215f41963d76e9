package ci

import "sort"

// Helpers of the findings' texts, shared with package analyze.

func Quoted(s string) string {
	if s == "" {
		return "``"
	}
	return "`" + Clip(s) + "`"
}

func Clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
