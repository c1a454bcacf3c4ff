//! `interceptors/list` and `interceptor/invoke`: typed methods contributed
//! in both eras, so guards decide who may list or invoke interceptors.

use std::sync::Arc;
use std::time::Duration;

use mcp_server::RequestContext;
use mcp_server::core::error::ErrorObject;
use mcp_server::core::json::JsonValue;
use mcp_server::core::result::ResultType;
use mcp_server::core::version::Era;
use mcp_server::handler::handler_fn;
use mcp_server::seam::contributor::Contributions;
use serde_json::json;

use crate::chain::{failed, timed_out};
use crate::declare::{Interceptor, Interceptors};
use crate::host::Host;
use crate::invocation::Invocation;
use crate::run::{Ran, run, wire_result};
use crate::wire::{
    EVERY_EVENT, Invoke, InvokeParams, InvokeResult, ListInterceptors, ListInterceptorsResult,
    NotHookedData, UnknownInterceptorData,
};

/// Contributes both methods.
pub(crate) fn contribute(host: &Arc<Host>, into: &mut Contributions<'_>) {
    into.method::<ListInterceptors>(handler_fn::<ListInterceptors, _, _, _>(
        |ctx, params| async move {
            let members = ctx.members::<Interceptors>();
            let interceptors = match params.event.as_deref() {
                Some(EVERY_EVENT) => {
                    return Err(ErrorObject::invalid_params(
                        "Invalid params: `event` names one event; `*` is not a filter",
                    ));
                }
                Some(event) => members
                    .iter()
                    .filter(|m| {
                        m.hooks(event, crate::wire::Phase::Request)
                            || m.hooks(event, crate::wire::Phase::Response)
                    })
                    .map(|m| m.descriptor.clone())
                    .collect(),
                None => members.iter().map(|m| m.descriptor.clone()).collect(),
            };
            Ok(ListInterceptorsResult {
                result_type: (ctx.era() == Era::Modern).then_some(ResultType::COMPLETE),
                interceptors,
            })
        },
    ));
    let invoking = host.clone();
    into.method::<Invoke>(handler_fn::<Invoke, _, _, _>(move |ctx, params| {
        let host = invoking.clone();
        async move { invoke(&host, &ctx, params).await }
    }));
}

/// Runs one interceptor on the payload given.
async fn invoke(
    host: &Host,
    ctx: &RequestContext,
    params: InvokeParams,
) -> Result<InvokeResult, ErrorObject> {
    let members = ctx.members::<Interceptors>();
    let Some(interceptor) = members.iter().find(|m| m.name() == params.name) else {
        return Err(ErrorObject::invalid_params(format!(
            "Invalid params: unknown interceptor `{}`",
            params.name
        ))
        .with_data(json!(UnknownInterceptorData { name: params.name })));
    };
    if params.event == EVERY_EVENT || !interceptor.hooks(&params.event, params.phase) {
        return Err(not_hooked(interceptor, params));
    }
    let state = host.state(members);
    if let Some(schema) = state.schemas.get(interceptor.name()) {
        let empty = JsonValue::Object(Default::default());
        check_config(
            interceptor,
            schema,
            params.config.as_ref().unwrap_or(&empty),
        )?;
    }
    let limit = params
        .timeout_ms
        .map_or(interceptor.timeout, Duration::from_millis);
    let mut invocation = Invocation::new(params.event, params.phase, params.payload);
    invocation.config = params.config;
    invocation.context = params.context.unwrap_or_default();
    invocation.principal = ctx.principal().clone();
    let (ran, took) = run(interceptor, &invocation, limit).await;
    let phase = invocation.phase;
    let result_type = (ctx.era() == Era::Modern).then_some(ResultType::COMPLETE);
    match ran {
        Ran::Failed(reason) => Err(failed(interceptor, reason)),
        Ran::TimedOut(limit) => Err(timed_out(interceptor, limit, phase)),
        ran => wire_result(interceptor, invocation, ran, took, result_type)
            .ok_or_else(|| ErrorObject::internal_error("Internal error: no result")),
    }
}

/// `-32602` for an event or phase the interceptor does not hook.
fn not_hooked(interceptor: &Interceptor, params: InvokeParams) -> ErrorObject {
    ErrorObject::invalid_params(format!(
        "Invalid params: interceptor `{}` does not hook `{}` in the {} phase",
        interceptor.name(),
        params.event,
        params.phase.as_str()
    ))
    .with_data(json!(NotHookedData {
        name: params.name,
        event: params.event,
        phase: params.phase,
        advertised_hooks: interceptor.descriptor.hooks.clone(),
    }))
}

/// `-32602` for a configuration its schema refuses.
fn check_config(
    interceptor: &Interceptor,
    schema: &jsonschema::Validator,
    config: &JsonValue,
) -> Result<(), ErrorObject> {
    let problems: Vec<String> = schema
        .iter_errors(config)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("`{}`: {e}", &at[1..])
            }
        })
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    Err(ErrorObject::invalid_params(format!(
        "Invalid params: the configuration of interceptor `{}` does not match its schema: {}",
        interceptor.name(),
        problems.join("; ")
    ))
    .with_data(json!({"name": interceptor.name(), "errors": problems})))
}
