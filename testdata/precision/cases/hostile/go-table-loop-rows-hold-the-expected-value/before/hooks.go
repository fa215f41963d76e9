package hooks

func Run(args []string) (pre, run, post string) { return "one two", "one two", "one two" }
