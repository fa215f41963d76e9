package rust

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestDetachedSpawns: a check in a spawned thread or task whose handle is
// dropped, or joined with its result thrown away, gets a Detached arm and
// its calls are Detached; one whose handle is joined keeping the panic
// (unwrap, expect, ?, is_ok, .await.unwrap(), join_all, a scope) does not.
func TestDetachedSpawns(t *testing.T) {
	for _, c := range []struct {
		name, body string
		detached   bool
	}{
		{"dropped", "std::thread::spawn(move || { assert_eq!(f(), 1); });", true},
		{"join result dropped", "let h = thread::spawn(move || { assert_eq!(f(), 1); });\n    let _ = h.join();", true},
		{"join ok dropped", "let h = thread::spawn(move || { assert_eq!(f(), 1); });\n    h.join().ok();", true},
		{"task not awaited", "tokio::spawn(async move { assert_eq!(f(), 1); });", true},
		{"joined unwrap", "let h = thread::spawn(move || { assert_eq!(f(), 1); });\n    h.join().unwrap();", false},
		{"joined expect", "let h = thread::spawn(move || { assert_eq!(f(), 1); });\n    h.join().expect(\"t\");", false},
		{"joined checked", "let h = thread::spawn(move || { assert_eq!(f(), 1); });\n    assert!(h.join().is_ok());", false},
		{"awaited", "let h = tokio::spawn(async move { assert_eq!(f(), 1); });\n    h.await.unwrap();", false},
		{"join_all", "let hs = vec![tokio::spawn(async move { assert_eq!(f(), 1); })];\n    futures::future::join_all(hs).await;", false},
		{"scoped", "thread::scope(|s| { s.spawn(|| { assert_eq!(f(), 1); }); });", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "#[test]\nfn t() {\n    " + c.body + "\n}\n"
			f, err := New().Extract("tests/t.rs", []byte(src))
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
	src := "#[test]\nfn t() {\n    setup();\n    std::thread::spawn(move || check_all(&x));\n    std::thread::spawn(move || check_one(&x));\n    check_one(&y);\n}\n"
	f, err := New().Extract("tests/t.rs", []byte(src))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v %+v", err, f)
	}
	var calls []string
	for _, c := range f.Tests[0].Calls {
		calls = append(calls, c.Name)
	}
	if diff := cmp.Diff([]string{"setup", "check_one"}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"check_all"}, f.Tests[0].Detached); diff != "" {
		t.Errorf("detached calls (-want +got):\n%s", diff)
	}
}

// TestCatchUnwind: a check in a catch_unwind whose result is dropped gets
// a Swallowed arm; one whose result is unwrapped, checked or bound to a
// name used after does not.
func TestCatchUnwind(t *testing.T) {
	for _, c := range []struct {
		body string
		want bool
	}{
		{"let _ = std::panic::catch_unwind(|| { assert_eq!(f(), 1); });", true},
		{"std::panic::catch_unwind(|| { assert_eq!(f(), 1); });", true},
		{"let r = panic::catch_unwind(|| { assert_eq!(f(), 1); });", true},
		{"let r = panic::catch_unwind(|| { assert_eq!(f(), 1); });\n    assert!(r.is_ok());", false},
		{"panic::catch_unwind(|| { assert_eq!(f(), 1); }).unwrap();", false},
		{"assert!(catch_unwind(|| { assert_eq!(f(), 1); }).is_ok());", false},
	} {
		src := "#[test]\nfn t() {\n    " + c.body + "\n}\n"
		f, err := New().Extract("tests/t.rs", []byte(src))
		if err != nil || len(f.Tests) != 1 || len(f.Tests[0].Assertions) == 0 {
			t.Fatalf("extract: %v %+v", err, f)
		}
		got := false
		for _, x := range f.Tests[0].Assertions {
			for _, a := range x.Arms {
				got = got || strings.HasPrefix(a.Cond, testscan.Swallowed)
			}
		}
		if got != c.want {
			t.Errorf("%q: swallowed = %v, want %v", c.body, got, c.want)
		}
	}
}

// TestUnpolledAsync: a nested async fn the test only calls as a statement
// (or into `let _ =`) checks nothing; awaited or handed on it does. A
// statement call of the file's own async fn is a Detached call.
func TestUnpolledAsync(t *testing.T) {
	for _, c := range []struct {
		body   string
		checks int
	}{
		{"async fn check() { assert_eq!(f(), 1); }\n    check();", 0},
		{"async fn check() { assert_eq!(f(), 1); }\n    let _ = check();", 0},
		{"async fn check() { assert_eq!(f(), 1); }\n    check().await;", 1},
		{"async fn check() { assert_eq!(f(), 1); }\n    block_on(check());", 1},
		{"fn check() { assert_eq!(f(), 1); }\n    check();", 1},
	} {
		f, err := New().Extract("tests/t.rs", []byte("#[test]\nfn t() {\n    "+c.body+"\n}\n"))
		if err != nil || len(f.Tests) != 1 {
			t.Fatalf("extract: %v %+v", err, f)
		}
		if got := len(f.Tests[0].Assertions); got != c.checks {
			t.Errorf("%q: %d checks, want %d", c.body, got, c.checks)
		}
	}
	src := "async fn check_all(x: u8) { assert_eq!(x, 1); }\n\n#[test]\nfn t() {\n    check_all(1);\n    run(check_all(2));\n}\n\n#[test]\nfn u() {\n    check_all(1);\n}\n"
	f, err := New().Extract("tests/t.rs", []byte(src))
	if err != nil || len(f.Tests) != 2 {
		t.Fatalf("extract: %v %+v", err, f)
	}
	if len(f.Tests[0].Detached) != 0 {
		t.Errorf("a fn also handed on is detached: %v", f.Tests[0].Detached)
	}
	if diff := cmp.Diff([]string{"check_all"}, f.Tests[1].Detached); diff != "" {
		t.Errorf("detached calls (-want +got):\n%s", diff)
	}
}
