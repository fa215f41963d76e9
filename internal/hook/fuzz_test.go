package hook

import (
	"strings"
	"testing"
)

// FuzzParseRefLine feeds arbitrary lines to the ref-line parser: it must
// accept only well-formed lines, never panic, give one-line errors, and
// read back what it parsed.
func FuzzParseRefLine(f *testing.F) {
	for _, seed := range []string{
		"refs/heads/main " + shaA + " refs/heads/main " + shaB,
		"(delete) " + zero + " refs/heads/old " + shaB,
		"HEAD@{1 day ago} " + shaA + " refs/heads/x " + zero,
		"refs/tags/v1\t" + shaA + "\trefs/tags/v1\t" + zero + "\r",
		"refs/heads/main " + strings.Repeat("ab", 32) + " refs/heads/main " + strings.Repeat("0", 64),
		"", " ", "a b c d", "\x00 \x00 \x00 \x00", "refs/heads/ä " + shaA + " refs/heads/ü " + shaB,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		u, err := ParseRefLine(line)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		if u.LocalRef == "" || !isSHA(u.LocalSHA) || !isSHA(u.RemoteSHA) || !strings.HasPrefix(u.RemoteRef, "refs/") {
			t.Fatalf("ParseRefLine(%q) accepted a malformed line: %+v", line, u)
		}
		if hasControl(u.LocalRef) || hasControl(u.RemoteRef) || strings.ContainsAny(u.RemoteRef, " \t") {
			t.Fatalf("ParseRefLine(%q) kept a control character or a blank: %+v", line, u)
		}
		again, err := ParseRefLine(u.LocalRef + " " + u.LocalSHA + " " + u.RemoteRef + " " + u.RemoteSHA)
		if err != nil || again != u {
			t.Fatalf("round trip of %+v: %+v, %v", u, again, err)
		}
	})
}

// FuzzParseRefLines checks the multi-line reader the same way: no panic, and
// every update it returns is well formed.
func FuzzParseRefLines(f *testing.F) {
	f.Add("refs/heads/main " + shaA + " refs/heads/main " + shaB + "\n\n(delete) " + zero + " refs/heads/old " + shaB + "\n")
	f.Add("\r\n\r\n")
	f.Add("x\ny\n")
	f.Fuzz(func(t *testing.T, in string) {
		us, err := ParseRefLines(strings.NewReader(in))
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		for _, u := range us {
			if !isSHA(u.LocalSHA) || !isSHA(u.RemoteSHA) {
				t.Fatalf("malformed update %+v from %q", u, in)
			}
		}
	})
}
