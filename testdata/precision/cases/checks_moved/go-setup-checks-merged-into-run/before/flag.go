package flag

import "flag"

type IntFlag struct {
	Name  string
	Value int64
}

func (f *IntFlag) Apply(set *flag.FlagSet) error {
	set.Int64Var(&f.Value, f.Name, f.Value, "")
	return nil
}

type Command struct{ Flags []*IntFlag }

func (c *Command) Run(args []string) error {
	set := flag.NewFlagSet("cmd", flag.ContinueOnError)
	for _, f := range c.Flags {
		if err := f.Apply(set); err != nil {
			return err
		}
	}
	return set.Parse(args)
}
