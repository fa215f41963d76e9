package java

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestOffThreadChecks: a check handed to another thread (new Thread, an
// anonymous Thread subclass, execute, a submit or runAsync whose result
// nobody reads, a local lambda run only there) gets a Detached arm, and its
// calls are Detached; one whose Future is read (get, join) does not.
func TestOffThreadChecks(t *testing.T) {
	for _, c := range []struct {
		name, body string
		detached   bool
	}{
		{"new thread", "new Thread(() -> assertEquals(1, f())).start();", true},
		{"thread subclass", "new Thread() { public void run() { assertEquals(1, f()); } }.start();", true},
		{"local runnable", "Runnable r = () -> { assertEquals(1, f()); };\n        new Thread(r).start();", true},
		{"execute", "pool.execute(() -> assertEquals(1, f()));", true},
		{"submit unread", "pool.submit(() -> assertEquals(1, f()));", true},
		{"runAsync unread", "CompletableFuture.runAsync(() -> assertEquals(1, f()));", true},
		{"submit read", "Future<?> x = pool.submit(() -> assertEquals(1, f()));\n        x.get();", false},
		{"runAsync joined", "CompletableFuture.runAsync(() -> assertEquals(1, f())).join();", false},
		{"local runnable also run", "Runnable r = () -> { assertEquals(1, f()); };\n        r.run();\n        new Thread(r).start();", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "class XTest {\n    @Test\n    void x() throws Exception {\n        " + c.body + "\n    }\n}\n"
			f, err := New().Extract("XTest.java", []byte(src))
			if err != nil || len(f.Tests) != 1 || len(f.Tests[0].Assertions) == 0 {
				t.Fatalf("extract: %v %+v", err, f)
			}
			a := f.Tests[0].Assertions[0]
			got := len(a.Arms) > 0 && testscan.IsDetached(a.Arms[0].Cond)
			if got != c.detached {
				t.Errorf("detached = %v, want %v (arms %+v)", got, c.detached, a.Arms)
			}
		})
	}
	src := "class XTest {\n    @Test\n    void x() {\n        setUp();\n        new Thread(() -> checkAll(x)).start();\n        pool.execute(() -> checkOne(x));\n        checkOne(y);\n    }\n}\n"
	f, err := New().Extract("XTest.java", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v %+v", err, f)
	}
	var calls []string
	for _, c := range f.Tests[0].Calls {
		calls = append(calls, c.Name)
	}
	if diff := cmp.Diff([]string{"setUp", ".start", ".execute", "checkOne"}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"checkAll"}, f.Tests[0].Detached); diff != "" {
		t.Errorf("detached calls (-want +got):\n%s", diff)
	}
}

// TestFailureExpectingCalls: a check inside assertThrows of an assertion
// error (or Error, Throwable), AssertJ's untyped assertThatThrownBy, or
// catchThrowable gets an Inverted or Swallowed arm; assertThrows of
// another exception type, which a failed check escapes, gives none.
func TestFailureExpectingCalls(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"assertThrows(AssertionError.class, () -> assertEquals(1, f()));", testscan.Inverted},
		{"Assertions.assertThrows(Throwable.class, () -> { assertEquals(1, f()); });", testscan.Inverted},
		{"assertThatThrownBy(() -> assertEquals(1, f()));", testscan.Inverted},
		{"assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertEquals(1, f()));", testscan.Inverted},
		{"Throwable e = catchThrowable(() -> assertEquals(1, f()));", testscan.Swallowed},
		{"assertThrows(IllegalArgumentException.class, () -> { g(); assertEquals(1, f()); });", ""},
		{"assertThatThrownBy(() -> { g(); assertEquals(1, f()); }).isInstanceOf(IllegalStateException.class);", ""},
	} {
		src := "class XTest {\n    @Test\n    void x() {\n        " + c.body + "\n    }\n}\n"
		f, err := New().Extract("XTest.java", []byte(src))
		if err != nil || len(f.Tests) != 1 {
			t.Fatalf("extract: %v %+v", err, f)
		}
		got := ""
		for _, x := range f.Tests[0].Assertions {
			if x.Kind != "assertEquals" {
				continue
			}
			for _, a := range x.Arms {
				for _, p := range []string{testscan.Inverted, testscan.Swallowed} {
					if strings.HasPrefix(a.Cond, p) {
						got = p
					}
				}
			}
		}
		if got != c.want {
			t.Errorf("%q: arm %q, want %q", c.body, got, c.want)
		}
	}
}
