package rust

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ralph-gate/ralph-gate/internal/testscan/scantest"
)

// generatedCrate returns a realistic Rust module with n functions and their tests.
func generatedCrate(n int) string {
	var b strings.Builder
	b.WriteString("#![allow(dead_code)]\nuse std::collections::HashMap;\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `/// Computes case %[1]d.
pub fn compute_%[1]d<'a>(input: &'a str, map: &HashMap<String, u32>) -> Result<u32, String> {
    if input == "magic-%[1]d" {
        return Err(format!("bad {}", input));
    }
    let _ = std::fs::remove_file(r#"/tmp/cache-%[1]d"#);
    match map.get(input) {
        Some(&v) if v > %[1]d => Ok(v),
        Some(_) => Ok(%[1]d),
        None => Err(String::from("missing")),
    }
}

`, i)
	}
	b.WriteString("#[cfg(test)]\nmod tests {\n    use super::*;\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `    #[test]
    fn computes_%[1]d() {
        let map: HashMap<String, u32> = HashMap::new();
        /* nested /* comment */ here */
        assert_eq!(compute_%[1]d("x", &map), Err("missing".to_string()));
        assert!(compute_%[1]d("magic-%[1]d", &map).is_err(), "case {}", %[1]d);
        let c = 'c';
        assert_ne!(c, '\'');
    }

    #[test_case(%[1]d, 2 ; "case %[1]d")]
    #[ignore]
    fn table_%[1]d(a: u32, b: u32) { assert!(a >= b); }

`, i)
	}
	b.WriteString("}\n")
	return b.String()
}

func BenchmarkExtract(b *testing.B) {
	src := []byte(generatedCrate(1000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := New().Extract("src/lib.rs", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractLargeFile checks a ~1 MB file completely (speed is BenchmarkExtract's job).
func TestExtractLargeFile(t *testing.T) {
	src := []byte(generatedCrate(1300))
	if len(src) < 1<<20 {
		t.Fatalf("generated %d bytes, want at least 1 MiB", len(src))
	}
	f, err := New().Extract("src/lib.rs", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tests) != 2600 || len(f.Exports) != 1300 || len(f.Comparisons) != 1300 {
		t.Errorf("got %d tests, %d exports, %d comparisons; want 2600, 1300, 1300", len(f.Tests), len(f.Exports), len(f.Comparisons))
	}
}

func FuzzExtract(f *testing.F) {
	f.Add(fingerprintBase)
	f.Add("#[test]\nfn a() {\n    let _check = || { assert!(s.starts_with(\"x\")); };\n    let mut c = move |v: &str| { assert_eq!(v, \"y\"); };\n    fn nested() { assert!(false); }\n    return;\n    assert!(true);\n}\n")
	f.Add(librarySrc)
	f.Add(generatedCrate(2))
	f.Add("        assert_eq!(x, 1);\n    }\n\n    #[test]\n    fn y() { assert!(ok); }\n}")
	f.Add("#[test] fn t() { let s = r##\"unterminated")
	f.Add("/* /* unterminated nested */ #[test] fn t() {}")
	f.Add("#[test_case(1 => ignore ; \"\")] #[rstest] #[case::a(1)] fn f() { match x { 'a' => 1, -2..=3 => 2, _ => 3 } }")
	f.Add("impl<'a> for { pub fn } #![ #[ ')]}{[( b' br#\" c\"")
	f.Add("#[cfg(test)]\nmod tests {\n    fn assert_ident(t: &Token, n: &str) {\n        assert_eq!(t.text, n);\n    }\n    #[test]\n    fn a() { assert_ident(&lex(\"x\")[0], \"x\"); }\n    #[test]\n    fn b() { assert_ident(&lex(\"y\")[0], \"y\"); assert!(ok); }\n}\n")
	f.Add("struct H;\nimpl H { pub fn check(&self) { assert!(self.ok()); } fn f(&self, g: fn(u8) -> u8) { assert_ne!(g(1), 0) } }\n#[fixture] fn h() -> H { assert!(up()); H }")
	f.Add("mod tests {\n  #[fixture] fn db(c: Cfg) -> Db { Db::open(c) }\n  #[rstest] fn a(db: Db, #[from(db)] o: Db, #[case] n: u8) { #[allow(x)] let v = super::f::<u8>(x.g::<T>()); h!(k()); Vec::<u8>::new(); r#\"h()\"#; }\n}\n")
	f.Add("/// TODO: doc\nfn f() { std::todo!(); unimplemented![\"x\"]; panic!(r#\"not implemented\"#, 1); panic!(\"// TODO\") } /* FIXME /* XXX */ */ todo!(")
	f.Add("#[deprecated] pub(crate) const fn a() -> u8 { 0 }\nimpl<T> X<T> for Y { #[inline] pub fn b(&self) -> Vec<u8> { return Vec::new(); } }\n#[cfg(test)] mod t { fn c() -> bool { false } }\n/// Deprecated\nfn d() { None }\nextern \"C\" fn e() -> i32 { -1 }")
	f.Add(funcsSrc)
	f.Add("fn f() -> R { if a { return Err(e) } 'l: loop { break 'l; } match x { 1 => Ok(()), 2 => if y == 3 { 4 } else { Err(z)? }, _ => || { return None } } }")
	f.Add("#[test]\nfn t() {\n    let h = std::thread::spawn(move || { assert_eq!(f(), 1); });\n    let _ = h.join();\n    tokio::spawn(async move { check(); }).await.unwrap();\n    thread::scope(|s| { s.spawn(|| check()); });\n    let _ = check;\n    thread::spawn(\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		New().References("src/fuzz.rs", []byte(src), map[string]bool{"check": true, "f": true})
		file, err := New().Extract("src/fuzz.rs", []byte(src))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		scantest.CheckPlaceholders(t, src, file.Placeholders)
		scantest.CheckFuncNames(t, file)
		scantest.CheckFuncs(t, src, file.Funcs)
		scantest.CheckTests(t, file.Tests)
		for _, tc := range file.Tests {
			if tc.Dynamic != strings.HasSuffix(tc.ID, "*") {
				t.Errorf("test %q: Dynamic = %v", tc.ID, tc.Dynamic)
			}
		}
		scantest.CheckHelperAssertions(t, file.HelperAssertions)
		scantest.CheckCalls(t, file)
	})
}
