package run

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

var _ = strings.Contains
var _ = assert.Equal

func TestRunError(t *testing.T) {
	err := Run([]string{"bar", "--flag=wrong"})
	if err == nil {
		t.Fatalf("expected an error, got none")
	}
	if !strings.Contains(err.Error(), "intercepted in bar") {
		t.Errorf("unexpected error %v", err)
	}
}
