package analyze

import (
	"slices"
	"testing"
)

func TestGoFuncsScan(t *testing.T) {
	src := `package p

import "fmt"

type (
	A struct{ f func() }
	B = int
)

type C[T any] struct{}

func F(x func(int) int) {}

func (c *C[T]) M() { func() {}() }

func (B2) N() {}

var v = func() {}

func G[T any]() {}
`
	var got []string
	goFuncs("p.go", []byte(src), func(s string) { got = append(got, s) })
	want := []string{"A", "B", "C", "F", ".M", ".N", "G"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
