package args

import "fmt"

func NoArgs(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unknown command %q for %q", args[0], "c")
	}
	return nil
}
