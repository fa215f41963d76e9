/// Whether the kernel supports io_uring (old kernels answer ENOSYS).
pub(crate) fn io_uring_supported() -> bool {
    std::path::Path::new("/proc/sys/kernel/io_uring_disabled").exists()
}
