package rust

import (
	"strings"
	"testing"
)

const spliceHead = `pub fn double(x: i64) -> i64 {
    x * 2 + 1
}

#[cfg(test)]
#[allow(clippy::all)]
mod tests {
    use super::*;

    #[test]
    fn doubles() {
        assert_eq!(double(2), 5); // "}" in a comment and a string: "}"
    }
}

#[cfg(test)]
pub(crate) mod extra {
    #[test]
    fn new_in_head() {}
}
`

const spliceBase = `pub fn double(x: i64) -> i64 {
    x * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles() {
        assert_eq!(double(2), 4);
    }
}

#[cfg(test)]
mod gone_in_head {
    #[test]
    fn kept() {
        let c = '}';
        assert_eq!(c, '}');
    }
}
`

func TestSpliceTestModules(t *testing.T) {
	out, ok := SpliceTestModules([]byte(spliceHead), []byte(spliceBase))
	if !ok {
		t.Fatal("not spliced")
	}
	s := string(out)
	for _, want := range []string{
		"x * 2 + 1",                 // HEAD's code
		"assert_eq!(double(2), 4);", // BASE's test module in place of HEAD's
		"fn new_in_head() {}",       // HEAD's own new module stays
		"mod gone_in_head",          // BASE's module HEAD dropped comes back
		"assert_eq!(c, '}');",       // char literals are not braces
	} {
		if !strings.Contains(s, want) {
			t.Errorf("spliced file lacks %q:\n%s", want, s)
		}
	}
	for _, not := range []string{"assert_eq!(double(2), 5)", "#[allow(clippy::all)]"} {
		if strings.Contains(s, not) {
			t.Errorf("spliced file keeps HEAD's %q:\n%s", not, s)
		}
	}
	if strings.Count(s, "mod tests") != 1 {
		t.Errorf("mod tests appears %d times:\n%s", strings.Count(s, "mod tests"), s)
	}
	if !TestModulesDiffer([]byte(spliceHead), []byte(spliceBase)) || TestModulesDiffer([]byte(spliceBase), []byte(strings.Replace(spliceBase, "x * 2", "x + x", 1))) {
		t.Error("TestModulesDiffer must see test module edits and only those")
	}
	if _, ok := SpliceTestModules([]byte(spliceHead), []byte("pub fn f() {}\n")); ok {
		t.Error("a BASE without a test module spliced")
	}
	if _, ok := SpliceTestModules([]byte("fn f() { \"unterminated }\n"), []byte(spliceBase)); ok {
		t.Error("a HEAD that does not lex spliced")
	}
}

func FuzzSpliceTestModules(f *testing.F) {
	f.Add(spliceHead, spliceBase)
	f.Add("#[cfg(test)] mod t { }", "#[cfg(test)] mod t { #[test] fn a() {} }")
	f.Add("#[cfg(test)] mod t;", "#[cfg(test)]")
	f.Add("#[cfg(test)] pub(in crate::x) mod t { r#\"}\"# }", "#[cfg(test)] mod u { /* } */ }")
	f.Fuzz(func(t *testing.T, head, base string) {
		out, ok := SpliceTestModules([]byte(head), []byte(base))
		if !ok {
			return
		}
		mods, ok := testModules(out)
		if !ok {
			t.Fatalf("the spliced file does not lex:\n%s", out)
		}
		bm, _ := testModules([]byte(base))
		names := map[string]bool{}
		for _, m := range mods {
			names[m.name] = true
		}
		for _, m := range bm {
			if !names[m.name] {
				t.Fatalf("BASE's module %s is not in the spliced file:\n%s", m.name, out)
			}
		}
		_ = TestModulesDiffer([]byte(head), []byte(base))
	})
}
