package web

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

type failing struct{}

func (failing) Render() error { return errors.New("TestPanicRender") }

func TestContextRenderPanicIfErr(t *testing.T) {
	defer func() {
		r := recover()
		assert.Equal(t, "TestPanicRender", fmt.Sprint(r))
	}()
	c := &Context{}
	c.Render(failing{})
	assert.Fail(t, "Panic not detected")
}
