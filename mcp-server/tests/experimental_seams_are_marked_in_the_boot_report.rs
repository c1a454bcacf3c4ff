//! The experimental seams (alternate results and their deferred runs,
//! grant customizers, the change sink, sending interceptors) are marked
//! `(experimental)` in the boot report's text and `"experimental": true`
//! in its JSON; the settled ones are not.

mod support;

use std::sync::Arc;

use mcp_server::BoxFuture;
use mcp_server::core::error::ErrorObject;
use mcp_server::seam::Item;
use mcp_server::seam::interceptor::{
    AlternateResultInterceptor, Invocation, RawAnswer, RawCall, RawInterceptor, RawNext,
    SendingInterceptor, Settled,
};
use mcp_server::seam::sink::{Grant, GrantCustomizer, GrantCustomizers, ListenRequest};
use support::{builder, origin};

struct Pass;

impl RawInterceptor for Pass {
    fn intercept<'a>(
        &'a self,
        call: &'a RawCall<'a>,
        next: RawNext<'a>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        next.run(call)
    }
}

impl AlternateResultInterceptor for Pass {
    fn intercept<'a>(
        &'a self,
        invocation: Invocation<'a>,
    ) -> BoxFuture<'a, Result<Settled, ErrorObject>> {
        invocation.proceed()
    }
}

impl SendingInterceptor for Pass {}

impl GrantCustomizer for Pass {
    fn grant(&self, _: &ListenRequest<'_>, _: &mut Grant) {}
}

#[test]
fn the_experimental_seams_are_marked_and_the_settled_ones_are_not() {
    let server = builder()
        .register(origin("ext", 1), "raw", 0, Item::raw_interceptor(Pass))
        .register(
            origin("ext", 2),
            "alternate",
            0,
            Item::alternate_result_interceptor(Pass),
        )
        .register(
            origin("ext", 3),
            "sending",
            0,
            Item::sending_interceptor(Pass),
        )
        .register(
            origin("ext", 4),
            "grants",
            0,
            Item::member::<GrantCustomizers>(("grants".into(), Arc::new(Pass))),
        )
        .build();
    let report = server.report();
    let marked = |name: &str| {
        report
            .members
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("{name} is not in the report"))
            .experimental
    };
    assert!(marked("alternate"));
    assert!(marked("sending"));
    assert!(marked("grants"));
    assert!(!marked("raw"));
    let sink = report
        .selections
        .iter()
        .find(|s| s.seam == "ChangeSink")
        .unwrap();
    assert!(sink.experimental);
    assert!(
        report
            .selections
            .iter()
            .filter(|s| s.seam != "ChangeSink")
            .all(|s| !s.experimental)
    );

    let text = report.to_string();
    assert!(
        text.contains("sending interceptor `sending` order 0 (experimental) — "),
        "{text}"
    );
    assert!(text.contains("raw interceptor `raw` order 0 — "), "{text}");
    assert!(text.contains("Sink ChangeSink (experimental): "), "{text}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let sending = json["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "sending")
        .unwrap();
    assert_eq!(sending["experimental"], true);
}
