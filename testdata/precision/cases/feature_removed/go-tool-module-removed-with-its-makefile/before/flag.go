package cli

// Flag is a command-line flag.
type Flag struct {
	Name  string
	Value string
}

// String returns the flag as it is written.
func (f Flag) String() string { return "--" + f.Name + "=" + f.Value }
