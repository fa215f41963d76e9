package render

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRenderJSON(t *testing.T) {
	w := httptest.NewRecorder()
	assert.NoError(t, (JSON{map[string]int{"a": 1}}).Render(w))
	assert.Equal(t, `{"a":1}`, w.Body.String())
}
