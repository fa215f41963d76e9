package completion

// Command is a shell's completion command.
type Command struct{ flags map[string]bool }

// Lookup reports the flag name, nil when the command has none.
func (c *Command) Lookup(name string) *string {
	if !c.flags[name] {
		return nil
	}
	return &name
}

// Find returns the completion command of shell.
func Find(shell string) (*Command, error) {
	return &Command{flags: map[string]bool{"no-descriptions": shell != "bash"}}, nil
}
