use std::panic;

#[test]
fn test_spawn_local_panic() {
    let result = std::thread::spawn(|| {
        let panic_result = panic::catch_unwind(|| demo::spawn_local());
        assert!(panic_result.is_err(), "Expected panic, but none occurred");
    })
    .join();
    assert!(result.is_ok(), "Thread itself panicked unexpectedly");
}
