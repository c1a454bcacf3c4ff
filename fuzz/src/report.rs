//! A run's totals and failures, as printed.

use std::fmt::Write as _;

use crate::target::TargetKind;
use crate::totals::{Failure, FailureKind, TargetTotals, Totals};

/// One failure: its kind, the input, where the input was written, what happened.
pub fn failure(failure: &Failure) -> String {
    let what = match failure.kind {
        FailureKind::Panic => "PANIC",
        FailureKind::Timeout => "TIMEOUT",
        FailureKind::Invalid => "INVALID REPLY",
    };
    let input = match (failure.index, failure.target, failure.caller) {
        (Some(index), Some(target), Some(caller)) => {
            format!("input #{index} ({}, {})", target.name(), caller.name())
        }
        _ => "no single input".to_owned(),
    };
    let saved = failure
        .saved
        .as_ref()
        .map_or_else(String::new, |p| format!("\n  written to {}", p.display()));
    format!("{what}: {input}{saved}\n  {}", failure.detail.trim_end())
}

/// The totals of a run, one figure a line.
pub fn totals(totals: &Totals) -> String {
    let mut out = String::new();
    let [stateless, connecting, session, shared] = totals.by_caller;
    let _ = writeln!(
        out,
        "inputs         {} (stateless {stateless}, connecting {connecting}, session {session}, shared session {shared}; {} redrawn for naming a slow tool)",
        totals.inputs, totals.redrawn
    );
    let _ = writeln!(out, "time           {:.1} s", totals.time.as_secs_f64());
    let _ = writeln!(out, "inputs/s       {:.0}", totals.rate());
    for (name, record) in [
        ("slowest input", totals.slowest),
        ("busiest input", totals.busiest),
    ] {
        let _ = match record {
            Some(input) => writeln!(
                out,
                "{name:<15}{:.3} s (#{}, {}, {})",
                input.time.as_secs_f64(),
                input.index,
                input.target.name(),
                input.caller.name()
            ),
            None => writeln!(out, "{name:<15}-"),
        };
    }
    let _ = writeln!(out, "panics         {}", totals.panics);
    let _ = writeln!(out, "timeouts       {}", totals.timeouts);
    let _ = writeln!(out, "invalid        {}", totals.invalid);
    for target in TargetKind::ALL {
        let figures = totals.of(target);
        if figures == TargetTotals::default() {
            continue;
        }
        let _ = writeln!(
            out,
            "{:<15}{} inputs: panics {}, timeouts {}, invalid {}",
            target.name(),
            figures.inputs,
            figures.panics,
            figures.timeouts,
            figures.invalid
        );
    }
    for note in &totals.notes {
        let _ = writeln!(out, "{note}");
    }
    out
}
