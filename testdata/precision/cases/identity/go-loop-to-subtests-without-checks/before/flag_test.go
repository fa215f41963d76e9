package flag

import "testing"

var uintSliceTests = []struct {
	name     string
	aliases  []string
	value    []uint64
	expected string
}{
	{"heads", nil, nil, "--heads value\t[]"},
	{"H", nil, nil, "--H value\t[]"},
	{
		"heads",
		[]string{"H"},
		[]uint64{9, 3},
		"--heads value\t[9 3]",
	},
}

func TestUintSliceHelpOutput(t *testing.T) {
	for _, test := range uintSliceTests {
		fl := UintSlice{Name: test.name, Aliases: test.aliases, Value: test.value}
		if out := fl.String(); out != test.expected {
			t.Errorf("%q does not match %q", out, test.expected)
		}
	}
}

func TestUint64SliceHelpOutput(t *testing.T) {
	if (UintSlice{Name: "helpoutput"}).String() == "" {
		t.Error("empty")
	}
}

func TestUint64SliceWithEnv(t *testing.T) {
	if (UintSlice{Name: "withenv"}).String() == "" {
		t.Error("empty")
	}
}

func TestUint64SliceSetsAllNames(t *testing.T) {
	if (UintSlice{Name: "setsallnames"}).String() == "" {
		t.Error("empty")
	}
}

func TestUint64SliceReturnNil(t *testing.T) {
	if (UintSlice{Name: "returnnil"}).String() == "" {
		t.Error("empty")
	}
}
