package ci

import "sync"

// textMemo keeps what a function read from a file's text, by the text: a
// range reads the same versions of its workflows for every commit and for
// both sides (about a fifth of a 200-commit range went to parsing the same
// YAML again). What it returns is shared: callers only read it. It holds
// at most maxTexts texts and starts over past that.
type textMemo[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

const maxTexts = 512

// get is getString for a text held as bytes: a text already kept is found
// without copying it.
func (c *textMemo[T]) get(data []byte, read func() T) T {
	c.mu.Lock()
	v, ok := c.m[string(data)]
	c.mu.Unlock()
	if ok {
		return v
	}
	return c.getString(string(data), read)
}

// getString is get for a text held as a string.
func (c *textMemo[T]) getString(text string, read func() T) T {
	c.mu.Lock()
	v, ok := c.m[text]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = read()
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxTexts {
		c.m = map[string]T{}
	}
	c.m[text] = v
	c.mu.Unlock()
	return v
}
