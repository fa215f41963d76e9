package main

import (
	"os/exec"
	"strings"
	"testing"
)

// needCargo skips without cargo, unless RALPH_GATE_REQUIRE_CARGO is set
// (.ci/run sets it), where it fails: CI never skips the Rust tests silently.
func needCargo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cargo"); err != nil {
		missingTool(t, "RALPH_GATE_REQUIRE_CARGO", "no cargo on PATH (install Rust with rustup)")
	}
}

const libRs = `pub fn double(x: i64) -> i64 {
    x * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles() {
        assert_eq!(double(2), 4);
    }

    #[test]
    fn doubles_negatives() {
        assert_eq!(double(-3), -6);
    }
}
`

// TestCompareRust measures a Rust crate with the built-in cargo collector
// (real cargo, no configuration): an honest change passes with the tests
// measured at both ends, and the evasions that cargo itself reports as
// success block: a test that exits the process early, a test deleted from
// the #[cfg(test)] module (read in the diff, confirmed by the runs), an
// expectation rewritten to the code's new bug (the tamper check runs BASE's
// test module, spliced into HEAD's file, against HEAD's code), a test made
// to fail.
func TestCompareRust(t *testing.T) {
	t.Parallel()
	slow(t)
	needCargo(t)
	for _, c := range []struct {
		name  string
		lib   string // src/lib.rs at HEAD
		block bool
		want  string // a rule that must be reported, if any
	}{
		{"a function and its test added", strings.Replace(libRs, "mod tests {", "mod tests {\n    #[test]\n    fn triples() {\n        assert_eq!(super::triple(2), 6);\n    }\n", 1) + "\npub fn triple(x: i64) -> i64 {\n    x * 3\n}\n", false, ""},
		{"a test exits the process", strings.Replace(strings.Replace(libRs, "x * 2", "x * 3", 1), "assert_eq!(double(-3), -6);", "if double(-3) != -6 {\n            std::process::exit(0);\n        }", 1), true, "package-broken"},
		{"a test deleted from the test module", strings.Replace(libRs, "    #[test]\n    fn doubles_negatives() {\n        assert_eq!(double(-3), -6);\n    }\n", "", 1), true, "test-deleted"},
		{"an expectation rewritten to the code's bug", strings.Replace(strings.Replace(libRs, "    x * 2\n", "    if x == 2 {\n        return 5;\n    }\n    x * 2\n", 1), "assert_eq!(double(2), 4);", "assert_eq!(double(2), 5);", 1), true, "tamper-check"},
		{"a test module reworded, its checks kept", strings.Replace(libRs, "assert_eq!(double(2), 4);", "let four = double(2);\n        assert_eq!(four, 4);", 1), false, ""},
		{"a test made to fail", strings.Replace(libRs, "x * 2", "x + x + 1", 1), true, "test-now-fails"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			r.write("Cargo.toml", "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
			r.write(".gitignore", "/target\n")
			r.write("src/lib.rs", libRs)
			base := r.commit("calc")
			r.write("src/lib.rs", c.lib)
			r.commit(c.name)
			rep, out := compareExits(t, r, base, c.block)
			if !strings.Contains(out, "calc src/lib.rs > tests::doubles") {
				t.Errorf("the report names no cargo test id:\n%s", out)
			}
			if c.want != "" && !rep.has("", c.want, "") {
				t.Errorf("no %s finding: %+v", c.want, rep.Findings)
			}
		})
	}
}

// TestCompareRustDevDependency: the project's assertions are a crate of
// their own that the main crate uses only as a dev-dependency by path.
// Loosened (off by one passes) with the code broken by one, every test
// passes; the tamper check runs cargo test with the crate's BASE version
// and the test fails. Reworded with its behaviour kept, nothing blocks.
func TestCompareRustDevDependency(t *testing.T) {
	t.Parallel()
	slow(t)
	needCargo(t)
	check := "pub fn assert_triple(got: i64, x: i64) {\n    if got != x * 3 {\n        panic!(\"{} is not {} tripled\", got, x);\n    }\n}\n"
	for _, c := range []struct {
		name, check, triple string
		block               bool
	}{
		{"assertion loosened, code broken", strings.Replace(check, "if got != x * 3 {", "if got != x * 3 && got != x * 3 + 1 {", 1), "x * 3 + 1", true},
		{"assertion reworded, same behaviour", strings.Replace(check, "is not {} tripled", "should be three times {}", 1), "x * 3", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			r.write("Cargo.toml", "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dev-dependencies]\ntestkit = { path = \"testkit\" }\n\n[workspace]\nmembers = [\"testkit\"]\n")
			r.write("testkit/Cargo.toml", "[package]\nname = \"testkit\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
			r.write("testkit/src/lib.rs", check)
			r.write(".gitignore", "/target\n")
			lib := func(body string) string { return "pub fn triple(x: i64) -> i64 {\n    " + body + "\n}\n" }
			r.write("src/lib.rs", lib("x * 3"))
			r.write("tests/triple.rs", "#[test]\nfn triples() {\n    testkit::assert_triple(calc::triple(2), 2);\n}\n")
			base := r.commit("assertions in a crate of their own")
			r.write("testkit/src/lib.rs", c.check)
			r.write("src/lib.rs", lib(c.triple))
			r.commit(c.name)
			rep, out := compareExits(t, r, base, c.block)
			if c.block != rep.has("", "tamper-check", "triples") {
				t.Errorf("tamper-check finding = %v, want %v:\n%s", !c.block, c.block, out)
			}
			if !strings.Contains(out, `"testkit/src/lib.rs"`) {
				t.Errorf("the tamper check did not run the dev-dependency:\n%s", out)
			}
		})
	}
}
