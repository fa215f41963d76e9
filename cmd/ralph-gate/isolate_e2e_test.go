//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/agent/fakemodel"
)

// inNamespace is set in a test run again by isolate.
const inNamespace = "RALPH_GATE_E2E_NETNS"

// isolate runs the calling test again in a network namespace of its own,
// where only loopback is up, and a mount namespace whose /etc/resolv.conf
// points at a name server on 127.0.0.1 that refuses every name and
// remembers it: the real clients then reach nothing but the fake model
// APIs on 127.0.0.1, and any host they try is a test failure. It returns
// true in the parent, whose result is the child's; false where the caller
// runs the test itself: in the namespace, or where the machine allows no
// namespaces (not root, no unshare), which it logs.
func isolate(t *testing.T) bool {
	t.Helper()
	if os.Getenv(inNamespace) != "" {
		dns := fakemodel.StartDNS(t, "127.0.0.1:53")
		t.Cleanup(func() {
			var asked []string
			for _, n := range dns.Names() {
				if n != "localhost" {
					asked = append(asked, n)
				}
			}
			if len(asked) > 0 {
				t.Errorf("the clients tried to reach hosts other than 127.0.0.1: %s", strings.Join(asked, ", "))
			}
		})
		return false
	}
	if os.Geteuid() != 0 {
		t.Logf("not root: no network namespace; the clients run with the machine's network, and that they reach no other host is not checked here")
		return false
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Logf("no unshare (%v): the clients run with the machine's network, and that they reach no other host is not checked here", err)
		return false
	}
	resolv := filepath.Join(t.TempDir(), "resolv.conf")
	if err := os.WriteFile(resolv, []byte("nameserver 127.0.0.1\noptions timeout:1 attempts:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-n", "-m", "--propagation", "private", "sh", "-ec",
		`ip link set lo up; mount --bind "$RESOLV" /etc/resolv.conf; exec "$@"`, "sh",
		self, "-test.run", "^" + t.Name() + "$", "-test.count=1", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.Command(unshare, args...)
	cmd.Env = append(os.Environ(), inNamespace+"=1", reusedBinary+"="+binary, "RESOLV="+resolv)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if err != nil && bytes.Contains(out.Bytes(), []byte("unshare failed")) {
		t.Logf("no network namespace here (%s): the clients run with the machine's network", strings.TrimSpace(out.String()))
		return false
	}
	if err != nil || !bytes.Contains(out.Bytes(), []byte("--- PASS: "+t.Name()+" (")) {
		t.Fatalf("%s in a network namespace with only loopback: %v\n%s", t.Name(), err, out.String())
	}
	t.Logf("ran in a network namespace with only loopback; no name was looked up")
	return true
}
