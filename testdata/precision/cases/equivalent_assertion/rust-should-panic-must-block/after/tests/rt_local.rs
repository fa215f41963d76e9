#[test]
#[should_panic]
fn test_spawn_local_panic() {
    let _ = std::thread::spawn(|| ()).join();
    panic!("done");
}
