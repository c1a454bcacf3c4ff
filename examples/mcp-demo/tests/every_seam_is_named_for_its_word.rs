//! The seam words name lifecycles (docs/seams.md): a one-active seam's
//! trait ends in Store, Source, Strategy or Sink, and a registration kind's
//! name ends in its word (Customizer, Interceptor, Sink, Validator,
//! Extension). Checked on the demo, which links every extension crate of
//! the workspace, so a seam any of them declares with the wrong name fails
//! here. Contributor kinds name the values contributed (`tool`, `method`,
//! `HTTP document`), which the `Contributor` trait returns.

use mcp_server::seam::SeamWord;

#[test]
fn every_one_active_seam_ends_in_its_word() {
    let server = mcp_demo::server();
    let report = server.report();
    assert!(report.selections.len() >= 8, "{:?}", report.selections);
    for selection in &report.selections {
        assert!(
            matches!(
                selection.word,
                SeamWord::Store | SeamWord::Source | SeamWord::Strategy | SeamWord::Sink
            ),
            "{} is one-active but a {}",
            selection.seam,
            selection.word.as_str()
        );
        assert!(
            selection.seam.ends_with(selection.word.as_str()),
            "the seam `{}` is a {} and its name does not say so",
            selection.seam,
            selection.word.as_str()
        );
    }
    // The two that once broke the rule.
    let seams: Vec<&str> = report.selections.iter().map(|s| s.seam).collect();
    assert!(seams.contains(&"ExecutionStrategy"), "{seams:?}");
}

#[test]
fn every_registration_kind_ends_in_its_word() {
    let server = mcp_demo::server();
    let report = server.report();
    let mut kinds: Vec<(SeamWord, &str)> = report
        .members
        .iter()
        // A member keyed by a name is described with it: `<kind> `key``,
        // `<kind> of `target`` for a customizer of one target, `<kind> for
        // `method`` for a typed interceptor.
        .map(|m| {
            // A member of a one-active seam is "`Seam` member `name`".
            let kind = match m.kind.strip_prefix('`') {
                Some(seam) => seam.split('`').next().unwrap_or(seam),
                None => m.kind.split('`').next().unwrap_or(&m.kind).trim(),
            };
            let bare = kind
                .strip_suffix(" of")
                .or_else(|| kind.strip_suffix(" for"));
            (m.seam, bare.unwrap_or(kind))
        })
        .filter(|(word, _)| *word != SeamWord::Contributor)
        // Declarations that are not seams: a crate's settings, and a
        // registration that chose to stay inactive.
        .filter(|(_, kind)| *kind != "configuration section" && !kind.starts_with("inactive"))
        .collect();
    kinds.sort_by_key(|(w, k)| (w.as_str(), *k));
    kinds.dedup();
    for (word, kind) in &kinds {
        assert!(
            kind.to_lowercase().ends_with(&word.as_str().to_lowercase()),
            "the kind `{kind}` is a {} and its name does not say so",
            word.as_str()
        );
    }
    let names: Vec<&str> = kinds.iter().map(|(_, k)| *k).collect();
    for expected in [
        "grant customizer",
        "sending interceptor",
        "raw interceptor",
        "extension",
    ] {
        assert!(names.contains(&expected), "{expected}: {names:?}");
    }
}
