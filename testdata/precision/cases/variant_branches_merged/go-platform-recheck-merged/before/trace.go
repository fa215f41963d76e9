package trace

import "fmt"

func Frame(line int) string { return fmt.Sprintf("trace_test.go:%d:%d", line, 10) }
