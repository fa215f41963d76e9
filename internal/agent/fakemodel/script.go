// Package fakemodel serves scripted model APIs on 127.0.0.1 for the real
// agent clients' tests: the Anthropic Messages API that Claude Code calls and
// the OpenAI Responses API that Codex calls, both streamed as server-sent
// events. Each server plays a script of assistant turns (text and tool
// calls), one per request of the agent's conversation, keeps every request
// body so that a test can assert what the model was told, and is bounded in
// requests and time: a client that asks more than the script holds gets an
// error and the test fails.
//
// Tests only: nothing in the binary imports it.
package fakemodel

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Call is one tool call the model makes.
type Call struct {
	// Name is the tool's name as the client offers it ("Bash", "Edit",
	// "shell", "apply_patch", or an MCP tool's "mcp__server__tool").
	Name string
	// Input is the tool's input, marshalled to a JSON object. A string is
	// sent as it is: the raw input of a freeform tool (Codex's apply_patch)
	// or JSON text. A func(Request) any is called with the request the
	// turn answers, for an input that depends on it (an id the client
	// returned in an earlier tool output); it must not call the Server.
	Input any
	// Namespace is, on the Responses API, the namespace of a deferred tool
	// that a tool_search exposed: "mcp__server" for an MCP server's tools,
	// which Codex then runs (and names in its hooks) as
	// "mcp__server__" + Name.
	Namespace string
}

// Turn is one assistant reply: its text, then its tool calls in order. A
// turn without calls ends the agent's turn.
type Turn struct {
	Text  string
	Calls []Call
	// Thread, when set, makes the turn answer only requests of the
	// conversation whose first user message contains it: a subagent's,
	// whose first message is the prompt the main conversation gave it. The
	// main conversation's turns leave it empty. Each thread plays its turns
	// in script order, whatever the order of the requests of concurrent
	// conversations.
	Thread string
	// When, if set, must hold for the request this turn answers; otherwise
	// the turn is held back and the request gets an error.
	When func(Request) error
	// Status, when set, answers the request with this HTTP status and an
	// error body instead of a reply: the model API failing.
	Status int
}

// Request is one request a client made, as received.
type Request struct {
	Path string
	// Body is the request body, decoded.
	Body map[string]any
	// Raw is the body as sent.
	Raw []byte
	// First is the text of the conversation's first user message.
	First string
	// Thread is the thread of the turn that answered it.
	Thread string
	// Side is set for a request the server answered outside the script (a
	// client's own bookkeeping call, such as a title or a summary).
	Side bool
}

// Text returns every string in the request body, joined by newlines: what
// the model was told, for a test to search.
func (r Request) Text() string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(r.Body)
	return b.String()
}

// Usage is what each reply reports it used.
type Usage struct {
	InputTokens, OutputTokens int
	// CachedInputTokens, CacheWriteTokens and ReasoningTokens are reported
	// by the Responses API only, as input_tokens_details.cached_tokens and
	// .cache_write_tokens and output_tokens_details.reasoning_tokens (all
	// three are parts of the input and output counts, not added to them).
	CachedInputTokens, CacheWriteTokens, ReasoningTokens int
}

// Options bound a server.
type Options struct {
	// MaxRequests bounds the requests answered from the script and outside
	// it (default: twice the script's length plus 20).
	MaxRequests int
	// Timeout is how long the server serves (default 5 minutes).
	Timeout time.Duration
	// Usage is reported with every reply (default 100 in, 20 out).
	Usage Usage
}

// Server is a scripted model API on 127.0.0.1.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:PORT.
	URL string

	t      testing.TB
	srv    *http.Server
	ln     net.Listener
	opts   Options
	mu     sync.Mutex
	script []Turn
	played []bool
	next   int
	reqs   []Request
	errs   []string
	ids    int
	done   chan struct{}
}

// start serves h on a new loopback port until the test ends.
func start(t testing.TB, script []Turn, opts Options, routes func(*Server) http.Handler) *Server {
	t.Helper()
	if opts.MaxRequests == 0 {
		opts.MaxRequests = 2*len(script) + 20
	}
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Minute
	}
	if opts.Usage == (Usage{}) {
		opts.Usage = Usage{InputTokens: 100, OutputTokens: 20}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakemodel: listen on 127.0.0.1: %v", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), t: t, ln: ln, opts: opts, script: script, played: make([]bool, len(script)), done: make(chan struct{})}
	s.srv = &http.Server{Handler: s.bounded(routes(s)), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	timer := time.AfterFunc(opts.Timeout, func() {
		s.fail("the server ran past its timeout of %s", opts.Timeout)
		_ = s.srv.Close()
	})
	t.Cleanup(func() {
		timer.Stop()
		_ = s.srv.Close()
		close(s.done)
	})
	return s
}

// bounded refuses requests from anywhere but loopback and beyond the
// request bound.
func (s *Server) bounded(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			http.Error(w, "loopback only", http.StatusForbidden)
			return
		}
		s.mu.Lock()
		n := len(s.reqs)
		s.mu.Unlock()
		if n >= s.opts.MaxRequests {
			s.fail("more than %d requests", s.opts.MaxRequests)
			http.Error(w, "request bound reached", http.StatusTooManyRequests)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// take records a request and returns the turn that answers it: the next
// unplayed turn of the request's thread. ok is false when that thread is
// played out or the turn's condition fails.
func (s *Server) take(req Request) (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.Side {
		s.reqs = append(s.reqs, req)
		return Turn{}, true
	}
	req.Thread = s.threadOf(req.First)
	s.reqs = append(s.reqs, req)
	for i, turn := range s.script {
		if s.played[i] || turn.Thread != req.Thread {
			continue
		}
		if turn.When != nil {
			if err := turn.When(req); err != nil {
				s.errs = append(s.errs, fmt.Sprintf("turn %d: %v", i+1, err))
				return Turn{}, false
			}
		}
		s.played[i] = true
		s.next++
		turn.Calls = append([]Call(nil), turn.Calls...)
		for j, c := range turn.Calls {
			if f, ok := c.Input.(func(Request) any); ok {
				turn.Calls[j].Input = f(req)
			}
		}
		return turn, true
	}
	s.errs = append(s.errs, fmt.Sprintf("request %d to %s (thread %q) came after the thread's last turn", len(s.reqs), req.Path, req.Thread))
	return Turn{}, false
}

// threadOf names the thread of a conversation from its first message: the
// first thread named in the script that the message contains, else the
// main conversation's.
func (s *Server) threadOf(first string) string {
	for _, turn := range s.script {
		if turn.Thread != "" && strings.Contains(first, turn.Thread) {
			return turn.Thread
		}
	}
	return ""
}

func (s *Server) fail(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, fmt.Sprintf(format, args...))
}

func (s *Server) id(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s_%04d", prefix, s.ids)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Played reports how many turns of the script were answered.
func (s *Server) Played() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// Errors returns what went wrong: requests beyond the script or the bound,
// failed turn conditions, a timeout.
func (s *Server) Errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errs...)
}

// Check fails the test when anything went wrong or the script was not
// played to its end.
func (s *Server) Check() {
	s.t.Helper()
	for _, e := range s.Errors() {
		s.t.Errorf("fakemodel: %s", e)
	}
	if p := s.Played(); p != len(s.script) {
		s.t.Errorf("fakemodel: %d of %d turns played", p, len(s.script))
	}
}

func decode(r *http.Request) (Request, error) {
	raw, err := readBody(r)
	if err != nil {
		return Request{}, err
	}
	req := Request{Path: r.URL.Path, Raw: raw}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &req.Body); err != nil {
			return req, fmt.Errorf("request body: %w", err)
		}
	}
	return req, nil
}

// sse writes one server-sent event and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func inputJSON(c Call) string {
	if c.Input == nil {
		return "{}"
	}
	if s, ok := c.Input.(string); ok {
		return s
	}
	b, err := json.Marshal(c.Input)
	if err != nil {
		return "{}"
	}
	return string(b)
}

type rawJSON string

// MarshalJSON writes the JSON text as it is.
func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func writeJSONResponse(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_, _ = w.Write(b)
}
