package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDeselectedMarkers(t *testing.T) {
	tests := []struct {
		line  string
		names []string
		ok    bool
	}{
		{`addopts = "-m 'not stress'"`, []string{"stress"}, true},
		{`addopts = -m "not slow and not network" -ra`, []string{"slow", "network"}, true},
		{`addopts = "-m \"not stress\""`, []string{"stress"}, true},
		{`addopts = "-m 'unit'"`, nil, false},
		{`addopts = "-m 'not slow or network'"`, nil, false},
		{`addopts = "-m 'not (slow)'"`, nil, false},
		{`addopts = "-m 'not slow and'"`, nil, false},
		{`addopts = "-m 'not a' -m 'not b'"`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			names, _, ok := deselectedMarkers(tt.line)
			if ok != tt.ok || tt.ok && !cmp.Equal(names, tt.names) {
				t.Errorf("deselectedMarkers = %v, %v; want %v, %v", names, ok, tt.names, tt.ok)
			}
		})
	}
}

func TestPytestMarkers(t *testing.T) {
	tests := []struct {
		path, src string
		want      map[string]bool
	}{
		{"pyproject.toml", "[tool.pytest.ini_options]\nmarkers = [\n  \"stress: slow (deselect with '-m \\\"not stress\\\"')\",\n  \"net(host): network\",\n]\n",
			map[string]bool{"stress": true, "net": true}},
		{"setup.cfg", "[tool:pytest]\nmarkers =\n    slow: slow tests\n    db\n", map[string]bool{"slow": true, "db": true}},
		{"pytest.ini", "[pytest]\n# markers = old: gone\naddopts = -ra\n", map[string]bool{}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, pytestMarkers(tt.path, []byte(tt.src))); diff != "" {
				t.Errorf("markers (-want +got):\n%s", diff)
			}
		})
	}
}
