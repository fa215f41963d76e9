package fakemodel

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// ServeMCP is a Model Context Protocol server on standard input and output
// (https://modelcontextprotocol.io/specification, stdio transport: one
// JSON-RPC message a line) with two file tools, read_file {path} and
// write_file {path, content}: what an agent's MCP tools look like to the
// guard. A test binary runs it when the client starts it as a server.
func ServeMCP(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
				Arguments       struct {
					Path    string `json:"path"`
					Content string `json:"content"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || len(msg.ID) == 0 {
			continue // a notification, or not JSON-RPC
		}
		var result any
		switch msg.Method {
		case "initialize":
			v := msg.Params.ProtocolVersion
			if v == "" {
				v = "2025-06-18"
			}
			result = map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "files", "version": "1.0.0"}}
		case "tools/list":
			path := map[string]any{"type": "string", "description": "the file's path"}
			result = map[string]any{"tools": []any{
				map[string]any{"name": "read_file", "description": "Read a file.", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": path}, "required": []string{"path"}}},
				map[string]any{"name": "write_file", "description": "Write a file.", "inputSchema": map[string]any{"type": "object",
					"properties": map[string]any{"path": path, "content": map[string]any{"type": "string"}}, "required": []string{"path", "content"}}},
			}}
		case "tools/call":
			text := ""
			var err error
			switch msg.Params.Name {
			case "read_file":
				var b []byte
				b, err = os.ReadFile(msg.Params.Arguments.Path)
				text = string(b)
			case "write_file":
				err = os.WriteFile(msg.Params.Arguments.Path, []byte(msg.Params.Arguments.Content), 0o644)
				text = "written"
			default:
				err = fmt.Errorf("no tool %q", msg.Params.Name)
			}
			if err != nil {
				result = map[string]any{"content": []any{map[string]any{"type": "text", "text": err.Error()}}, "isError": true}
			} else {
				result = map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
			}
		default:
			if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "method not found"}}); err != nil {
				return err
			}
			continue
		}
		if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result}); err != nil {
			return err
		}
	}
	return sc.Err()
}
