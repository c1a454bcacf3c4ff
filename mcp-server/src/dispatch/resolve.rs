//! Finding the handler a request is aimed at.

use std::collections::{BTreeMap, HashMap};

use mcp_core::completion::{Complete, CompletionReference};
use mcp_core::error::ErrorObject;
use mcp_core::method::Method;
use mcp_core::prompts::GetPrompt;
use mcp_core::resources::ReadResource;
use mcp_core::tools::CallTool;

use super::chain::HandlerChain;
use crate::context::RequestContext;
use crate::error::unknown_target;
use crate::uri_template::{TemplateVariables, UriTemplate};

/// Finds the handler chain for one request of method `M`.
pub(crate) trait Resolve<M: Method>: Send + Sync {
    /// The chain the request is aimed at.
    fn resolve<'a>(
        &'a self,
        ctx: &RequestContext,
        params: &M::Params,
    ) -> Result<&'a HandlerChain<M>, ErrorObject>;
    /// Every chain, for the boot report.
    fn chains(&self) -> Vec<&HandlerChain<M>>;
}

/// A method with one handler.
pub(crate) struct Single<M: Method>(pub(crate) HandlerChain<M>);

impl<M: Method> Resolve<M> for Single<M> {
    fn resolve<'a>(
        &'a self,
        _: &RequestContext,
        _: &M::Params,
    ) -> Result<&'a HandlerChain<M>, ErrorObject> {
        Ok(&self.0)
    }

    fn chains(&self) -> Vec<&HandlerChain<M>> {
        vec![&self.0]
    }
}

/// Handlers found by the `name` in the params (tools, prompts).
pub(crate) struct ByName<M: Method> {
    pub(crate) kind: &'static str,
    pub(crate) chains: HashMap<String, HandlerChain<M>>,
    pub(crate) order: Vec<String>,
}

impl Resolve<CallTool> for ByName<CallTool> {
    fn resolve<'a>(
        &'a self,
        _: &RequestContext,
        params: &<CallTool as Method>::Params,
    ) -> Result<&'a HandlerChain<CallTool>, ErrorObject> {
        self.chains
            .get(&params.name)
            .ok_or_else(|| unknown_target(self.kind, &params.name))
    }

    fn chains(&self) -> Vec<&HandlerChain<CallTool>> {
        self.order
            .iter()
            .filter_map(|n| self.chains.get(n))
            .collect()
    }
}

impl Resolve<GetPrompt> for ByName<GetPrompt> {
    fn resolve<'a>(
        &'a self,
        _: &RequestContext,
        params: &<GetPrompt as Method>::Params,
    ) -> Result<&'a HandlerChain<GetPrompt>, ErrorObject> {
        self.chains
            .get(&params.name)
            .ok_or_else(|| unknown_target(self.kind, &params.name))
    }

    fn chains(&self) -> Vec<&HandlerChain<GetPrompt>> {
        self.order
            .iter()
            .filter_map(|n| self.chains.get(n))
            .collect()
    }
}

/// Fixed resources by URI, then templates in order.
pub(crate) struct Resources {
    pub(crate) fixed: HashMap<String, HandlerChain<ReadResource>>,
    pub(crate) order: Vec<String>,
    pub(crate) templates: Vec<(UriTemplate, HandlerChain<ReadResource>)>,
}

impl Resolve<ReadResource> for Resources {
    fn resolve<'a>(
        &'a self,
        ctx: &RequestContext,
        params: &<ReadResource as Method>::Params,
    ) -> Result<&'a HandlerChain<ReadResource>, ErrorObject> {
        if let Some(chain) = self.fixed.get(&params.uri) {
            return Ok(chain);
        }
        for (template, chain) in &self.templates {
            if let Some(variables) = template.matches(&params.uri) {
                ctx.insert(TemplateVariables(variables));
                return Ok(chain);
            }
        }
        Err(unknown_target("resource", &params.uri))
    }

    fn chains(&self) -> Vec<&HandlerChain<ReadResource>> {
        let fixed = self.order.iter().filter_map(|u| self.fixed.get(u));
        fixed.chain(self.templates.iter().map(|(_, c)| c)).collect()
    }
}

/// Completion handlers by what they complete.
pub(crate) struct Completions {
    pub(crate) prompts: BTreeMap<String, HandlerChain<Complete>>,
    pub(crate) templates: BTreeMap<String, HandlerChain<Complete>>,
    /// By (prompt, argument): preferred to `prompts`.
    pub(crate) prompt_arguments: BTreeMap<(String, String), HandlerChain<Complete>>,
    /// By (URI template, variable): preferred to `templates`.
    pub(crate) template_variables: BTreeMap<(String, String), HandlerChain<Complete>>,
    pub(crate) fallback: HandlerChain<Complete>,
}

impl Resolve<Complete> for Completions {
    fn resolve<'a>(
        &'a self,
        _: &RequestContext,
        params: &<Complete as Method>::Params,
    ) -> Result<&'a HandlerChain<Complete>, ErrorObject> {
        let argument = &params.argument.name;
        let found = match &params.reference {
            CompletionReference::Prompt(p) => self
                .prompt_arguments
                .get(&(p.name.clone(), argument.clone()))
                .or_else(|| self.prompts.get(&p.name)),
            CompletionReference::ResourceTemplate(t) => self
                .template_variables
                .get(&(t.uri.clone(), argument.clone()))
                .or_else(|| self.templates.get(&t.uri)),
        };
        Ok(found.unwrap_or(&self.fallback))
    }

    fn chains(&self) -> Vec<&HandlerChain<Complete>> {
        self.prompts
            .values()
            .chain(self.prompt_arguments.values())
            .chain(self.templates.values())
            .chain(self.template_variables.values())
            .collect()
    }
}
