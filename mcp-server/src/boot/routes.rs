//! Building every route: the built-in methods from what was contributed,
//! the connection and discovery methods, and the contributed methods, each
//! in its eras; a wire name may be taken once per era.

use std::collections::HashMap;
use std::sync::Arc;

use mcp_core::completion::{Complete, CompleteResult};
use mcp_core::discover::Discover;
use mcp_core::legacy::initialize::Initialize;
use mcp_core::legacy::logging::SetLevel;
use mcp_core::legacy::ping::Ping;
use mcp_core::legacy::subscribe::{Subscribe, Unsubscribe};
use mcp_core::method::Method;
use mcp_core::prompts::{GetPrompt, ListPrompts, Prompt};
use mcp_core::resources::{
    ListResourceTemplates, ListResources, ReadResource, ReadResourceResult, Resource,
    ResourceTemplate,
};
use mcp_core::result::CacheScope;
use mcp_core::subscriptions::SubscriptionsListen;
use mcp_core::tools::{CallTool, ListTools, Tool};
use mcp_core::version::{self, Era};

use super::catalog::Assembled;
use super::chains::ChainBuilder;
use super::contribute::Union;
use super::fold::Folder;
use crate::dispatch::dynamic::{Dynamic, Dynamically};
use crate::dispatch::legacy::{Initializer, Maintenance};
use crate::dispatch::listen::{Listen, Offers};
use crate::dispatch::{
    ByName, Completer, Completions, Discovery, Guards, HandlerChain, ListItems, ListScreen, Listed,
    Listing, NotFound, PendingTyped, Resources, Route, RouteOptions, Routes, Single, route,
    unknown_prompt, unknown_reference, unknown_resource, unknown_tool,
};
use crate::handler::notification::ErasedNotification;
use crate::handler::resource::UriTemplate;
use crate::handler::tool::ParamHeader;
use crate::handler::{Handler, handler_fn};
use crate::seam::contributor::catalog::CatalogContributors;
use crate::seam::contributor::{CompletionRef, Contributed, WithHandler};
use crate::seam::customizer::{Descriptor, MethodDescriptor};
use crate::seam::sink::hub::Hub;
use crate::server::Catalogue;
use crate::vocabulary::config::ServerSection;
use crate::vocabulary::sort;
use crate::vocabulary::sorted_map::SortedMap;
use crate::vocabulary::{BootContext, BootError, closest};
use crate::vocabulary::{Origin, Target, TargetKind};

/// The methods the framework owns, per era, served or not: a contribution
/// may not take their names in those eras.
const RESERVED: &[(&str, &[Era])] = &[
    ("tools/list", Era::ALL),
    ("tools/call", Era::ALL),
    ("prompts/list", Era::ALL),
    ("prompts/get", Era::ALL),
    ("resources/list", Era::ALL),
    ("resources/templates/list", Era::ALL),
    ("resources/read", Era::ALL),
    ("completion/complete", Era::ALL),
    ("server/discover", Era::MODERN),
    ("subscriptions/listen", Era::MODERN),
    ("initialize", Era::LEGACY),
    ("ping", Era::LEGACY),
    ("logging/setLevel", Era::LEGACY),
    ("resources/subscribe", Era::LEGACY),
    ("resources/unsubscribe", Era::LEGACY),
];

/// The notifications the protocol defines, in either direction: a
/// contributed notification may not take their names.
const RESERVED_NOTIFICATIONS: &[&str] = &[
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/progress",
    "notifications/message",
    "notifications/roots/list_changed",
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/subscriptions/acknowledged",
    "notifications/elicitation/complete",
];

/// What building the routes makes.
pub(super) struct Built {
    pub(super) routes: Routes,
    pub(super) catalogue: Catalogue,
    pub(super) param_headers: HashMap<String, Vec<ParamHeader>>,
    /// Every route, for the report.
    pub(super) all: Vec<Arc<dyn Route>>,
    /// The listeners `subscriptions/listen` holds.
    pub(super) hub: Option<Arc<Hub>>,
    /// The contributed client notifications, by name.
    pub(super) notifications: HashMap<&'static str, Arc<dyn ErasedNotification>>,
    /// What boot assembled, by kind and identity.
    pub(super) assembled: Assembled,
    /// With catalog contributors, the check that every customizer of one
    /// handler found it waits for their first loads: what they matched,
    /// and the methods, for suggestions.
    pub(super) deferred: Option<(Folder, Vec<String>)>,
}

/// Everything routes are built from.
pub(super) struct Inputs<'b> {
    pub(super) boot: &'b BootContext,
    pub(super) folder: Folder,
    pub(super) chains: ChainBuilder<'b>,
    pub(super) typed: Vec<PendingTyped<'b>>,
    pub(super) server: ServerSection,
    pub(super) initializer: Option<Initializer>,
    pub(super) discovery: Option<Discovery>,
    /// The listeners `subscriptions/listen` holds, and what they may hear of.
    pub(super) listen: Option<(Arc<Hub>, Offers)>,
    /// The runtime catalog the lists and lookups read besides boot's.
    pub(super) dynamic: Arc<Dynamic>,
}

impl Inputs<'_> {
    /// Builds every route, reporting every problem into `errors`.
    pub(super) fn build(mut self, union: Union, errors: &mut Vec<BootError>) -> Built {
        let mut built = Built {
            routes: Routes::default(),
            catalogue: Catalogue::default(),
            param_headers: HashMap::new(),
            all: Vec::new(),
            hub: None,
            notifications: HashMap::new(),
            assembled: Assembled::default(),
            deferred: None,
        };
        built.assembled.served = union.served.clone();
        self.tools(union.tools, &mut built, errors);
        let prompt_guards = self.prompts(union.prompts, &mut built, errors);
        let template_guards = self.resources(union.resources, union.templates, &mut built, errors);
        self.completions(
            union.completions,
            prompt_guards,
            template_guards,
            &mut built,
            errors,
        );
        self.connection(&mut built);
        let methods = self.methods(union.methods, &mut built, errors);
        built.notifications = notifications(union.notifications, &methods, errors);
        let methods: Vec<&'static str> = methods.iter().map(|(name, _)| *name).collect();
        if self.boot.members::<CatalogContributors>().is_empty() {
            let catalogue = &built.catalogue;
            self.folder.unmatched(
                self.boot,
                &|kind| match kind {
                    TargetKind::Tool => keys(catalogue.tools.as_ref()),
                    TargetKind::Prompt => keys(catalogue.prompts.as_ref()),
                    TargetKind::Resource => keys(catalogue.resources.as_ref()),
                    TargetKind::ResourceTemplate => keys(catalogue.templates.as_ref()),
                    TargetKind::Method => methods.iter().map(|m| (*m).to_owned()).collect(),
                    TargetKind::Completion => Vec::new(),
                },
                errors,
            );
        } else {
            let methods = methods.iter().map(|m| (*m).to_owned()).collect();
            built.deferred = Some((std::mem::take(&mut self.folder), methods));
        }
        let mut leftover = self.typed;
        sort::sort_by(&mut leftover, |a, b| {
            (&a.name, a.origin).cmp(&(&b.name, b.origin))
        });
        for p in leftover {
            errors.push(BootError::UnknownMethod {
                interceptor: p.name.to_owned(),
                origin: p.origin,
                method: p.item.method.to_owned(),
            });
        }
        built
    }

    fn add(&mut self, method: &str, route: Arc<dyn Route>, built: &mut Built) {
        built.routes.insert(method, route.clone());
        built.all.push(route);
    }

    fn route<M: Method>(
        &mut self,
        resolver: Box<dyn crate::dispatch::Resolve<M>>,
        options: RouteOptions<M>,
        built: &mut Built,
    ) {
        let route = route::<M>(&mut self.typed, resolver, options);
        self.add(M::NAME, route, built);
    }

    /// Folds each contributed handler of kind `D` and builds its chain.
    fn handlers<D: Descriptor, M: Method>(
        &mut self,
        items: Vec<WithHandler<D, M>>,
        not_found: NotFound<M>,
        errors: &mut Vec<BootError>,
    ) -> Vec<(Listed<D>, HandlerChain<M>)> {
        items
            .into_iter()
            .map(
                |Contributed {
                     value: (descriptor, handler),
                     origin,
                 }| {
                    let config = self.folder.fold(descriptor, origin, self.boot, errors);
                    let listed = config.is_listed();
                    let (descriptor, parts) = self.chains.configured(M::NAME, config);
                    let guards = parts.guards.clone();
                    let chain = parts.with(handler, not_found);
                    (
                        Listed {
                            descriptor,
                            guards,
                            listed,
                        },
                        chain,
                    )
                },
            )
            .collect()
    }

    /// A list method over `items`; the catalog it pages over.
    fn listing<M: Method, D>(
        &mut self,
        items: Vec<Listed<D>>,
        dynamic: Option<Arc<Dynamic>>,
        built: &mut Built,
    ) -> Option<Arc<ListItems<D>>>
    where
        D: Dynamically,
        Listing<D>: Handler<M>,
        ListScreen<D>: crate::dispatch::Screen<M>,
    {
        let catalog = ListItems::new(items);
        let listing = Listing {
            catalog: catalog.clone(),
            dynamic: dynamic.clone(),
            page_size: self.server.page_size.max(1),
            ttl_ms: self.server.list_ttl_ms,
            cache_scope: Default::default(),
        };
        let chain = self
            .chains
            .unguarded(M::NAME)
            .with::<M>(Arc::new(listing), |_| {
                mcp_core::error::ErrorObject::internal_error("a list has no target to hide")
            });
        let options = RouteOptions {
            screen: Some(Box::new(ListScreen {
                catalog: catalog.clone(),
                dynamic,
            })),
            ..RouteOptions::owned_by(Origin::FRAMEWORK)
        };
        self.route::<M>(Box::new(Single(chain)), options, built);
        Some(catalog)
    }

    fn tools(
        &mut self,
        tools: Vec<WithHandler<Tool, CallTool>>,
        built: &mut Built,
        errors: &mut Vec<BootError>,
    ) {
        if tools.is_empty() && !built.assembled.serves(TargetKind::Tool) {
            return;
        }
        built.assembled.tools = identities(&tools);
        let mut by_name = ByName {
            chains: HashMap::with_capacity(tools.len()),
            order: Vec::with_capacity(tools.len()),
            not_found: unknown_tool,
            dynamic: Some(self.dynamic.clone()),
        };
        let mut listed = Vec::with_capacity(tools.len());
        for (item, chain) in self.handlers(tools, unknown_tool, errors) {
            let mirrored = crate::handler::tool::param_headers(&item.descriptor);
            if !mirrored.is_empty() {
                built
                    .param_headers
                    .insert(item.descriptor.name.clone(), mirrored);
            }
            by_name.order.push(item.descriptor.name.clone());
            by_name.chains.insert(item.descriptor.name.clone(), chain);
            listed.push(item);
        }
        self.route::<CallTool>(
            Box::new(by_name),
            RouteOptions::owned_by(Origin::FRAMEWORK),
            built,
        );
        let dynamic = Some(self.dynamic.clone());
        built.catalogue.tools = self.listing::<ListTools, _>(listed, dynamic, built);
    }

    /// Builds the prompt routes; the guards of each prompt, by name.
    fn prompts(
        &mut self,
        prompts: Vec<WithHandler<Prompt, GetPrompt>>,
        built: &mut Built,
        errors: &mut Vec<BootError>,
    ) -> SortedMap<String, Arc<Guards>> {
        let mut guards = SortedMap::new();
        if prompts.is_empty() && !built.assembled.serves(TargetKind::Prompt) {
            return guards;
        }
        built.assembled.prompts = identities(&prompts);
        let mut by_name = ByName {
            chains: HashMap::with_capacity(prompts.len()),
            order: Vec::with_capacity(prompts.len()),
            not_found: unknown_prompt,
            dynamic: Some(self.dynamic.clone()),
        };
        let mut listed = Vec::with_capacity(prompts.len());
        for (item, chain) in self.handlers(prompts, unknown_prompt, errors) {
            guards.insert(item.descriptor.name.clone(), item.guards.clone());
            by_name.order.push(item.descriptor.name.clone());
            by_name.chains.insert(item.descriptor.name.clone(), chain);
            listed.push(item);
        }
        self.route::<GetPrompt>(
            Box::new(by_name),
            RouteOptions::owned_by(Origin::FRAMEWORK),
            built,
        );
        let dynamic = Some(self.dynamic.clone());
        built.catalogue.prompts = self.listing::<ListPrompts, _>(listed, dynamic, built);
        guards
    }

    /// Builds the resource routes; the guards of each template, by URI template.
    fn resources(
        &mut self,
        resources: Vec<WithHandler<Resource, ReadResource>>,
        templates: Vec<WithHandler<ResourceTemplate, ReadResource>>,
        built: &mut Built,
        errors: &mut Vec<BootError>,
    ) -> SortedMap<String, Arc<Guards>> {
        let mut template_guards = SortedMap::new();
        if resources.is_empty()
            && templates.is_empty()
            && !built.assembled.serves(TargetKind::Resource)
        {
            return template_guards;
        }
        built.assembled.resources = identities(&resources);
        built.assembled.templates = identities(&templates);
        let mut resolver = Resources {
            fixed: HashMap::with_capacity(resources.len()),
            order: Vec::with_capacity(resources.len()),
            templates: Vec::with_capacity(templates.len()),
            dynamic: Some(self.dynamic.clone()),
        };
        let mut listed = Vec::new();
        for (item, chain) in self.handlers(resources, unknown_resource, errors) {
            resolver.order.push(item.descriptor.uri.clone());
            resolver.fixed.insert(item.descriptor.uri.clone(), chain);
            listed.push(item);
        }
        let mut listed_templates = Vec::new();
        for (item, chain) in self.handlers(templates, unknown_resource, errors) {
            match UriTemplate::parse(&item.descriptor.uri_template) {
                Ok(parsed) => {
                    template_guards
                        .insert(item.descriptor.uri_template.clone(), item.guards.clone());
                    resolver.templates.push((parsed, chain));
                    listed_templates.push(item);
                }
                Err(reason) => errors.push(BootError::InvalidUriTemplate {
                    template: item.descriptor.uri_template.clone(),
                    origin: item.guards.target.origin,
                    reason,
                }),
            }
        }
        // What guards decide may differ by caller: never for every cache.
        let options = RouteOptions {
            guarded: Some(|result: &mut ReadResourceResult| {
                result.cache_scope = result.cache_scope.map(|_| CacheScope::Private);
            }),
            ..RouteOptions::owned_by(Origin::FRAMEWORK)
        };
        self.route::<ReadResource>(Box::new(resolver), options, built);
        let dynamic = Some(self.dynamic.clone());
        built.catalogue.resources =
            self.listing::<ListResources, _>(listed, dynamic.clone(), built);
        built.catalogue.templates =
            self.listing::<ListResourceTemplates, _>(listed_templates, dynamic, built);
        template_guards
    }

    /// Builds `completion/complete`: per prompt and template, its completions
    /// (or an empty answer) behind the guards of the prompt or template.
    fn completions(
        &mut self,
        completions: Vec<WithHandler<CompletionRef, Complete>>,
        prompts: SortedMap<String, Arc<Guards>>,
        templates: SortedMap<String, Arc<Guards>>,
        built: &mut Built,
        errors: &mut Vec<BootError>,
    ) {
        if completions.is_empty() {
            return;
        }
        let none = Arc::new(handler_fn::<Complete, _, _, _>(|_, _| async {
            Ok(CompleteResult::default())
        })) as Arc<dyn Handler<Complete>>;
        let completer = |guards: &Arc<Guards>, chains: &ChainBuilder<'_>| Completer {
            by_argument: SortedMap::new(),
            whole: None,
            fallback: completion_chain(
                chains,
                guards.clone(),
                format!("(no completions) for {}", guards.target),
                guards.target.origin,
                none.clone(),
            ),
        };
        // Inserted one by one: collecting them compiles 22 KB more into a
        // stdio server (measured), for two maps of a few entries.
        let mut resolver = Completions {
            prompts: SortedMap::new(),
            templates: SortedMap::new(),
            dynamic: Some(self.dynamic.clone()),
        };
        for (name, guards) in &prompts {
            let completer = completer(guards, &self.chains);
            resolver.prompts.insert(name.clone(), completer);
        }
        for (uri, guards) in &templates {
            let completer = completer(guards, &self.chains);
            resolver.templates.insert(uri.clone(), completer);
        }
        built.assembled.completions = true;
        for Contributed {
            value: (reference, handler),
            origin,
        } in completions
        {
            let (found, argument) = match &reference {
                CompletionRef::Prompt(name) => (resolver.prompts.get_mut(name), None),
                CompletionRef::PromptArgument { prompt, argument } => {
                    (resolver.prompts.get_mut(prompt), Some(argument.clone()))
                }
                CompletionRef::ResourceTemplate(uri) => (resolver.templates.get_mut(uri), None),
                CompletionRef::TemplateVariable {
                    uri_template,
                    variable,
                } => (
                    resolver.templates.get_mut(uri_template),
                    Some(variable.clone()),
                ),
            };
            let Some(completer) = found else {
                let names: Vec<&str> = match &reference {
                    CompletionRef::Prompt(_) | CompletionRef::PromptArgument { .. } => {
                        prompts.keys().map(String::as_str).collect()
                    }
                    _ => templates.keys().map(String::as_str).collect(),
                };
                let missing = match &reference {
                    CompletionRef::Prompt(n) | CompletionRef::PromptArgument { prompt: n, .. } => n,
                    CompletionRef::ResourceTemplate(u)
                    | CompletionRef::TemplateVariable {
                        uri_template: u, ..
                    } => u,
                };
                errors.push(BootError::CompletionWithoutTarget {
                    reference: reference.to_string(),
                    origin,
                    closest: closest(missing, names),
                });
                continue;
            };
            let guards = completer.fallback.guards.clone();
            let chain =
                completion_chain(&self.chains, guards, reference.to_string(), origin, handler);
            match argument {
                Some(argument) => {
                    completer.by_argument.insert(argument, chain);
                }
                None => completer.whole = Some(chain),
            }
        }
        self.route::<Complete>(
            Box::new(resolver),
            RouteOptions::owned_by(Origin::FRAMEWORK),
            built,
        );
    }

    /// `server/discover` (2026-07-28) and the legacy connection.
    fn connection(&mut self, built: &mut Built) {
        if let Some(discovery) = self.discovery.take() {
            self.single::<Discover>(Arc::new(discovery), true, built);
        }
        if let Some(initializer) = self.initializer.take() {
            // No session is made but by its handler.
            self.single::<Initialize>(Arc::new(initializer), false, built);
        }
        let reads = built.routes.get(Era::Legacy, ReadResource::NAME).cloned();
        let maintenance = Arc::new(Maintenance { reads });
        self.single::<Ping>(maintenance.clone(), true, built);
        self.single::<SetLevel>(maintenance.clone(), true, built);
        self.single::<Subscribe>(maintenance.clone(), true, built);
        self.single::<Unsubscribe>(maintenance, true, built);
        if let Some((hub, offers)) = self.listen.take() {
            built.hub = Some(hub.clone());
            let listen = Listen {
                hub,
                offers,
                reads: built.routes.get(Era::Modern, ReadResource::NAME).cloned(),
            };
            self.single::<SubscriptionsListen>(Arc::new(listen), true, built);
        }
    }

    fn single<M: Method>(
        &mut self,
        handler: Arc<dyn Handler<M>>,
        answerable: bool,
        built: &mut Built,
    ) {
        let mut parts = self.chains.unguarded(M::NAME);
        if !answerable {
            parts = parts.only_its_handler_answers();
        }
        let chain = parts.with(handler, crate::dispatch::method_not_found::<M>);
        let options = RouteOptions {
            answerable,
            ..RouteOptions::owned_by(Origin::FRAMEWORK)
        };
        self.route::<M>(Box::new(Single(chain)), options, built);
    }

    /// The contributed methods: each in its eras, where the name is free;
    /// the names of those routed.
    fn methods(
        &mut self,
        mut methods: Vec<Contributed<Arc<dyn crate::dispatch::ErasedMethod>>>,
        built: &mut Built,
        errors: &mut Vec<BootError>,
    ) -> Vec<(&'static str, Origin)> {
        let mut routed = Vec::with_capacity(methods.len());
        sort::sort_by(&mut methods, |a, b| {
            (a.value.name(), a.origin).cmp(&(b.value.name(), b.origin))
        });
        let mut owners: HashMap<(Era, &'static str), Origin> = HashMap::new();
        for Contributed {
            value: method,
            origin,
        } in methods
        {
            let name = method.name();
            let mut clash = None;
            for &era in method.eras() {
                let reserved = RESERVED
                    .iter()
                    .any(|(n, eras)| *n == name && eras.contains(&era));
                if reserved {
                    clash = Some(Origin::FRAMEWORK);
                } else if let Some(first) = owners.get(&(era, name)) {
                    clash = clash.or(Some(*first));
                }
            }
            if let Some(first) = clash {
                errors.push(BootError::DuplicateMethod {
                    method: name.to_owned(),
                    first,
                    second: origin,
                });
                continue;
            }
            for &era in method.eras() {
                owners.insert((era, name), origin);
            }
            let descriptor = MethodDescriptor {
                name: name.to_owned(),
            };
            let config = self.folder.fold(descriptor, origin, self.boot, errors);
            let (_, parts) = self.chains.configured(name, config);
            let route = method.build(origin, &mut self.typed, parts);
            self.add(name, route, built);
            routed.push((name, origin));
        }
        routed
    }
}

/// The contributed notifications, each where its name is free of every
/// built-in method and notification, every contributed method and every
/// other contributed notification.
fn notifications(
    mut contributed: Vec<Contributed<Arc<dyn ErasedNotification>>>,
    methods: &[(&'static str, Origin)],
    errors: &mut Vec<BootError>,
) -> HashMap<&'static str, Arc<dyn ErasedNotification>> {
    sort::sort_by(&mut contributed, |a, b| {
        (a.value.name(), a.origin).cmp(&(b.value.name(), b.origin))
    });
    let mut kept: HashMap<&'static str, (Arc<dyn ErasedNotification>, Origin)> = HashMap::new();
    for Contributed { value, origin } in contributed {
        let name = value.name();
        let first =
            if RESERVED.iter().any(|(n, _)| *n == name) || RESERVED_NOTIFICATIONS.contains(&name) {
                Some(Origin::FRAMEWORK)
            } else if let Some((_, method)) = methods.iter().find(|(n, _)| *n == name) {
                Some(*method)
            } else {
                kept.get(name).map(|(_, first)| *first)
            };
        match first {
            Some(first) => errors.push(BootError::DuplicateMethod {
                method: name.to_owned(),
                first,
                second: origin,
            }),
            None => {
                kept.insert(name, (value, origin));
            }
        }
    }
    kept.into_iter().map(|(name, (n, _))| (name, n)).collect()
}

/// The identities in a catalog, for suggestions.
fn keys<D: Descriptor>(catalog: Option<&Arc<ListItems<D>>>) -> Vec<String> {
    catalog
        .into_iter()
        .flat_map(|c| c.descriptors())
        .map(|d| d.key().to_owned())
        .collect()
}

/// The target of a completion chain of `of`, for interceptors and the report.
/// The chain of one completion handler, behind `guards` (its prompt's or
/// template's), named `name` in reports.
pub(super) fn completion_chain(
    chains: &ChainBuilder<'_>,
    guards: Arc<Guards>,
    name: String,
    origin: Origin,
    handler: Arc<dyn Handler<Complete>>,
) -> HandlerChain<Complete> {
    let target = completion_target(&guards.target, name, origin);
    chains
        .parts(Complete::NAME, target, guards, Vec::new())
        .with(handler, unknown_reference)
}

fn completion_target(of: &Target, name: String, origin: Origin) -> Target {
    Target {
        kind: TargetKind::Completion,
        name,
        meta: of.meta.clone(),
        origin,
    }
}

/// The versions a request's `_meta` may name; 2025-11-25 clients negotiate
/// theirs with `initialize`.
pub(super) fn modern_versions() -> Vec<&'static str> {
    version::SUPPORTED
        .iter()
        .copied()
        .filter(|v| version::era_of(v) == Some(Era::Modern))
        .collect()
}

/// The identities of what boot assembled of one kind, with their origins.
fn identities<D: Descriptor, M: Method>(items: &[WithHandler<D, M>]) -> HashMap<String, Origin> {
    items
        .iter()
        .map(|item| (item.value.0.key().to_owned(), item.origin))
        .collect()
}
