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
    // SAFETY: before any other tree-sitter call, once, on the one thread
    // there is yet; the four functions are one allocator's (below).
    unsafe { tree_sitter::set_allocator(Some(TREE_SITTER_ALLOCATOR)) };
    sqsguard::cli::main()
}

/// tree-sitter's C library allocates its trees, stacks and parsers with
/// C's malloc unless told otherwise: glibc's on most builds, musl's (one
/// lock for every thread) on the static ones. A code file's parse is
/// thousands of small allocations, freed with its tree. It uses mimalloc
/// too, as the rest of sqsguard does. (The grammars' own scanners keep
/// calling C's malloc and free for their small state, always as a pair.)
const TREE_SITTER_ALLOCATOR: tree_sitter::Allocator = tree_sitter::Allocator {
    malloc: ts_malloc,
    calloc: ts_calloc,
    realloc: ts_realloc,
    free: libmimalloc_sys::mi_free,
};

// tree-sitter must never be handed null for a size it asked for (its own
// default aborts then too): out of memory ends the process, as Rust's
// allocation failure does.
unsafe extern "C" fn ts_malloc(size: usize) -> *mut std::ffi::c_void {
    // SAFETY: mimalloc's malloc, any size.
    or_abort(unsafe { libmimalloc_sys::mi_malloc(size) }, size)
}

unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut std::ffi::c_void {
    // SAFETY: mimalloc's calloc, which checks the product for overflow.
    or_abort(unsafe { libmimalloc_sys::mi_calloc(count, size) }, count.saturating_mul(size))
}

unsafe extern "C" fn ts_realloc(ptr: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void {
    // SAFETY: `ptr` is null or came from one of these functions (tree-sitter
    // frees and reallocates only what it allocated through them).
    or_abort(unsafe { libmimalloc_sys::mi_realloc(ptr, size) }, size)
}

fn or_abort(ptr: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void {
    if ptr.is_null() && size != 0 {
        std::process::abort();
    }
    ptr
}
