//! `lint --fix` and `--diff`: the fixes that travel on findings, applied.
//!
//! A finding's fix is a recipe its rule builds where the problem is found;
//! check asks the edit layer's writer, holding the trees the front-end
//! parsed, to carry it out (see [`sqsguard_edit`]). This module combines the fixes of one
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
