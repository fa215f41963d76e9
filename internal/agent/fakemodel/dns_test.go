package fakemodel

import (
	"context"
	"net"
	"testing"
	"time"
)

func TestDNSRemembersNames(t *testing.T) {
	d := StartDNS(t, "127.0.0.1:0")
	addr := d.conn.LocalAddr().String()
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "udp", addr)
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := r.LookupHost(ctx, "api.example.invalid"); err == nil {
		t.Fatal("the lookup succeeded; want no such name")
	}
	names := d.Names()
	if len(names) == 0 || names[0] != "api.example.invalid" {
		t.Errorf("names %q, want api.example.invalid", names)
	}
}
