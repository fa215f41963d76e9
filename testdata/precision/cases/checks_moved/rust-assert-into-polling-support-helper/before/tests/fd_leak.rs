mod support {
    pub(crate) mod fds;
}

use crate::support::fds::open_count;

#[test]
fn no_fd_leak() {
    let before = open_count();
    for _ in 0..128 {
        drop(std::fs::File::open("Cargo.toml").unwrap());
    }
    let leaked = open_count().saturating_sub(before);
    assert!(leaked <= 64);
}
