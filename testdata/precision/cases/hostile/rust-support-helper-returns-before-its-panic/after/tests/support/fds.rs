pub fn open_count() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}
pub fn assert_fds_are_not_leaking(before: usize, opened: usize) {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(1) {
        let leaked = open_count().saturating_sub(before);
        if leaked <= opened / 2 {
            return;
        }
        return;
    }
    panic!("fds leaked");
}
