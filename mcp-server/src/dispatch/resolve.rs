//! Finding the handler a request is aimed at.

use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;

use mcp_core::completion::{Complete, CompleteRequestParams, CompletionReference};
use mcp_core::error::ErrorObject;
use mcp_core::method::Method;
use mcp_core::prompts::{GetPrompt, GetPromptRequestParams};
use mcp_core::resources::{ReadResource, ReadResourceRequestParams};
use mcp_core::tools::{CallTool, CallToolRequestParams};

use super::chain::{HandlerChain, NotFound};
use super::dynamic::{Dynamic, Snapshot};
use crate::context::RequestContext;
use crate::handler::resource::{TemplateVariables, UriTemplate};
use crate::vocabulary::error::unknown_target;
use crate::vocabulary::sorted_map::SortedMap;

/// The chain a request resolved to: one of boot's, borrowed from its
/// route, or one the runtime catalog added, held until the request ends.
pub(crate) enum Resolved<'a, M: Method> {
    Fixed(&'a HandlerChain<M>),
    Held(Arc<HandlerChain<M>>),
}

impl<M: Method> Deref for Resolved<'_, M> {
    type Target = HandlerChain<M>;

    fn deref(&self) -> &HandlerChain<M> {
        match self {
            Resolved::Fixed(chain) => chain,
            Resolved::Held(chain) => chain,
        }
    }
}

/// Finds the handler chain for one request of method `M`.
pub(crate) trait Resolve<M: Method>: Send + Sync {
    /// The chain the request is aimed at, or the answer for an unknown target.
    fn resolve<'a>(
        &'a self,
        ctx: &RequestContext,
        params: &M::Params,
    ) -> Result<Resolved<'a, M>, ErrorObject>;
    /// Every chain, for the boot report.
    fn chains(&self) -> Vec<&HandlerChain<M>>;
    /// The one chain, for a method whose target does not depend on its params.
    fn fixed(&self) -> Option<&HandlerChain<M>> {
        None
    }
}

/// A method with one handler.
pub(crate) struct Single<M: Method>(pub(crate) HandlerChain<M>);

impl<M: Method> Resolve<M> for Single<M> {
    fn resolve<'a>(
        &'a self,
        _: &RequestContext,
        _: &M::Params,
    ) -> Result<Resolved<'a, M>, ErrorObject> {
        Ok(Resolved::Fixed(&self.0))
    }

    fn chains(&self) -> Vec<&HandlerChain<M>> {
        vec![&self.0]
    }

    fn fixed(&self) -> Option<&HandlerChain<M>> {
        Some(&self.0)
    }
}

/// The answer for a tool that does not exist (or that the caller may not see).
pub(crate) fn unknown_tool(params: &CallToolRequestParams) -> ErrorObject {
    unknown_target("tool", &params.name)
}

/// The answer for a prompt that does not exist (or that the caller may not see).
pub(crate) fn unknown_prompt(params: &GetPromptRequestParams) -> ErrorObject {
    unknown_target("prompt", &params.name)
}

/// The answer for a resource that does not exist (or that the caller may not see).
pub(crate) fn unknown_resource(params: &ReadResourceRequestParams) -> ErrorObject {
    unknown_target("resource", &params.uri)
}

/// The answer for a completion of a prompt or template that does not exist
/// (or that the caller may not see).
pub(crate) fn unknown_reference(params: &CompleteRequestParams) -> ErrorObject {
    match &params.reference {
        CompletionReference::Prompt(p) => unknown_target("prompt", &p.name),
        CompletionReference::ResourceTemplate(t) => unknown_target("resource template", &t.uri),
    }
}

/// Handlers found by a name in the params (tools, prompts): boot's first,
/// then the runtime catalog's.
pub(crate) struct ByName<M: Method> {
    pub(crate) chains: HashMap<String, HandlerChain<M>>,
    pub(crate) order: Vec<String>,
    pub(crate) not_found: NotFound<M>,
    pub(crate) dynamic: Option<Arc<Dynamic>>,
}

/// How a method names its target, and finds it among the runtime catalog's.
pub(crate) trait Named: Method {
    fn name(params: &Self::Params) -> &str;
    /// The chain of the member named `name` in `snapshot`.
    fn added(snapshot: &Snapshot, name: &str) -> Option<Arc<HandlerChain<Self>>>;
}

impl Named for CallTool {
    fn name(params: &CallToolRequestParams) -> &str {
        &params.name
    }

    fn added(snapshot: &Snapshot, name: &str) -> Option<Arc<HandlerChain<Self>>> {
        snapshot.tools.get(name).map(|m| m.chain.clone())
    }
}

impl Named for GetPrompt {
    fn name(params: &GetPromptRequestParams) -> &str {
        &params.name
    }

    fn added(snapshot: &Snapshot, name: &str) -> Option<Arc<HandlerChain<Self>>> {
        snapshot.prompts.get(name).map(|m| m.chain.clone())
    }
}

impl<M: Named> Resolve<M> for ByName<M> {
    fn resolve<'a>(
        &'a self,
        _: &RequestContext,
        params: &M::Params,
    ) -> Result<Resolved<'a, M>, ErrorObject> {
        let name = M::name(params);
        if let Some(chain) = self.chains.get(name) {
            return Ok(Resolved::Fixed(chain));
        }
        self.dynamic
            .as_ref()
            .and_then(|d| M::added(&d.peek(), name))
            .map(Resolved::Held)
            .ok_or_else(|| (self.not_found)(params))
    }

    fn chains(&self) -> Vec<&HandlerChain<M>> {
        self.order
            .iter()
            .filter_map(|n| self.chains.get(n))
            .collect()
    }
}

/// Fixed resources by URI, then templates in order: boot's, then the
/// runtime catalog's.
pub(crate) struct Resources {
    pub(crate) fixed: HashMap<String, HandlerChain<ReadResource>>,
    pub(crate) order: Vec<String>,
    pub(crate) templates: Vec<(UriTemplate, HandlerChain<ReadResource>)>,
    pub(crate) dynamic: Option<Arc<Dynamic>>,
}

impl Resolve<ReadResource> for Resources {
    fn resolve<'a>(
        &'a self,
        ctx: &RequestContext,
        params: &ReadResourceRequestParams,
    ) -> Result<Resolved<'a, ReadResource>, ErrorObject> {
        let visible = |c: &HandlerChain<ReadResource>| c.guards.is_empty() || c.guards.allow(ctx);
        let fixed = self.fixed.get(&params.uri);
        if let Some(chain) = fixed.filter(|c| visible(c)) {
            return Ok(Resolved::Fixed(chain));
        }
        let snapshot = self.dynamic.as_ref().map(|d| d.load());
        let added = snapshot
            .as_ref()
            .and_then(|s| s.resources.get(params.uri.as_str()))
            .map(|m| m.chain.clone());
        if let Some(chain) = added.as_ref().filter(|c| visible(c)) {
            return Ok(Resolved::Held(chain.clone()));
        }
        // A fixed resource the caller may not see hides nothing behind it:
        // a template that matches the URI answers, as if it were not there.
        for (template, chain) in &self.templates {
            if let Some(variables) = template.matches(&params.uri) {
                ctx.insert(TemplateVariables(variables));
                return Ok(Resolved::Fixed(chain));
            }
        }
        let templates = snapshot.iter().flat_map(|s| s.templates.values());
        for member in templates {
            let matched = member.pattern.as_ref().and_then(|p| p.matches(&params.uri));
            if let Some(variables) = matched {
                ctx.insert(TemplateVariables(variables));
                return Ok(Resolved::Held(member.chain.clone()));
            }
        }
        match (fixed, added) {
            (Some(chain), _) => Ok(Resolved::Fixed(chain)),
            (None, Some(chain)) => Ok(Resolved::Held(chain)),
            (None, None) => Err(unknown_resource(params)),
        }
    }

    fn chains(&self) -> Vec<&HandlerChain<ReadResource>> {
        let fixed = self.order.iter().filter_map(|u| self.fixed.get(u));
        fixed.chain(self.templates.iter().map(|(_, c)| c)).collect()
    }
}

/// The completions of one prompt or template: per argument, for all its
/// arguments, and an empty answer for the rest. Every one is guarded by the
/// guards of its prompt or template.
pub(crate) struct Completer {
    pub(crate) by_argument: SortedMap<String, HandlerChain<Complete>>,
    pub(crate) whole: Option<HandlerChain<Complete>>,
    pub(crate) fallback: HandlerChain<Complete>,
}

impl Completer {
    fn chain(&self, argument: &str) -> &HandlerChain<Complete> {
        self.by_argument
            .get(argument)
            .or(self.whole.as_ref())
            .unwrap_or(&self.fallback)
    }

    fn chains(&self) -> impl Iterator<Item = &HandlerChain<Complete>> {
        self.whole.iter().chain(self.by_argument.values())
    }
}

/// Completion handlers by the prompt or template they complete: boot's,
/// then the runtime catalog's.
pub(crate) struct Completions {
    pub(crate) prompts: SortedMap<String, Completer>,
    pub(crate) templates: SortedMap<String, Completer>,
    pub(crate) dynamic: Option<Arc<Dynamic>>,
}

impl Resolve<Complete> for Completions {
    fn resolve<'a>(
        &'a self,
        _: &RequestContext,
        params: &CompleteRequestParams,
    ) -> Result<Resolved<'a, Complete>, ErrorObject> {
        let completer = match &params.reference {
            CompletionReference::Prompt(p) => self.prompts.get(&p.name),
            CompletionReference::ResourceTemplate(t) => self.templates.get(&t.uri),
        };
        if let Some(completer) = completer {
            return Ok(Resolved::Fixed(completer.chain(&params.argument.name)));
        }
        let snapshot = self.dynamic.as_ref().map(|d| d.peek());
        let added = snapshot.as_ref().and_then(|s| match &params.reference {
            CompletionReference::Prompt(p) => s.prompt_completions.get(p.name.as_str()),
            CompletionReference::ResourceTemplate(t) => s.template_completions.get(t.uri.as_str()),
        });
        added
            .map(|c| Resolved::Held(c.chain(&params.argument.name)))
            .ok_or_else(|| unknown_reference(params))
    }

    fn chains(&self) -> Vec<&HandlerChain<Complete>> {
        self.prompts
            .values()
            .chain(self.templates.values())
            .flat_map(Completer::chains)
            .collect()
    }
}
