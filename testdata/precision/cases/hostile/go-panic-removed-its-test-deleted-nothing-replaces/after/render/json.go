package render

import (
	"encoding/json"
	"net/http"
)

// JSON renders its data as JSON.
type JSON struct{ Data any }

// Render writes the data.
func (r JSON) Render(w http.ResponseWriter) error {
	return writeJSON(w, r.Data)
}

func writeJSON(w http.ResponseWriter, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
