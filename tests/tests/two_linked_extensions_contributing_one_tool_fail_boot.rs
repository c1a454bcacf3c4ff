//! When two linked extensions contribute the same tool, boot fails and the
//! diagnostic names both crates.

use mcp_server::Server;
use mcp_server::boot::BootError;
use mcp_server::seam::TargetKind;
use shell_ext as _;
use weather_ext as _;

#[test]
fn the_failure_names_both_crates_with_their_origins() {
    let errors = Server::builder().try_build().unwrap_err();
    let [
        BootError::Duplicate {
            kind: TargetKind::Tool,
            name,
            first,
            second,
        },
    ] = errors.errors()
    else {
        panic!("expected one duplicate tool:\n{errors}");
    };
    assert_eq!(name, "echo");
    assert_eq!(
        (first.crate_name, first.crate_version),
        ("shell-ext", "0.1.0")
    );
    assert_eq!(
        (second.crate_name, second.crate_version),
        ("weather-ext", "0.3.1")
    );
    let text = errors.to_string();
    assert!(
        text.starts_with("error[mcp::duplicate_tool]: tool `echo` is contributed twice\n"),
        "{text}"
    );
    assert!(
        text.contains("= note: first:  shell-ext 0.1.0 (shell_ext, "),
        "{text}"
    );
    assert!(
        text.contains("= note: second: weather-ext 0.3.1 (weather_ext, "),
        "{text}"
    );
}
