//go:build !unix

package collect

const (
	noFollow = 0
	nonBlock = 0
)
