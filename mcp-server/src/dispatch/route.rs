//! A method's route: decode params, run the typed layer, encode the reply.

use mcp_core::error::ErrorObject;
use mcp_core::method::Method;
use mcp_core::version::Era;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::context::RequestContext;
use crate::handler::BoxFuture;
use crate::interceptor::{RawAnswer, TypedChain, TypedNext};
use crate::origin::Origin;

/// One method, its eras, and its pipeline below the raw layer.
pub(crate) trait Route: Send + Sync {
    /// The eras in which the method exists.
    fn eras(&self) -> &'static [Era];
    /// Serves one request.
    fn dispatch<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>>;
    /// Decodes the params, resolves the target and runs its guards.
    fn authorize(&self, ctx: &RequestContext, params: Option<&RawValue>)
    -> Result<(), ErrorObject>;
    /// The resolved pipeline, for the boot report.
    fn report(&self) -> RouteReport;
}

/// A method's pipeline as the boot report shows it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RouteReport {
    pub(crate) method: String,
    pub(crate) eras: Vec<Era>,
    pub(crate) owner: Origin,
    pub(crate) typed: Vec<String>,
    pub(crate) handlers: Vec<(String, Vec<String>)>,
}

/// The route of method `M`.
pub(crate) struct TypedRoute<M: Method> {
    pub(crate) chain: TypedChain<M>,
    pub(crate) owner: Origin,
    pub(crate) typed_names: Vec<String>,
}

fn decode<M: Method>(params: Option<&RawValue>) -> Result<M::Params, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text)
        .map_err(|e| ErrorObject::invalid_params(format!("Invalid params for {}: {e}", M::NAME)))
}

impl<M: Method> Route for TypedRoute<M> {
    fn eras(&self) -> &'static [Era] {
        M::ERAS
    }

    fn dispatch<'a>(
        &'a self,
        ctx: &'a RequestContext,
        params: Option<&'a RawValue>,
    ) -> BoxFuture<'a, Result<RawAnswer, ErrorObject>> {
        Box::pin(async move {
            let params = decode::<M>(params)?;
            let answer = TypedNext::new(&self.chain, 0).run(ctx, params).await?;
            let encoded = answer.into_reply().encode().map_err(|e| {
                ErrorObject::internal_error(format!(
                    "the result of {} did not encode: {e}",
                    M::NAME
                ))
            })?;
            Ok(RawAnswer::new(encoded))
        })
    }

    fn authorize(
        &self,
        ctx: &RequestContext,
        params: Option<&RawValue>,
    ) -> Result<(), ErrorObject> {
        let params = decode::<M>(params)?;
        TypedNext::new(&self.chain, 0)
            .authorize(ctx, &params)
            .map(|_| ())
    }

    fn report(&self) -> RouteReport {
        RouteReport {
            method: M::NAME.to_owned(),
            eras: M::ERAS.to_vec(),
            owner: self.owner,
            typed: self.typed_names.clone(),
            handlers: self
                .chain
                .resolver
                .chains()
                .into_iter()
                .map(|c| (c.target.to_string(), c.describe()))
                .collect(),
        }
    }
}
