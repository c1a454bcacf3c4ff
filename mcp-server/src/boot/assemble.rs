//! The assembly itself: from registrations to a frozen server.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use mcp_core::capabilities::{ListChangedCapability, ResourcesCapability, ServerCapabilities};
use mcp_core::completion::{Complete, CompleteResult};
use mcp_core::discover::Discover;
use mcp_core::json::JsonObject;
use mcp_core::method::Method;
use mcp_core::prompts::{GetPrompt, ListPrompts, Prompt};
use mcp_core::resources::{
    ListResourceTemplates, ListResources, ReadResource, Resource, ResourceTemplate,
};
use mcp_core::tools::{CallTool, ListTools, Tool};
use mcp_core::version;

use super::error::{BootError, BootErrors};
use super::report::{BootReport, Member, MethodReport};
use super::{Added, Builder, Settings};
use crate::contributor::{CompletionRef, Contributed, Contributions, WithHandler};
use crate::customizer::{Attached, Descriptor, HandlerConfig, HandlerCustomizer, MethodDescriptor};
use crate::dispatch::Listed;
use crate::dispatch::{Built, ChainParts, ErasedMethod, PendingTyped, route};
use crate::dispatch::{
    ByName, Completions, Discovery, HandlerChain, Listing, Resources, Single, Step,
};
use crate::guard::Guard;
use crate::handler::{Handler, handler_fn};
use crate::interceptor::{
    AlternateResultInterceptor, HandlerInterceptor, RawChain, RawInterceptor, Stratum,
};
use crate::origin::Origin;
use crate::registry::{self, Item, Scope};
use crate::server::{Server, ServerInner};
use crate::sink::{BroadcastChangeSink, ChangeSink};
use crate::source::{AnonymousPrincipalSource, PrincipalSource};
use crate::store::{EventStore, MemoryEventStore};
use crate::strategy::{Candidate, HmacKeyStrategy, KeyStrategy, select};
use crate::target::{Target, TargetKind};
use crate::uri_template::UriTemplate;

/// Methods the framework owns, in both eras; a contribution may not take their names.
const RESERVED: &[&str] = &[
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "completion/complete",
    "subscriptions/listen",
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A registration with its item made.
struct Entry {
    origin: Origin,
    name: String,
    order: i32,
    item: Item,
}

type Customizers<D> = Vec<(String, Origin, Arc<dyn HandlerCustomizer<D>>)>;

/// A handler-chain interceptor registered for a scope.
struct Global {
    stratum: Stratum,
    scope: Scope,
    order: i32,
    name: String,
    origin: Origin,
    interceptor: Arc<dyn HandlerInterceptor>,
}

/// Everything sorted out of the registrations, by seam.
#[derive(Default)]
struct Seams {
    contributors: Vec<(Origin, String, Arc<dyn crate::contributor::Contributor>)>,
    tools: Customizers<Tool>,
    prompts: Customizers<Prompt>,
    resources: Customizers<Resource>,
    templates: Customizers<ResourceTemplate>,
    methods: Customizers<MethodDescriptor>,
    capabilities: Vec<Arc<dyn crate::customizer::ServerCapabilitiesCustomizer>>,
    raw: Vec<(String, Arc<dyn RawInterceptor>)>,
    typed: HashMap<&'static str, Vec<PendingTyped>>,
    globals: Vec<Global>,
    alternates: Vec<(String, Arc<dyn AlternateResultInterceptor>)>,
    principal_sources: Vec<Candidate<Arc<dyn PrincipalSource>>>,
    key_strategies: Vec<Candidate<Arc<dyn KeyStrategy>>>,
    change_sinks: Vec<Candidate<Arc<dyn ChangeSink>>>,
    event_stores: Vec<Candidate<Arc<dyn EventStore>>>,
    extensions: BTreeSet<&'static str>,
}

pub(super) fn assemble(builder: Builder) -> Result<Server, BootErrors> {
    let Builder {
        info,
        linked,
        added,
        expected,
        settings,
        changes,
    } = builder;
    let mut errors = Vec::new();
    let mut members = Vec::new();

    // Collect and sort: inventory's order is unspecified.
    let mut entries: Vec<Entry> = Vec::new();
    if linked {
        entries.extend(registry::linked().map(|r| Entry {
            origin: r.origin,
            name: r.name.to_owned(),
            order: r.order,
            item: (r.make)(),
        }));
    }
    entries.extend(added.into_iter().map(
        |Added {
             origin,
             name,
             order,
             item,
         }| Entry {
            origin,
            name,
            order,
            item,
        },
    ));
    entries.sort_by(|a, b| (a.order, &a.name, a.origin).cmp(&(b.order, &b.name, b.origin)));

    let mut seams = sort_into_seams(entries, &mut members);
    if let Some((origin, sink)) = changes {
        seams.change_sinks.push(Candidate {
            name: "Builder::change_sink".to_owned(),
            origin,
            value: sink,
        });
    }

    // Union the contributors.
    let mut all = Contributions::new(Origin::FRAMEWORK);
    for (origin, _, contributor) in &seams.contributors {
        let mut contributions = Contributions::new(*origin);
        contributor.contribute(&mut contributions);
        all.tools.append(&mut contributions.tools);
        all.prompts.append(&mut contributions.prompts);
        all.resources.append(&mut contributions.resources);
        all.templates.append(&mut contributions.templates);
        all.completions.append(&mut contributions.completions);
        all.methods.append(&mut contributions.methods);
    }
    let tools = union(
        TargetKind::Tool,
        all.tools,
        |(t, _)| t.name.clone(),
        &mut errors,
    );
    let prompts = union(
        TargetKind::Prompt,
        all.prompts,
        |(p, _)| p.name.clone(),
        &mut errors,
    );
    let resources = union(
        TargetKind::Resource,
        all.resources,
        |(r, _)| r.uri.clone(),
        &mut errors,
    );
    let templates = union(
        TargetKind::ResourceTemplate,
        all.templates,
        |(t, _)| t.uri_template.clone(),
        &mut errors,
    );
    let completions = union(
        TargetKind::Completion,
        all.completions,
        |(r, _)| r.to_string(),
        &mut errors,
    );
    let methods = union_methods(all.methods, &mut errors);
    for (kind, names) in [
        (
            "tool",
            tools
                .iter()
                .map(|t| (t.value.0.name.clone(), t.origin))
                .collect::<Vec<_>>(),
        ),
        (
            "prompt",
            prompts
                .iter()
                .map(|t| (t.value.0.name.clone(), t.origin))
                .collect(),
        ),
        (
            "resource",
            resources
                .iter()
                .map(|t| (t.value.0.uri.clone(), t.origin))
                .collect(),
        ),
        (
            "resource template",
            templates
                .iter()
                .map(|t| (t.value.0.uri_template.clone(), t.origin))
                .collect(),
        ),
        (
            "completion",
            completions
                .iter()
                .map(|t| (t.value.0.to_string(), t.origin))
                .collect(),
        ),
        (
            "method",
            methods
                .iter()
                .map(|m| (m.value.name().to_owned(), m.origin))
                .collect(),
        ),
    ] {
        for (name, origin) in names {
            members.push(Member {
                seam: "Contributor",
                kind: kind.into(),
                name,
                order: None,
                origin,
            });
        }
    }

    // Select one member per strategy seam.
    let principal_source = match select("PrincipalSource", seams.principal_sources, || {
        (
            "AnonymousPrincipalSource".to_owned(),
            Arc::new(AnonymousPrincipalSource::default()) as Arc<dyn PrincipalSource>,
        )
    }) {
        Ok(chosen) => Some(chosen),
        Err(all) => {
            duplicate_strategies("PrincipalSource", all, &mut errors);
            None
        }
    };
    let key_strategy = match select("KeyStrategy", seams.key_strategies, || {
        (
            "HmacKeyStrategy".to_owned(),
            Arc::new(HmacKeyStrategy::random()) as Arc<dyn KeyStrategy>,
        )
    }) {
        Ok(chosen) => Some(chosen),
        Err(all) => {
            duplicate_strategies("KeyStrategy", all, &mut errors);
            None
        }
    };

    let change_sink = match select("ChangeSink", seams.change_sinks, || {
        (
            "BroadcastChangeSink".to_owned(),
            Arc::new(BroadcastChangeSink::default()) as Arc<dyn ChangeSink>,
        )
    }) {
        Ok(chosen) => Some(chosen),
        Err(all) => {
            duplicate_strategies("ChangeSink", all, &mut errors);
            None
        }
    };

    let event_store = match select("EventStore", seams.event_stores, || {
        (
            "MemoryEventStore".to_owned(),
            Arc::new(MemoryEventStore::default()) as Arc<dyn EventStore>,
        )
    }) {
        Ok(chosen) => Some(chosen),
        Err(all) => {
            duplicate_strategies("EventStore", all, &mut errors);
            None
        }
    };

    // Capabilities: what is contributed, then the customizers.
    let mut capabilities = ServerCapabilities::default();
    if !tools.is_empty() {
        capabilities.tools = Some(ListChangedCapability::default());
    }
    if !prompts.is_empty() {
        capabilities.prompts = Some(ListChangedCapability::default());
    }
    if !resources.is_empty() || !templates.is_empty() {
        capabilities.resources = Some(ResourcesCapability::default());
    }
    if !completions.is_empty() {
        capabilities.completions = Some(JsonObject::new());
    }
    for customizer in &seams.capabilities {
        customizer.customize(&mut capabilities);
    }

    // Build every route.
    let alternates: Arc<[(String, Arc<dyn AlternateResultInterceptor>)]> = seams.alternates.into();
    let chains = ChainBuilder {
        globals: &seams.globals,
        alternates: &alternates,
    };
    let mut typed = seams.typed;
    let mut routes: Vec<(String, Built)> = Vec::new();
    let mut param_headers = HashMap::new();
    let mut add = |method: &str, built: Built| routes.push((method.to_owned(), built));
    let mut take = |method: &str| typed.remove(method).unwrap_or_default();

    if !tools.is_empty() {
        let built = handlers::<Tool, CallTool>(tools, &seams.tools, &chains, &mut errors);
        let (by_name, listed) = by_name("tool", built);
        for item in &listed {
            let mirrored = crate::tool::param_headers(&item.descriptor);
            if !mirrored.is_empty() {
                param_headers.insert(item.descriptor.name.clone(), mirrored);
            }
        }
        add(
            CallTool::NAME,
            route::<CallTool>(Origin::FRAMEWORK, take(CallTool::NAME), Box::new(by_name)),
        );
        add(
            ListTools::NAME,
            chains.single::<ListTools>(take(ListTools::NAME), Arc::new(listing(listed, &settings))),
        );
    }

    if !prompts.is_empty() {
        let built = handlers::<Prompt, GetPrompt>(prompts, &seams.prompts, &chains, &mut errors);
        let (by_name, listed) = by_name("prompt", built);
        add(
            GetPrompt::NAME,
            route::<GetPrompt>(Origin::FRAMEWORK, take(GetPrompt::NAME), Box::new(by_name)),
        );
        add(
            ListPrompts::NAME,
            chains.single::<ListPrompts>(
                take(ListPrompts::NAME),
                Arc::new(listing(listed, &settings)),
            ),
        );
    }

    if !resources.is_empty() || !templates.is_empty() {
        let built =
            handlers::<Resource, ReadResource>(resources, &seams.resources, &chains, &mut errors);
        let (fixed, listed) = by_name("resource", built);
        let mut resolver = Resources {
            fixed: fixed.chains,
            order: fixed.order,
            templates: Vec::new(),
        };
        let mut listed_templates = Vec::new();
        for built in handlers::<ResourceTemplate, ReadResource>(
            templates,
            &seams.templates,
            &chains,
            &mut errors,
        ) {
            match UriTemplate::parse(built.listed.target.name.as_str()) {
                Ok(parsed) => {
                    resolver.templates.push((parsed, built.chain));
                    listed_templates.push(built.listed);
                }
                Err(reason) => errors.push(BootError::InvalidUriTemplate {
                    template: built.listed.target.name.clone(),
                    origin: built.listed.target.origin,
                    reason,
                }),
            }
        }
        add(
            ReadResource::NAME,
            route::<ReadResource>(
                Origin::FRAMEWORK,
                take(ReadResource::NAME),
                Box::new(resolver),
            ),
        );
        add(
            ListResources::NAME,
            chains.single::<ListResources>(
                take(ListResources::NAME),
                Arc::new(listing(listed, &settings)),
            ),
        );
        let templates = Arc::new(listing(listed_templates, &settings));
        add(
            ListResourceTemplates::NAME,
            chains.single::<ListResourceTemplates>(take(ListResourceTemplates::NAME), templates),
        );
    }

    if !completions.is_empty() {
        let none = handler_fn::<Complete, _, _, _>(|_, _| async { Ok(CompleteResult::default()) });
        let fallback_target = Target::new(
            TargetKind::Completion,
            "(no completions)",
            Origin::FRAMEWORK,
        );
        let fallback = chains
            .parts(Complete::NAME, fallback_target, Vec::new(), Vec::new())
            .with::<Complete>(Arc::new(none));
        let mut resolver = Completions {
            prompts: BTreeMap::new(),
            templates: BTreeMap::new(),
            prompt_arguments: BTreeMap::new(),
            template_variables: BTreeMap::new(),
            fallback,
        };
        for Contributed {
            value: (reference, handler),
            origin,
        } in completions
        {
            let target = Target::new(TargetKind::Completion, reference.to_string(), origin);
            let chain: HandlerChain<Complete> = chains
                .parts(Complete::NAME, target, Vec::new(), Vec::new())
                .with(handler);
            match reference {
                CompletionRef::Prompt(name) => resolver.prompts.insert(name, chain),
                CompletionRef::ResourceTemplate(uri) => resolver.templates.insert(uri, chain),
                CompletionRef::PromptArgument { prompt, argument } => {
                    resolver.prompt_arguments.insert((prompt, argument), chain)
                }
                CompletionRef::TemplateVariable {
                    uri_template,
                    variable,
                } => resolver
                    .template_variables
                    .insert((uri_template, variable), chain),
            };
        }
        add(
            Complete::NAME,
            route::<Complete>(Origin::FRAMEWORK, take(Complete::NAME), Box::new(resolver)),
        );
    }

    let discovery = Discovery::new(
        &info,
        &capabilities,
        settings.instructions.clone(),
        // Only the versions a request's `_meta` may name; 2025-11-25 clients
        // negotiate theirs with `initialize`.
        &version::SUPPORTED
            .iter()
            .copied()
            .filter(|v| version::era_of(v) == Some(version::Era::Modern))
            .collect::<Vec<_>>(),
        settings.discover_ttl_ms,
    );
    add(
        Discover::NAME,
        chains.single::<Discover>(take(Discover::NAME), Arc::new(discovery)),
    );

    for Contributed {
        value: method,
        origin,
    } in methods
    {
        let descriptor = MethodDescriptor {
            name: method.name().to_owned(),
        };
        let config = fold(descriptor, origin, &seams.methods, &mut errors);
        let (descriptor, guards, attached) = config.into_parts();
        let target = Target::new(TargetKind::Method, descriptor.name.clone(), origin);
        let parts = chains.parts(method.name(), target, guards, attached);
        add(
            method.name(),
            method.build(origin, take(method.name()), parts),
        );
    }

    // Typed interceptors left over name methods nothing serves.
    let mut leftover: Vec<PendingTyped> = typed
        .into_iter()
        .filter(|(method, _)| !RESERVED.contains(method))
        .flat_map(|(_, pending)| pending)
        .collect();
    leftover.sort_by(|a, b| (&a.name, a.origin).cmp(&(&b.name, b.origin)));
    for p in leftover {
        errors.push(BootError::UnknownMethod {
            interceptor: p.name,
            origin: p.origin,
            method: p.item.method.to_owned(),
        });
    }

    let mut table = HashMap::new();
    let mut reports = Vec::new();
    for (method, built) in routes {
        match built {
            Ok(route) => {
                reports.push(MethodReport::from(route.report()));
                table.insert(method.into_boxed_str(), route);
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    reports.sort_by(|a, b| a.method.cmp(&b.method));

    for package in &expected {
        if !seams.extensions.contains(package.as_str()) {
            errors.push(BootError::MissingExtension {
                name: package.clone(),
            });
        }
    }

    let (
        Some((principal_source, principal_selection)),
        Some((key_strategy, key_selection)),
        Some((changes, changes_selection)),
        Some((event_store, events_selection)),
    ) = (principal_source, key_strategy, change_sink, event_store)
    else {
        return Err(BootErrors(errors));
    };
    if !errors.is_empty() {
        return Err(BootErrors(errors));
    }

    let raw_names = seams.raw.iter().map(|(name, _)| name.clone()).collect();
    let report = BootReport {
        server: info.clone(),
        members,
        selections: vec![
            principal_selection,
            key_selection,
            changes_selection,
            events_selection,
        ],
        raw_interceptors: raw_names,
        methods: reports,
    };
    let raw = RawChain {
        interceptors: seams.raw.into_iter().map(|(_, r)| r).collect(),
        routes: table,
    };
    let server_info =
        serde_json::value::to_raw_value(&info).expect("an `Implementation` always serializes");
    let server_info_member = format!(
        "\"_meta\":{{\"{}\":{}}}",
        mcp_core::meta::SERVER_INFO,
        server_info.get()
    );
    Ok(Server::new(ServerInner {
        server_info,
        server_info_member,
        info,
        capabilities,
        instructions: settings.instructions,
        raw,
        principal_source,
        key_strategy,
        changes: Arc::new(crate::sink::Fanout::new(changes)),
        event_store,
        param_headers,
        report,
    }))
}

/// Files every registration under its seam and records it for the report.
fn sort_into_seams(entries: Vec<Entry>, members: &mut Vec<Member>) -> Seams {
    let mut seams = Seams::default();
    for Entry {
        origin,
        name,
        order,
        item,
    } in entries
    {
        // A crate with any registration is linked, marker or not.
        seams.extensions.insert(origin.crate_name);
        let seam = item.seam();
        let mut member = |kind: &str, order: Option<i32>| {
            members.push(Member {
                seam,
                kind: kind.to_owned(),
                name: name.clone(),
                order,
                origin,
            });
        };
        match item {
            Item::Contributor(c) => {
                member("contributor", None);
                seams.contributors.push((origin, name, c));
            }
            Item::CallToolCustomizer(c) => {
                member("call-tool customizer", Some(order));
                seams.tools.push((name, origin, c));
            }
            Item::GetPromptCustomizer(c) => {
                member("get-prompt customizer", Some(order));
                seams.prompts.push((name, origin, c));
            }
            Item::ReadResourceCustomizer(c) => {
                member("read-resource customizer", Some(order));
                seams.resources.push((name, origin, c));
            }
            Item::ReadResourceTemplateCustomizer(c) => {
                member("read-resource-template customizer", Some(order));
                seams.templates.push((name, origin, c));
            }
            Item::MethodCustomizer(c) => {
                member("method customizer", Some(order));
                seams.methods.push((name, origin, c));
            }
            Item::ServerCapabilitiesCustomizer(c) => {
                member("server-capabilities customizer", Some(order));
                seams.capabilities.push(c);
            }
            Item::RawInterceptor(r) => {
                member("raw interceptor", Some(order));
                seams
                    .raw
                    .push((format!("{name} order {order} ({origin})"), r));
            }
            Item::TypedInterceptor(t) => {
                member(
                    &format!("typed interceptor for `{}`", t.method),
                    Some(order),
                );
                seams.typed.entry(t.method).or_default().push(PendingTyped {
                    name,
                    origin,
                    item: t,
                });
            }
            Item::HandlerInterceptor {
                stratum,
                scope,
                interceptor,
            } => {
                member(&format!("{stratum} handler-chain interceptor"), Some(order));
                seams.globals.push(Global {
                    stratum,
                    scope,
                    order,
                    name,
                    origin,
                    interceptor,
                });
            }
            Item::AlternateResultInterceptor(a) => {
                member("alternate-result interceptor", Some(order));
                seams.alternates.push((format!("{name} ({origin})"), a));
            }
            Item::PrincipalSource(s) => {
                member("principal source", None);
                seams.principal_sources.push(Candidate {
                    name,
                    origin,
                    value: s,
                });
            }
            Item::KeyStrategy(s) => {
                member("key strategy", None);
                seams.key_strategies.push(Candidate {
                    name,
                    origin,
                    value: s,
                });
            }
            Item::ChangeSink(s) => {
                member("change sink", None);
                seams.change_sinks.push(Candidate {
                    name,
                    origin,
                    value: s,
                });
            }
            Item::EventStore(s) => {
                member("event store", None);
                seams.event_stores.push(Candidate {
                    name,
                    origin,
                    value: s,
                });
            }
            Item::Extension => {
                member("extension", None);
                seams.extensions.insert(origin.crate_name);
            }
        }
    }
    seams
}

/// One contributed handler after its customizers folded and its chain was built.
struct Assembled<D, M: Method> {
    chain: HandlerChain<M>,
    listed: Listed<D>,
}

/// Folds the customizers into each contributed handler of kind `D` and builds its chain.
fn handlers<D: Descriptor, M: Method>(
    items: Vec<WithHandler<D, M>>,
    customizers: &Customizers<D>,
    chains: &ChainBuilder<'_>,
    errors: &mut Vec<BootError>,
) -> Vec<Assembled<D, M>> {
    items
        .into_iter()
        .map(
            |Contributed {
                 value: (descriptor, handler),
                 origin,
             }| {
                let config = fold(descriptor, origin, customizers, errors);
                let (descriptor, guards, attached) = config.into_parts();
                let target = Target {
                    kind: D::KIND,
                    name: descriptor.key().to_owned(),
                    meta: descriptor.meta().cloned(),
                    origin,
                };
                let parts = chains.parts(M::NAME, target.clone(), guards, attached);
                let listed = Listed {
                    descriptor,
                    guards: parts.guards.clone(),
                    target,
                };
                Assembled {
                    chain: parts.with(handler),
                    listed,
                }
            },
        )
        .collect()
}

/// A list method's handler over `items`.
fn listing<D>(items: Vec<Listed<D>>, settings: &Settings) -> Listing<D> {
    Listing {
        items,
        page_size: settings.page_size,
        ttl_ms: settings.list_ttl_ms,
        cache_scope: Default::default(),
    }
}

/// Indexes built handlers by their identifying name, keeping their order for lists.
fn by_name<D, M: Method>(
    kind: &'static str,
    built: Vec<Assembled<D, M>>,
) -> (ByName<M>, Vec<Listed<D>>) {
    let mut index = ByName {
        kind,
        chains: HashMap::with_capacity(built.len()),
        order: Vec::with_capacity(built.len()),
    };
    let mut listed = Vec::with_capacity(built.len());
    for Assembled {
        chain,
        listed: item,
    } in built
    {
        index.order.push(item.target.name.clone());
        index.chains.insert(item.target.name.clone(), chain);
        listed.push(item);
    }
    (index, listed)
}

/// Keeps one contribution per identity; every other one is a collision.
fn union<T>(
    kind: TargetKind,
    mut items: Vec<Contributed<T>>,
    key: impl Fn(&T) -> String,
    errors: &mut Vec<BootError>,
) -> Vec<Contributed<T>> {
    items.sort_by_cached_key(|c| (key(&c.value), c.origin));
    let mut kept: Vec<Contributed<T>> = Vec::with_capacity(items.len());
    let mut last_key: Option<String> = None;
    for item in items {
        let k = key(&item.value);
        if last_key.as_deref() == Some(k.as_str()) {
            let first = kept.last().expect("a kept item for the same key").origin;
            errors.push(BootError::Duplicate {
                kind,
                name: k,
                first,
                second: item.origin,
            });
            continue;
        }
        last_key = Some(k);
        kept.push(item);
    }
    kept
}

/// Keeps one contribution per method name; built-in names are taken already.
fn union_methods(
    items: Vec<Contributed<Arc<dyn ErasedMethod>>>,
    errors: &mut Vec<BootError>,
) -> Vec<Contributed<Arc<dyn ErasedMethod>>> {
    let mut kept = union(TargetKind::Method, items, |m| m.name().to_owned(), errors);
    for e in errors.iter_mut() {
        if let BootError::Duplicate {
            kind: TargetKind::Method,
            name,
            first,
            second,
        } = e
        {
            *e = BootError::DuplicateMethod {
                method: name.clone(),
                first: *first,
                second: *second,
            };
        }
    }
    kept.retain(|m| {
        let reserved = RESERVED.contains(&m.value.name());
        if reserved {
            errors.push(BootError::DuplicateMethod {
                method: m.value.name().to_owned(),
                first: Origin::FRAMEWORK,
                second: m.origin,
            });
        }
        !reserved
    });
    kept
}

fn duplicate_strategies<T>(
    seam: &'static str,
    mut all: Vec<Candidate<T>>,
    errors: &mut Vec<BootError>,
) {
    all.sort_by(|a, b| (a.origin, &a.name).cmp(&(b.origin, &b.name)));
    let first = (all[0].name.clone(), all[0].origin);
    for other in &all[1..] {
        errors.push(BootError::DuplicateStrategy {
            seam,
            first: first.clone(),
            second: (other.name.clone(), other.origin),
        });
    }
}

/// Folds the customizers of one kind into one handler's config, checking
/// after each that the descriptor's identity is unchanged.
fn fold<D: Descriptor>(
    descriptor: D,
    origin: Origin,
    customizers: &Customizers<D>,
    errors: &mut Vec<BootError>,
) -> HandlerConfig<D> {
    let mut config = HandlerConfig::new(descriptor, origin);
    for (name, customizer_origin, customizer) in customizers {
        let before = config.descriptor().identity();
        config.current = *customizer_origin;
        customizer.customize(&mut config);
        let after = config.descriptor().identity();
        for ((field, was), (_, is)) in before.iter().zip(&after) {
            if was != is {
                errors.push(BootError::IdentityChanged {
                    customizer: name.clone(),
                    origin: *customizer_origin,
                    kind: D::KIND,
                    target: before[0].1.clone(),
                    field,
                    before: was.clone(),
                    after: is.clone(),
                });
            }
        }
    }
    config
}

/// Builds handler chains from attached and scoped interceptors.
struct ChainBuilder<'a> {
    globals: &'a [Global],
    alternates: &'a Arc<[(String, Arc<dyn AlternateResultInterceptor>)]>,
}

impl ChainBuilder<'_> {
    fn parts(
        &self,
        method: &str,
        target: Target,
        guards: Vec<Arc<dyn Guard>>,
        attached: Vec<Attached>,
    ) -> ChainParts {
        let mut all: Vec<Attached> = attached;
        all.extend(
            self.globals
                .iter()
                .filter(|g| g.scope.covers(method, target.kind))
                .map(|g| Attached {
                    stratum: g.stratum,
                    order: g.order,
                    name: g.name.clone(),
                    interceptor: g.interceptor.clone(),
                    origin: g.origin,
                }),
        );
        all.sort_by(|a, b| {
            (a.stratum, a.order, &a.name, a.origin).cmp(&(b.stratum, b.order, &b.name, b.origin))
        });
        let mut steps = Vec::with_capacity(all.len() + 1);
        let mut guards_placed = guards.is_empty();
        for a in all {
            if !guards_placed && a.stratum >= Stratum::Authorization {
                steps.push(Step::Guards);
                guards_placed = true;
            }
            steps.push(Step::Interceptor {
                stratum: a.stratum,
                name: a.name,
                origin: a.origin,
                interceptor: a.interceptor,
            });
        }
        if !guards_placed {
            steps.push(Step::Guards);
        }
        ChainParts {
            target,
            steps: steps.into(),
            guards: guards.into(),
            alternates: self.alternates.clone(),
        }
    }

    /// A built-in method with one handler and no guards of its own.
    fn single<M: Method>(&self, pending: Vec<PendingTyped>, handler: Arc<dyn Handler<M>>) -> Built {
        let target = Target::new(TargetKind::Method, M::NAME, Origin::FRAMEWORK);
        let chain = self
            .parts(M::NAME, target, Vec::new(), Vec::new())
            .with(handler);
        route::<M>(Origin::FRAMEWORK, pending, Box::new(Single(chain)))
    }
}
