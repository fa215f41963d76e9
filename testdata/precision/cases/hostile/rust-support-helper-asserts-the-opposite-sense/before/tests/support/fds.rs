pub fn open_count() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}
