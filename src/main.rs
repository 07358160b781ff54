/// mimalloc on every target. The static Linux builds (release archives,
/// the Action, musllinux wheels) took it first: with musl's own malloc a
/// 200 MB plan took 5.2 s instead of 2.1 s (benches/plan.sh), the rayon
/// passes contending on its one lock. `sqsguard server` then showed glibc's
/// malloc to be most of a keystroke's cost: each check builds and frees a
/// template's trees, and a one-character edit of a 500-resource template
/// took 21 ms at the 95th percentile with glibc, 14 ms with mimalloc
/// (benches/server.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    sqsguard::cli::main()
}
