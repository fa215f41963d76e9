package web

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

var errRender = errors.New("TestRender")

type failing struct{}

func (failing) Render() error { return errRender }

func TestContextRenderIfErr(t *testing.T) {
	c := &Context{}
	c.Render(failing{})
	assert.Equal(t, []error{errRender}, c.Errors)
}
