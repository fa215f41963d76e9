package web

// Renderer writes a response.
type Renderer interface{ Render() error }

// Context is one request.
type Context struct{ Errors []error }

// Render renders r, and panics when it fails.
func (c *Context) Render(r Renderer) {
	if err := r.Render(); err != nil {
		panic(err)
	}
}
