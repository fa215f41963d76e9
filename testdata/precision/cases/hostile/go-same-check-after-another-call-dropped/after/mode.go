package mode

import "flag"

var mode = "test"

// Set sets the mode; "" picks test under go test and debug elsewhere.
func Set(m string) {
	if m == "" {
		m = "debug"
		if flag.Lookup("test.v") != nil {
			m = "test"
		}
	}
	mode = m
}

// Get returns the mode.
func Get() string { return mode }
