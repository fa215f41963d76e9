package flag

import "fmt"

type UintSlice struct {
	Name    string
	Aliases []string
	Value   []uint64
}

func (f UintSlice) String() string { return fmt.Sprintf("--%s value\t%v", f.Name, f.Value) }
