//! The value of `--cors-origin`: `*`, or `scheme://host[:port]`.

/// Checks an origin: `*`, or a scheme and a host with no path after it
/// (one trailing `/` is tolerated).
pub(super) fn parse(arg: &str) -> Result<String, String> {
    let well_formed = arg == "*"
        || arg
            .split_once("://")
            .map(|(scheme, host)| (scheme, host.trim_end_matches('/')))
            .is_some_and(|(scheme, host)| {
                !scheme.is_empty() && !host.is_empty() && !host.contains('/')
            });
    if well_formed {
        Ok(arg.to_owned())
    } else {
        Err(
            "not an origin: give scheme://host[:port], such as https://app.example.com, or *"
                .into(),
        )
    }
}
