package fakemodel

import (
	"net"
	"strings"
	"sync"
	"testing"
)

// DNS is a name server on 127.0.0.1:53 that answers every query "no such
// name" and remembers the names asked: a client in a network namespace whose
// resolv.conf points here shows every host it tried to reach.
type DNS struct {
	mu    sync.Mutex
	names []string
	conn  net.PacketConn
}

// StartDNS serves on addr (127.0.0.1:53 inside a test's network namespace)
// until the test ends.
func StartDNS(t testing.TB, addr string) *DNS {
	t.Helper()
	conn, err := net.ListenPacket("udp", addr)
	if err != nil {
		t.Fatalf("fakemodel: dns on %s: %v", addr, err)
	}
	d := &DNS{conn: conn}
	go d.serve()
	t.Cleanup(func() { conn.Close() })
	return d
}

func (d *DNS) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		q := buf[:n]
		name, end, ok := question(q)
		if !ok {
			continue
		}
		d.mu.Lock()
		d.names = append(d.names, name)
		d.mu.Unlock()
		// The question echoed, with QR set and RCODE 3 (no such name).
		resp := append([]byte(nil), q[:end]...)
		resp[2] |= 0x80
		resp[3] = resp[3]&0xF0 | 3
		resp[6], resp[7], resp[8], resp[9], resp[10], resp[11] = 0, 0, 0, 0, 0, 0
		_, _ = d.conn.WriteTo(resp, from)
	}
}

// question reads the first question's name of a DNS message, and where the
// question ends.
func question(m []byte) (string, int, bool) {
	if len(m) < 12 || m[4] != 0 || m[5] == 0 {
		return "", 0, false
	}
	var labels []string
	i := 12
	for i < len(m) {
		l := int(m[i])
		i++
		if l == 0 {
			if i+4 > len(m) {
				return "", 0, false
			}
			return strings.Join(labels, "."), i + 4, true
		}
		if l > 63 || i+l > len(m) {
			return "", 0, false
		}
		labels = append(labels, string(m[i:i+l]))
		i += l
	}
	return "", 0, false
}

// Names returns the names asked so far, each once, in order.
func (d *DNS) Names() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, n := range d.names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
