package fakemodel

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// StartOpenAI serves the OpenAI Responses API
// (https://platform.openai.com/docs/api-reference/responses-streaming) at
// URL/v1/responses, streaming each turn of the script as Codex expects it,
// and an empty model list at URL/v1/models. Point Codex at it with a model
// provider whose base_url is URL+"/v1" and wire_api "responses".
//
// A call becomes the item the request's tools ask for: a custom_tool_call
// with the raw input for a freeform tool (Codex's apply_patch), a
// tool_search_call for the client-side tool_search, a function_call
// otherwise (with its namespace for a deferred tool). A call of a tool the
// request does not offer is sent all the same and reported by Check: a
// script written for another Codex version fails loudly.
//
// A request that offers no tools is the client's own bookkeeping: it is
// answered with a short text outside the script.
func StartOpenAI(t testing.TB, script []Turn, opts Options) *Server {
	return start(t, script, opts, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /v1/responses", s.openAIResponses)
		mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
			writeJSONResponse(w, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
		})
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			s.fail("unexpected request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
		})
		return mux
	})
}

func (s *Server) openAIResponses(w http.ResponseWriter, r *http.Request) {
	if enc := r.Header.Get("Content-Encoding"); enc != "" && enc != "gzip" {
		s.fail("request body in %s encoding, which the server does not read", enc)
		http.Error(w, "unsupported content encoding", http.StatusUnsupportedMediaType)
		return
	}
	req, err := decode(r)
	if err != nil {
		s.fail("%v", err)
		openAIError(w, http.StatusBadRequest, err.Error())
		return
	}
	tools, _ := req.Body["tools"].([]any)
	req.Side = len(tools) == 0
	req.First = openAIFirst(req.Body)
	turn, ok := s.take(req)
	if !ok {
		openAIError(w, http.StatusBadRequest, "fakemodel: the script has no turn for this request")
		return
	}
	if req.Side {
		turn = Turn{Text: "ok"}
	}
	if turn.Status != 0 {
		openAIError(w, turn.Status, "fakemodel: the script fails this request")
		return
	}
	model, _ := req.Body["model"].(string)
	offered := offeredTools(req.Body)
	var items []map[string]any
	if turn.Text != "" || len(turn.Calls) == 0 {
		text := turn.Text
		if text == "" {
			text = "Done."
		}
		items = append(items, map[string]any{
			"type": "message", "id": s.id("msg"), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
		})
	}
	for _, c := range turn.Calls {
		items = append(items, s.callItem(c, offered))
	}
	resp := map[string]any{"id": s.id("resp"), "object": "response", "model": model, "status": "completed", "output": items, "usage": s.openAIUsage()}
	if stream, _ := req.Body["stream"].(bool); !stream {
		writeJSONResponse(w, resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	seq := 0
	event := func(data map[string]any) {
		data["sequence_number"] = seq
		seq++
		sse(w, data["type"].(string), data)
	}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": resp["id"], "object": "response", "model": model, "status": "in_progress", "output": []any{}}})
	for i, item := range items {
		added := map[string]any{}
		for k, v := range item {
			added[k] = v
		}
		switch item["type"] {
		case "message":
			added["status"], added["content"] = "in_progress", []any{}
			event(map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
			text := item["content"].([]any)[0].(map[string]any)["text"]
			event(map[string]any{"type": "response.output_text.delta", "item_id": item["id"], "output_index": i, "content_index": 0, "delta": text})
			event(map[string]any{"type": "response.output_text.done", "item_id": item["id"], "output_index": i, "content_index": 0, "text": text})
		case "function_call":
			added["status"], added["arguments"] = "in_progress", ""
			event(map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
			event(map[string]any{"type": "response.function_call_arguments.delta", "item_id": item["id"], "output_index": i, "delta": item["arguments"]})
		case "custom_tool_call":
			added["status"], added["input"] = "in_progress", ""
			event(map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
			event(map[string]any{"type": "response.custom_tool_call_input.delta", "item_id": item["id"], "output_index": i, "call_id": item["call_id"], "delta": item["input"]})
		default:
			event(map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
		}
		event(map[string]any{"type": "response.output_item.done", "output_index": i, "item": item})
	}
	event(map[string]any{"type": "response.completed", "response": resp})
}

// callItem is the output item of one call, of the kind the request offers
// the tool as.
func (s *Server) callItem(c Call, offered map[string]string) map[string]any {
	key := c.Name
	if c.Namespace != "" {
		key = c.Namespace + "." + c.Name
	}
	kind, ok := offered[key]
	if !ok {
		s.fail("the script calls %s, which the request does not offer (offered: %s)", key, strings.Join(slices.Sorted(maps.Keys(offered)), ", "))
		kind = "function"
		if _, raw := c.Input.(string); raw {
			kind = "custom"
		}
	}
	callID := s.id("call")
	switch kind {
	case "custom":
		return map[string]any{"type": "custom_tool_call", "id": s.id("ctc"), "call_id": callID, "name": c.Name, "input": inputJSON(c), "status": "completed"}
	case "tool_search":
		var args any = map[string]any{}
		_ = json.Unmarshal([]byte(inputJSON(c)), &args)
		return map[string]any{"type": "tool_search_call", "id": s.id("ts"), "call_id": callID, "execution": "client", "arguments": args, "status": "completed"}
	}
	item := map[string]any{"type": "function_call", "id": s.id("fc"), "call_id": callID, "name": c.Name, "arguments": inputJSON(c), "status": "completed"}
	if c.Namespace != "" {
		item["namespace"] = c.Namespace
	}
	return item
}

// offeredTools maps each tool a request offers to its kind (function,
// custom, tool_search): the tools of the request, the tools of its
// namespaces, and the deferred tools that earlier tool_search outputs
// exposed, keyed "namespace.name".
func offeredTools(body map[string]any) map[string]string {
	out := map[string]string{}
	var add func(ns string, tools []any)
	add = func(ns string, tools []any) {
		for _, t := range tools {
			tool, _ := t.(map[string]any)
			typ, _ := tool["type"].(string)
			name, _ := tool["name"].(string)
			switch {
			case typ == "namespace":
				sub, _ := tool["tools"].([]any)
				add(name, sub)
			case typ == "tool_search":
				out["tool_search"] = typ
			case name != "" && ns != "":
				out[ns+"."+name] = typ
			case name != "":
				out[name] = typ
			}
		}
	}
	tools, _ := body["tools"].([]any)
	add("", tools)
	input, _ := body["input"].([]any)
	for _, it := range input {
		item, _ := it.(map[string]any)
		if item["type"] == "tool_search_output" {
			tools, _ := item["tools"].([]any)
			add("", tools)
		}
	}
	return out
}

func (s *Server) openAIUsage() map[string]any {
	u := s.opts.Usage
	return map[string]any{
		"input_tokens":          u.InputTokens,
		"input_tokens_details":  map[string]any{"cached_tokens": u.CachedInputTokens, "cache_write_tokens": u.CacheWriteTokens},
		"output_tokens":         u.OutputTokens,
		"output_tokens_details": map[string]any{"reasoning_tokens": u.ReasoningTokens},
		"total_tokens":          u.InputTokens + u.OutputTokens,
	}
}

func openAIError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"type": "invalid_request_error", "message": msg, "code": nil}})
	_, _ = w.Write(b)
}

// openAIFirst is the text of a Responses request's opening user messages:
// those before the first item that is not a user or developer message.
// For Codex that is its environment context and the prompt (or, for a
// subagent, the message it was spawned with).
func openAIFirst(body map[string]any) string {
	input, _ := body["input"].([]any)
	var b strings.Builder
	for _, it := range input {
		item, _ := it.(map[string]any)
		role, _ := item["role"].(string)
		if typ, _ := item["type"].(string); (typ != "message" && typ != "") || (role != "user" && role != "developer") {
			break
		}
		if role != "user" {
			continue
		}
		switch c := item["content"].(type) {
		case string:
			b.WriteString(c)
			b.WriteByte('\n')
		case []any:
			for _, part := range c {
				p, _ := part.(map[string]any)
				if text, ok := p["text"].(string); ok {
					b.WriteString(text)
					b.WriteByte('\n')
				}
			}
		}
	}
	return b.String()
}
