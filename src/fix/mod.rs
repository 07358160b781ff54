//! `lint --fix` and `--diff`: the fixes that travel on findings, applied.
//!
//! A finding's fix is made where the problem is found: check asks the
//! writer of the front-end that read the file (see
//! [`crate::frontend::write`]). This module combines the fixes of one
//! pass per file ([`plan()`]), applies their edits ([`apply`]), checks that
//! a pass left each file readable with its other findings where the edits
//! put them ([`verify`]), runs the passes until nothing more is fixable
//! ([`passes`]), and writes or diffs the result.

mod apply;
mod passes;
mod plan;
mod verify;

pub use apply::{Written, unified_diff, write_fixed};
pub use passes::{Event, Fixed, passes};
pub use plan::{FileFix, Plan, plan};
