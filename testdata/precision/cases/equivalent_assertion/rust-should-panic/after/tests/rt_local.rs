use std::panic;

#[test]
#[should_panic = "`spawn_local` called from outside of a `LocalSet`"]
fn test_spawn_local_panic() {
    let panic = std::thread::spawn(|| demo::spawn_local()).join().unwrap_err();
    panic::resume_unwind(panic);
}
