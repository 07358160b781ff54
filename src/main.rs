/// The static Linux builds (target_env musl: the release archives the
/// Action installs, the musllinux wheels) use mimalloc: with musl's own
/// malloc a 200 MB plan took 5.2 s instead of glibc's 2.1 s
/// (benches/plan.sh), the rayon passes contending on its one lock.
#[cfg(target_env = "musl")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tune_allocator();
    sqsguard::cli::main()
}

/// glibc raises its mmap threshold to the size of each large block freed
/// (up to 32 MiB) and then keeps up to twice that free before giving memory
/// back: a large plan's passes free blocks that size, and the peak of a
/// 200 MB plan was 1.65 x the file instead of 1.45 x (benches/plan.sh). A
/// fixed threshold keeps large blocks mapped and returned when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_allocator() {
    // SAFETY: mallopt only sets a parameter of the allocator, and is called
    // before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_allocator() {}
