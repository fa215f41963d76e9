use std::fs::File;
use std::io;

/// Opens a file and returns how many descriptors the process has open.
pub fn open_count(path: &str) -> io::Result<usize> {
    let _f = File::open(path)?;
    Ok(std::fs::read_dir("/proc/self/fd")?.count())
}

pub fn add(a: i32, b: i32) -> i32 {
    a + b
}
