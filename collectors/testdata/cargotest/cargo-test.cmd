# Recorded with cargo 1.95.0 / rustc 1.95.0 (linux/amd64), offline, in a crate
# "calc" with no dependencies (paths rewritten from the recording directory to /src):
#   src/lib.rs: add (with a doctest) and a wrong sub; a test module with adds,
#   subtracts (fails: 8 != 2), fetches (#[ignore = "needs the network"]),
#   overflows (#[should_panic(expected = "overflow")]) and nested::deep.
#   tests/api.rs: adds_from_outside.
# cargo's own summaries: "3 passed; 1 failed; 1 ignored" (lib), "1 passed"
# (tests/api.rs), "1 passed" (doctests); exit status 101.
RUST_BACKTRACE=0 CARGO_TERM_COLOR=never cargo test --offline --no-fail-fast --workspace > cargo-test.txt 2>&1
