package flag

import "strconv"

type IntFlag struct {
	Name  string
	Value int64
}

type Command struct{ Flags []*IntFlag }

// Run parses "--name value" pairs itself; the std flag package is no longer used.
func (c *Command) Run(args []string) error {
	for i := 0; i+1 < len(args); i += 2 {
		for _, f := range c.Flags {
			if args[i] == "--"+f.Name {
				v, err := strconv.ParseInt(args[i+1], 10, 64)
				if err != nil {
					return err
				}
				f.Value = v
			}
		}
	}
	return nil
}
