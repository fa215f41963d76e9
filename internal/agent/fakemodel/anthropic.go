package fakemodel

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// maxBody bounds a request body the server reads.
const maxBody = 64 << 20

func readBody(r *http.Request) ([]byte, error) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, fmt.Errorf("gzip request body: %w", err)
		}
		defer zr.Close()
		body = zr
	}
	return io.ReadAll(io.LimitReader(body, maxBody))
}

// StartAnthropic serves the Anthropic Messages API
// (https://docs.anthropic.com/en/api/messages-streaming) at URL/v1/messages,
// streaming each turn of the script as Claude Code expects it. A request
// that offers no tools is the client's own bookkeeping (a title, a summary):
// it is answered with a short text outside the script.
func StartAnthropic(t testing.TB, script []Turn, opts Options) *Server {
	return start(t, script, opts, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /v1/messages", s.anthropicMessages)
		mux.HandleFunc("POST /v1/messages/count_tokens", func(w http.ResponseWriter, r *http.Request) {
			_, _ = readBody(r)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"input_tokens": 100}`)
		})
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			s.fail("unexpected request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
		})
		return mux
	})
}

func (s *Server) anthropicMessages(w http.ResponseWriter, r *http.Request) {
	req, err := decode(r)
	if err != nil {
		s.fail("%v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tools, _ := req.Body["tools"].([]any)
	req.Side = len(tools) == 0
	req.First = anthropicFirst(req.Body)
	turn, ok := s.take(req)
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"fakemodel: the script has no turn for this request"}}`)
		return
	}
	if req.Side {
		turn = Turn{Text: "ok"}
	}
	if turn.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(turn.Status)
		fmt.Fprint(w, `{"type":"error","error":{"type":"api_error","message":"fakemodel: the script fails this request"}}`)
		return
	}
	model, _ := req.Body["model"].(string)
	if stream, _ := req.Body["stream"].(bool); !stream {
		s.anthropicJSON(w, model, turn)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	u := s.opts.Usage
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": s.id("msg"), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": u.InputTokens, "output_tokens": 1},
	}})
	index := 0
	if turn.Text != "" || len(turn.Calls) == 0 {
		text := turn.Text
		if text == "" {
			text = "Done."
		}
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "text_delta", "text": text}})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	for _, c := range turn.Calls {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": map[string]any{
			"type": "tool_use", "id": s.id("toolu"), "name": c.Name, "input": map[string]any{},
		}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": map[string]any{"type": "input_json_delta", "partial_json": inputJSON(c)}})
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	stop := "end_turn"
	if len(turn.Calls) > 0 {
		stop = "tool_use"
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": u.OutputTokens}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// anthropicJSON answers a request that did not ask for a stream.
func (s *Server) anthropicJSON(w http.ResponseWriter, model string, turn Turn) {
	var content []any
	if turn.Text != "" || len(turn.Calls) == 0 {
		text := turn.Text
		if text == "" {
			text = "Done."
		}
		content = append(content, map[string]any{"type": "text", "text": text})
	}
	for _, c := range turn.Calls {
		content = append(content, map[string]any{"type": "tool_use", "id": s.id("toolu"), "name": c.Name, "input": rawJSON(inputJSON(c))})
	}
	stop := "end_turn"
	if len(turn.Calls) > 0 {
		stop = "tool_use"
	}
	writeJSONResponse(w, map[string]any{
		"id": s.id("msg"), "type": "message", "role": "assistant", "model": model, "content": content,
		"stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": s.opts.Usage.InputTokens, "output_tokens": s.opts.Usage.OutputTokens},
	})
}

// anthropicFirst is the text of the first user message of a Messages
// request: a string, or the text of its content blocks.
func anthropicFirst(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		msg, _ := m.(map[string]any)
		if role, _ := msg["role"].(string); role != "user" {
			continue
		}
		switch c := msg["content"].(type) {
		case string:
			return c
		case []any:
			var b strings.Builder
			for _, block := range c {
				if bl, ok := block.(map[string]any); ok {
					if text, ok := bl["text"].(string); ok {
						b.WriteString(text)
						b.WriteByte('\n')
					}
				}
			}
			return b.String()
		}
		return ""
	}
	return ""
}
