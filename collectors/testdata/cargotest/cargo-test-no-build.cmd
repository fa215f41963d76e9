# Recorded with cargo 1.95.0 / rustc 1.95.0 (linux/amd64), offline, in a crate
# "broken" whose src/lib.rs uses an undefined name: nothing compiles, no test
# binary runs; exit status 101.
RUST_BACKTRACE=0 CARGO_TERM_COLOR=never cargo test --offline --no-fail-fast --workspace > cargo-test-no-build.txt 2>&1
