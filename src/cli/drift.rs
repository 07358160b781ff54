//! `drift`: the templates named against the account they deploy to.

use std::process::ExitCode;

use super::args::DriftArgs;
use super::console::{Console, Stop};

#[cfg(not(feature = "audit"))]
pub(super) fn run(_: DriftArgs, _: &mut Console) -> Result<ExitCode, Stop> {
    Err(sqsguard_finding::error::Error::Usage(
        "this build has no live audit, which drift needs; build with `cargo build --release --features audit`".into(),
    )
    .into())
}

#[cfg(feature = "audit")]
pub(super) fn run(args: DriftArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    let audit = sqsguard_audit::Options {
        regions: vec![args.region],
        profile: args.profile,
        endpoint_url: args.endpoint_url,
        settings: super::console::settings(args.config.as_deref())?,
        ..sqsguard_audit::Options::default()
    };
    let request = sqsguard_audit::drift::Request { paths: &args.paths, stacks: &args.stacks, audit };
    let outcome = sqsguard_audit::drift::run(request)?;
    console.out(|out| sqsguard_report::write(args.format.reporter(sqsguard_report::View::default()), &outcome, out))?;
    Ok(super::console::exit_status(args.fail_on, &outcome))
}
