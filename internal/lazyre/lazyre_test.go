package lazyre

import (
	"strings"
	"sync"
	"testing"
)

func TestCompiledOnFirstUseOnce(t *testing.T) {
	r := New(`^a(b+)c$`)
	if r.re != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = r.Get()
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] {
			t.Fatal("compiled more than once")
		}
	}
	if !r.MatchString("abbc") || r.MatchString("ac") {
		t.Error("MatchString")
	}
	if m := r.FindStringSubmatch("abbbc"); len(m) != 2 || m[1] != "bbb" {
		t.Errorf("FindStringSubmatch = %q", m)
	}
	if r.String() != `^a(b+)c$` {
		t.Errorf("String = %q", r.String())
	}
}

func TestCompileAllNamesTheBadPattern(t *testing.T) {
	mu.Lock()
	saved := all
	mu.Unlock()
	defer func() {
		mu.Lock()
		all = saved
		mu.Unlock()
	}()
	if bad, err := CompileAll(); err != nil {
		t.Fatalf("before: %s: %v", bad, err)
	}
	New(`(unclosed`)
	bad, err := CompileAll()
	if bad != `(unclosed` || err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Fatalf("CompileAll = %q, %v", bad, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern did not panic on first use")
		}
	}()
	New(`[z-a]`).MatchString("x")
}
