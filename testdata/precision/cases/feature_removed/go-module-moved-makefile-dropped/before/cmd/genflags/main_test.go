package main

import "testing"

func TestTypeName(t *testing.T) {
	if got := typeName("int"); got != "IntFlag" {
		t.Errorf("typeName = %q", got)
	}
}
