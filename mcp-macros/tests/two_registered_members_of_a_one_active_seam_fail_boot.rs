//! Exactly one member of a one-active seam may be active: two `#[source]`s
//! fail boot, and so do a `#[sink]` and `Builder::change_sink`. (This file
//! is its own test binary, so its registrations do not reach other tests.)

use std::sync::Arc;

use mcp_server::auth::{Credentials, Principal};
use mcp_server::boot::BootError;
use mcp_server::seam::sink::{BroadcastChangeSink, Change, ChangeSink};
use mcp_server::seam::source::PrincipalSource;
use mcp_server::{Server, sink, source};

#[derive(Default)]
struct OidcSource;

#[source]
impl PrincipalSource for OidcSource {
    fn principal(&self, _: &Credentials) -> Arc<Principal> {
        Arc::new(Principal::named("oidc"))
    }
}

#[derive(Default)]
struct ApiKeySource;

#[source(name = "api-keys")]
impl PrincipalSource for ApiKeySource {
    fn principal(&self, _: &Credentials) -> Arc<Principal> {
        Arc::new(Principal::named("api"))
    }
}

#[derive(Default)]
struct Forward;

#[sink]
impl ChangeSink for Forward {
    fn publish(&self, _: Change) {}
}

fn duplicates(errors: &[BootError], wanted: &str) -> Vec<(String, String)> {
    errors
        .iter()
        .filter_map(|e| match e {
            BootError::DuplicateStrategy {
                seam,
                first,
                second,
            } if *seam == wanted => Some((first.0.clone(), second.0.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn two_linked_principal_sources_fail_boot_naming_both() {
    let Err(errors) = Server::builder().try_build() else {
        panic!("boot succeeded with two principal sources");
    };
    let mut names: Vec<String> = duplicates(&errors.0, "PrincipalSource")
        .into_iter()
        .flat_map(|(a, b)| [a, b])
        .collect();
    names.sort();
    assert_eq!(names, ["OidcSource", "api-keys"]);
    assert!(duplicates(&errors.0, "ChangeSink").is_empty());
}

#[test]
fn a_linked_sink_and_the_builders_change_sink_fail_boot() {
    let Err(errors) = Server::builder()
        .change_sink(BroadcastChangeSink::default())
        .try_build()
    else {
        panic!("boot succeeded with two change sinks");
    };
    let mut names: Vec<String> = duplicates(&errors.0, "ChangeSink")
        .into_iter()
        .flat_map(|(a, b)| [a, b])
        .collect();
    names.sort();
    assert_eq!(names, ["Builder::change_sink", "Forward"]);
}
