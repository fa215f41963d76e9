# The crate of cargo-test-exit-early.txt, its tests run one at a time: the
# line of b_gives_up is cut off after "..." by cargo's next line
# ("Doc-tests exiter"); cargo exits 0.
RUST_BACKTRACE=0 CARGO_TERM_COLOR=never cargo test --offline --no-fail-fast --workspace -- --test-threads=1 > cargo-test-exit-early-serial.txt 2>&1
