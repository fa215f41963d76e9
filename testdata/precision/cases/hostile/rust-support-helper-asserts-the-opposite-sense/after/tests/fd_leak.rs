mod support {
    pub(crate) mod fds;
}

use crate::support::fds::{assert_fds_are_not_leaking, open_count};

#[test]
fn no_fd_leak() {
    let before = open_count();
    let file_number = 128;
    for _ in 0..file_number {
        drop(std::fs::File::open("Cargo.toml").unwrap());
    }
    assert_fds_are_not_leaking(before, file_number);
}
