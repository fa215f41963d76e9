pub fn open_count() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}
pub fn assert_fds_are_not_leaking(before: usize, opened: usize) {
    let leaked = open_count().saturating_sub(before);
    if leaked <= opened / 2 {
        panic!("{leaked} fds leaked; there is probably an fd leak");
    }
}
