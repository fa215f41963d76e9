use std::time::{Duration, Instant};

pub fn open_count() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

pub fn assert_fds_are_not_leaking(before: usize, opened: usize, timeout: u64) {
    let start = Instant::now();
    let max_leaked = opened / 2;
    while start.elapsed() < Duration::from_secs(timeout) {
        std::thread::yield_now();
        let leaked = open_count().saturating_sub(before);
        if leaked <= max_leaked {
            // test success
            return;
        }
    }
    panic!("Number of FDs is staying above {max_leaked}. There is probably an FD leak.");
}
