package rust

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ralph-gate/ralph-gate/internal/testscan"
)

// TestCalls: a test's calls name the functions it calls by their last path
// segment ("parse" for super::parse(...)) and the methods ".name", with
// their call sites, and an rstest test's fixtures first. Macros (the
// assertions among them), keywords, nested fn declarations, tuple structs
// and enum variants, Type::new constructors, std functions and associated
// functions of std types, and attributes are left out; strings, raw strings,
// chars and comments call nothing. Helpers' calls are filed by helper.
func TestCalls(t *testing.T) {
	src := `pub fn parse(s: &str) -> Vec<u8> {
    s.bytes().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::*;

    struct Harness {
        n: usize,
    }

    impl Harness {
        fn new() -> Self {
            Harness { n: 0 }
        }

        fn check(&self, v: &[u8]) {
            assert_eq!(v.len(), self.n);
            self.log("checked");
        }
    }

    fn helper(x: u32) -> u32 {
        assert!(x > 0);
        compute(x)
    }

    #[fixture]
    fn db(#[default(3)] size: usize, config: Config) -> Db {
        Db::open(config, size)
    }

    #[fixture]
    fn pool<F: Fn(u8) -> u8>(db: Db) -> Pool<F> {
        Pool::with(db)
    }

    #[test]
    fn parses_empty() {
        // helper(1) in a comment
        /* nested /* helper(2) */ still a comment */
        let s = "helper(3) in a string";
        let r = r#"raw "helper(4)" string"#;
        let c = '(';
        let h = Harness::new();
        h.check(&parse(""));
        let v: Vec<u8> = Vec::with_capacity(3);
        let o = Some(helper(1));
        let n = super::parse("x").len();
        let w = tests::helper(2);
        let z = std::cmp::max(1, 2);
        let m = i32::from_str_radix("7", 10);
        let q = v.iter().map(|x| x + 1).collect::<Vec<_>>();
        let g = decode::<u8>(&v);
        assert_eq!(helper(3), 3, "helper(5) message");
        println!("{}", format!("{v:?}"));
        let vv = vec![make(1)];
        #[allow(unused_variables)]
        let k = Kind::Variant(1);
        fn inner(a: u32) -> u32 {
            nested(a)
        }
        Harness::setup(&h);
        if ready() {
            return;
        }
        match (n, v.len()) {
            _ => {}
        }
    }

    #[rstest]
    #[case(1)]
    #[case(2)]
    fn inserts(db: Db, #[case] n: u32, #[from(db)] mut other: Db, #[values(1, 2)] v: u8) {
        db.insert(n);
        other.insert(n);
    }
}
`
	f, err := New().Extract("src/lib.rs", []byte(src))
	if err != nil || f.Partial {
		t.Fatalf("extract: %v partial=%v", err, f.Partial)
	}
	calls := map[string][]testscan.Call{}
	for _, tc := range f.Tests {
		calls[tc.ID] = tc.Calls
	}
	inserts := []testscan.Call{site("db", 2), site(".insert", 2)}
	want := map[string][]testscan.Call{
		"tests::parses_empty": {
			site(".check", 1), site("parse", 2), site("helper", 3), site(".len", 2),
			site(".iter", 1), site(".map", 1), site(".collect", 1), site("decode", 1),
			site("make", 1), site("nested", 1), site("setup", 1), site("ready", 1),
		},
		"tests::inserts::case_1": inserts,
		"tests::inserts::case_2": inserts,
	}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("test calls (-want +got):\n%s", diff)
	}
	wantHelpers := map[string][]testscan.Call{
		"parse":         {site(".bytes", 1), site(".collect", 1)},
		"tests::check":  {site(".len", 1), site(".log", 1)},
		"tests::helper": {site("compute", 1)},
		"tests::db":     {site("config", 1), site("open", 1)},
		"tests::pool":   {site("db", 1), site("with", 1)},
	}
	if diff := cmp.Diff(wantHelpers, f.HelperCalls); diff != "" {
		t.Errorf("helper calls (-want +got):\n%s", diff)
	}
	checkCalls(t, f)
}

// TestCallsBounded: a test that calls many functions keeps the first
// MaxCalls names and still counts the sites of those it kept.
func TestCallsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("#[test]\nfn many() {\n")
	for i := range testscan.MaxCalls + 10 {
		b.WriteString("    f" + strconv.Itoa(i) + "();\n")
	}
	b.WriteString("    f0();\n}\n")
	f, err := New().Extract("tests/many.rs", []byte(b.String()))
	if err != nil || len(f.Tests) != 1 {
		t.Fatalf("extract: %v, %d tests", err, len(f.Tests))
	}
	calls := f.Tests[0].Calls
	if len(calls) != testscan.MaxCalls || !reflect.DeepEqual(calls[0], site("f0", 2)) {
		t.Errorf("got %d calls, first %+v; want %d, f0 twice", len(calls), calls[0], testscan.MaxCalls)
	}
}

func site(name string, sites int) testscan.Call {
	return testscan.Call{Name: name, Sites: sites}
}

// checkCalls fails t when f's calls break their invariants.
func checkCalls(t *testing.T, f *testscan.File) {
	t.Helper()
	if err := f.CheckCalls(); err != nil {
		t.Fatal(err)
	}
}
