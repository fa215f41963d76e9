package parse

// Args returns the positional arguments; the "--" terminator is dropped.
func Args(in []string) []string {
	var out []string
	for _, a := range in {
		if len(a) > 1 && a[0] == '-' {
			continue
		}
		out = append(out, a)
	}
	return out
}
