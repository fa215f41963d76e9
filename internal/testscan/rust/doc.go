// Package rust extracts test cases and the other facts testscan.File describes from
// Rust source files: #[test] functions and their async, rstest, test_case,
// quickcheck and proptest variants with module-path ids ("tests::parses_empty"),
// #[ignore] and cfg_attr skips, assert macros (std, approx, insta, claims,
// pretty_assertions) in tests and in helper functions and methods, the
// functions, methods and rstest fixtures tests and helpers call,
// #[should_panic], #[allow] attributes, discarded and swallowed errors, pub items,
// literal comparisons, placeholders (TODO/FIXME/XXX comments, todo!(),
// unimplemented!(), panic!("not implemented") and constant bodies), and the
// production functions with their exits (`return Err(..)`, an Err or None
// tail, panic!, bail!) and literal branches (`if x == 5 { "five" }`, `42
// => true` arms).
//
// The extractor runs a hand-written tokenizer that understands raw strings of any
// #-depth, byte and C strings, char literals versus lifetimes and nested block
// comments, then a tolerant item parser over the tokens: a fragment (a hunk with
// blank gaps) or a syntax error still yields every item that could be recovered,
// with File.Partial set.
package rust
