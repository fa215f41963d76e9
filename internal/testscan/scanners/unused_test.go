package scanners

import (
	"testing"
)

// TestLocalFunctionsNobodyCalls: in every language, the checks of a local
// function (closure, nested def, arrow, lambda) that the test neither
// calls nor hands on never run, so they are not the test's; those of one
// it calls or passes on are.
func TestLocalFunctionsNobodyCalls(t *testing.T) {
	for _, c := range []struct {
		path, src string
		id        string
		want      int // checks read
	}{
		{"a_test.go", `package a

import "testing"

func TestA(t *testing.T) {
	got := Summary()
	check := func() {
		if got != "done" {
			t.Errorf("got %q", got)
		}
	}
	_ = check
	if len(got) == 0 {
		t.Fatal("empty")
	}
}
`, "TestA", 1},
		{"a_test.go", `package a

import "testing"

func TestA(t *testing.T) {
	got := Summary()
	check := func() {
		if got != "done" {
			t.Errorf("got %q", got)
		}
	}
	t.Cleanup(check)
	if len(got) == 0 {
		t.Fatal("empty")
	}
}
`, "TestA", 2},
		{"tests/test_a.py", `def test_a():
    got = summary()

    def check():
        assert got == "done"

    assert got
`, "test_a", 1},
		{"tests/test_a.py", `def test_a(request):
    got = summary()

    def check():
        assert got == "done"

    request.addfinalizer(check)
    assert got
`, "test_a", 2},
		{"a.test.js", `import { expect, it } from "vitest";

it("a", () => {
  const got = summary();
  const check = () => {
    expect(got).toBe("done");
  };
  function checkAgain() {
    expect(got).toBe("done");
  }
  expect(got).toBeTruthy();
});
`, "a", 1},
		{"a.test.js", `import { expect, it } from "vitest";

it("a", () => {
  const got = summary();
  const check = (v) => {
    expect(v).toBe("done");
  };
  [got].forEach(check);
  expect(got).toBeTruthy();
});
`, "a", 2},
		{"tests/a.rs", `#[test]
fn a() {
    let got = summary();
    let _check = || {
        assert_eq!(got, "done");
    };
    fn nested() {
        assert!(false);
    }
    assert!(!got.is_empty());
}
`, "a", 1},
		{"tests/a.rs", `#[test]
fn a() {
    let got = summary();
    let check = |v: &str| {
        assert_eq!(v, "done");
    };
    check(&got);
    assert!(!got.is_empty());
}
`, "a", 2},
		{"src/test/java/a/ATest.java", `package a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

class ATest {
    @Test
    void a() {
        String got = Summary.of();
        Runnable check = () -> {
            assertEquals("done", got);
        };
        assertNotNull(got);
    }
}
`, "ATest.a", 1},
		{"src/test/java/a/ATest.java", `package a;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ATest {
    @Test
    void a() {
        String got = Summary.of();
        Executable check = () -> {
            assertEquals("done", got);
        };
        assertAll(check);
        assertNotNull(got);
    }
}
`, "ATest.a", 2},
	} {
		ext := ForPath(c.path)
		if ext == nil {
			t.Fatalf("no extractor for %s", c.path)
		}
		f, err := ext.Extract(c.path, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		found := false
		for _, tc := range f.Tests {
			if tc.ID != c.id {
				continue
			}
			found = true
			if got := len(tc.Assertions); got != c.want {
				t.Errorf("%s %s: %d checks read, want %d: %+v", ext.Lang(), c.id, got, c.want, tc.Assertions)
			}
		}
		if !found {
			t.Errorf("%s: no test %s", c.path, c.id)
		}
	}
}
