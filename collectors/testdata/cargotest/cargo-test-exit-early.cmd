# Recorded with cargo 1.95.0 / rustc 1.95.0 (linux/amd64), offline, in a crate
# "exiter": a_doubles passes; b_gives_up calls std::process::exit(0) when
# the code is wrong (it is). The test binary exits 0 before printing any
# result or its summary ("running 2 tests" and nothing after), cargo goes
# on to the doctests and exits 0: by its exit status the run passed.
RUST_BACKTRACE=0 CARGO_TERM_COLOR=never cargo test --offline --no-fail-fast --workspace > cargo-test-exit-early.txt 2>&1
