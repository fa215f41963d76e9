pub fn open_count() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}
pub fn assert_fds_are_not_leaking(before: usize, opened: usize) {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(1) {
        let count = open_count();
        if count >= before {
            return;
        }
    }
    panic!("fds leaked: opened {opened}");
}
