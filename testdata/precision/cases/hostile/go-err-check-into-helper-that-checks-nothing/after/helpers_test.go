package cmd

import "testing"

func assertNoErr(t *testing.T, e error) {
	t.Log(e)
}
