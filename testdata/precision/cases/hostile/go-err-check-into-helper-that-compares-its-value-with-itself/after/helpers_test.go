package cmd

import "testing"

func assertNoErr(t *testing.T, e error) {
	if e != e {
		t.Error(e)
	}
}
