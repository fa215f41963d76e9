pub mod sync;

#[cfg(test)]
#[path = "sync/tests/loom_token.rs"]
mod token_tests;
