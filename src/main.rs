fn main() -> std::process::ExitCode {
    sqsguard::cli::main()
}
