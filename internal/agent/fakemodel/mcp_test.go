package fakemodel

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestServeMCP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"` + path + `","content":"hi"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"` + path + `"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"bogus"}`,
	}, "\n")
	var out bytes.Buffer
	if err := ServeMCP(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d answers, want 5:\n%s", len(lines), out.String())
	}
	var read struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[3]), &read); err != nil || read.Result.Content[0].Text != "hi" {
		t.Errorf("read_file: %s (%v)", lines[3], err)
	}
	if data, _ := os.ReadFile(path); string(data) != "hi" {
		t.Errorf("write_file wrote %q", data)
	}
	if !strings.Contains(lines[1], `"read_file"`) || !strings.Contains(lines[4], "-32601") {
		t.Errorf("tools/list or the unknown method:\n%s", out.String())
	}
}
