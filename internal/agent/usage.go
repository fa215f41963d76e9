package agent

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Usage is the tokens and cost an agent reported on its output, summed over
// its usage lines.
type Usage struct {
	// Source names the clients whose lines were seen ("claude", "codex",
	// "claude+codex").
	Source              string `json:"source"`
	InputTokens         int    `json:"input_tokens"`
	OutputTokens        int    `json:"output_tokens"`
	CacheReadTokens     int    `json:"cache_read_input_tokens,omitempty"`
	CacheCreationTokens int    `json:"cache_creation_input_tokens,omitempty"`
	CachedInputTokens   int    `json:"cached_input_tokens,omitempty"`
	// CacheWriteTokens and ReasoningTokens are parts Codex reports beside
	// its input and output.
	CacheWriteTokens int `json:"cache_write_input_tokens,omitempty"`
	ReasoningTokens  int `json:"reasoning_output_tokens,omitempty"`
	// TotalTokens is every token the client counts once.
	TotalTokens int `json:"total_tokens"`
	// CostUSD is the cost reported, nil when a line counted gave none.
	CostUSD *float64 `json:"cost_usd"`
	// Lines counts the usage lines summed.
	Lines int `json:"lines"`
}

// MaxLineTokens and MaxLineCost bound what one usage line may report; a
// line beyond them is not an agent's usage.
const (
	MaxLineTokens = 1 << 40
	MaxLineCost   = 1e6
)

// Plausible reports whether every count of one line is one an agent
// reports: none negative, none large enough to wrap the sums.
func Plausible(counts ...int) bool {
	for _, v := range counts {
		if v < 0 || v > MaxLineTokens {
			return false
		}
	}
	return true
}

// add sums one line's usage into u.
func (u *Usage) add(l Usage, client string) {
	switch u.Source {
	case "", client:
		u.Source = client
	default:
		if !strings.Contains("+"+u.Source+"+", "+"+client+"+") {
			u.Source += "+" + client
		}
	}
	first := u.Lines == 0
	u.InputTokens += l.InputTokens
	u.OutputTokens += l.OutputTokens
	u.CacheReadTokens += l.CacheReadTokens
	u.CacheCreationTokens += l.CacheCreationTokens
	u.CachedInputTokens += l.CachedInputTokens
	u.CacheWriteTokens += l.CacheWriteTokens
	u.ReasoningTokens += l.ReasoningTokens
	u.TotalTokens += l.TotalTokens
	switch {
	case l.CostUSD == nil:
		u.CostUSD = nil
	case first:
		c := *l.CostUSD
		u.CostUSD = &c
	case u.CostUSD != nil:
		c := AddCost(*u.CostUSD, *l.CostUSD)
		u.CostUSD = &c
	}
	u.Lines++
}

// AddCost adds two costs as the decimals the agent reported them in: the
// sum keeps the larger number of decimal places of the two, so 0.0016 +
// 0.0164 is 0.018, not the float 0.018000000000000002.
func AddCost(a, b float64) float64 {
	places := max(decimals(a), decimals(b))
	p := math.Pow10(places)
	return math.Round((a+b)*p) / p
}

// decimals counts the decimal places of a cost in its shortest form (at
// most 12).
func decimals(v float64) int {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return min(len(s)-i-1, 12)
	}
	return 0
}

// maxUsageLine bounds a line the scanner keeps in memory; a longer line is
// skipped and makes the usage incomplete.
const maxUsageLine = 32 << 20

// UsageScanner reads an agent's standard output as it is written and sums
// the usage lines of every client in it (a custom command may run any
// client). It is an io.Writer.
type UsageScanner struct {
	// Clients are the clients whose lines are read.
	Clients []Client

	mu       sync.Mutex
	buf      []byte
	skipping bool
	usage    Usage
	// Incomplete is set when a line too long to read was skipped: a usage
	// line may have been in it.
	Incomplete bool
}

// Write implements io.Writer.
func (s *UsageScanner) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.keep(p)
			break
		}
		s.keep(p[:i])
		if !s.skipping {
			s.line(s.buf)
		}
		s.buf, s.skipping = s.buf[:0], false
		p = p[i+1:]
	}
	return n, nil
}

func (s *UsageScanner) keep(p []byte) {
	if s.skipping {
		return
	}
	if len(s.buf)+len(p) > maxUsageLine {
		s.skipping, s.Incomplete, s.buf = true, true, s.buf[:0]
		return
	}
	s.buf = append(s.buf, p...)
}

func (s *UsageScanner) line(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return
	}
	for _, c := range s.Clients {
		if l, ok := c.ScanUsage(b); ok {
			if l.CostUSD != nil {
				switch cost := *l.CostUSD; {
				case cost > MaxLineCost || math.IsNaN(cost):
					return // not a cost an agent reports
				case cost < 0:
					l.CostUSD = nil
				}
			}
			s.usage.add(l, c.Name())
			return
		}
	}
}

// Usage returns the usage seen so far, nil when no usage line was seen. A
// last line left without its newline is read too.
func (s *UsageScanner) Usage() *Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.buf) > 0 && !s.skipping {
		s.line(s.buf)
		s.buf = s.buf[:0]
	}
	if s.usage.Lines == 0 {
		return nil
	}
	u := s.usage
	if u.CostUSD != nil {
		c := *u.CostUSD
		u.CostUSD = &c
	}
	return &u
}
