package testscan

import "testing"

func TestDeprecatedDoc(t *testing.T) {
	for text, want := range map[string]bool{
		"Pow raises a to b.\n\nDeprecated: use math.Pow.": true,
		"/**\n * Adds.\n * @deprecated since 2.0\n */":    true,
		"Adds.\n\n.. deprecated:: 1.4\n   Use add2.":      true,
		"**Deprecated**: use `sum`.":                      true,
		"DEPRECATED":                                      true,
		"Adds two numbers.":                               false,
		"Deprecates the old token.":                       false,
		"Not deprecated: the new API.":                    false,
		"":                                                false,
	} {
		if got := DeprecatedDoc(text); got != want {
			t.Errorf("DeprecatedDoc(%q) = %v, want %v", text, got, want)
		}
	}
}
