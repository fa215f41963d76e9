package web

// Renderer writes a response.
type Renderer interface{ Render() error }

// Context is one request.
type Context struct{ Errors []error }

// Render renders r; its error is kept in c.Errors.
func (c *Context) Render(r Renderer) {
	if err := r.Render(); err != nil {
		c.Errors = append(c.Errors, err)
	}
}
