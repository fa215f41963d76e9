package calc

import (
	"errors"
	"strings"
)

// Init initializes a project at name.
func Init(name string) (string, error) {
	if strings.HasPrefix(name, "/") {
		return "", errors.New("absolute path")
	}
	return "ok:" + name, nil
}
