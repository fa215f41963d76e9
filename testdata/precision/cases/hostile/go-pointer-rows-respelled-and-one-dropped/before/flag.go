package flags

import (
	"flag"
	"fmt"
	"strings"
)

// Slice is a flag.Value collecting comma-separated values.
type Slice struct{ vals []string }

func (s *Slice) String() string { return fmt.Sprint(s.vals) }

func (s *Slice) Set(v string) error {
	s.vals = append(s.vals, strings.Split(v, ",")...)
	return nil
}

// Apply registers the flag on set.
func Apply(set *flag.FlagSet, name string, v flag.Value) { set.Var(v, name, "") }
