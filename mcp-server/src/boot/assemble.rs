//! The assembly itself, step by step: from registrations to a frozen server.

use std::any::TypeId;
use std::sync::Arc;

use mcp_core::capabilities::{ListChangedCapability, ResourcesCapability, ServerCapabilities};
use mcp_core::json::JsonObject;
use mcp_core::version::Era;

use super::builder::Builder;
use super::catalog::RuntimeCatalog;
use super::chains::ChainBuilder;
use super::collect::{self, Parts};
use super::contribute::{self, Union};
use super::fold::Folder;
use super::routes::{Built, Inputs, modern_versions};
use super::select;
use super::validate::Validators;
use crate::catalog::Catalog;
use crate::context::runtime::Runtime;
use crate::dispatch::dynamic::Dynamic;
use crate::dispatch::legacy::Initializer;
use crate::dispatch::listen::Offers;
use crate::dispatch::rounds::Rounds;
use crate::dispatch::{Discovery, PendingTyped, RouteReport};
use crate::seam::contributor::catalog::CatalogContributors;
use crate::seam::customizer::CapabilitiesCustomizers;
use crate::seam::interceptor::{RawInterceptors, TypedInterceptors};
use crate::seam::sink::hub::Hub;
use crate::seam::sink::{ChangeSink, Fanout};
use crate::seam::source::PrincipalSource;
use crate::seam::store::UsedStateStore;
use crate::seam::strategy::KeyStrategy;
use crate::server::report::{BootReport, ExtensionReport, MethodReport};
use crate::server::{Server, ServerInner};
use crate::vocabulary::config::{SectionInfo, ServerSection};
use crate::vocabulary::extension::{Assembled, Extension, Extensions};
use crate::vocabulary::registration::Stage;
use crate::vocabulary::seam::Selection;
use crate::vocabulary::sort;
use crate::vocabulary::{BootContext, BootError, BootErrors, TargetKind};

pub(super) fn assemble(builder: Builder) -> Result<Server, BootErrors> {
    let Builder {
        info,
        linked,
        added,
        expected,
        expected_linked,
        mut settings,
        environment,
        command_line,
    } = builder;
    environment.apply(&mut settings);
    for (key, value, source) in command_line {
        settings.set(&key, value, source);
    }
    let mut boot = BootContext::new(settings);
    boot.declare_section(SectionInfo::of::<ServerSection>());
    let mut errors = Vec::new();
    let mut entries = collect::registrations(linked, added);
    let mut parts = Parts::default();

    // One-active members first, then one winner per seam.
    errors.extend(collect::make(
        Stage::Supply,
        &mut entries,
        &boot,
        &mut parts,
    ));
    // Extensions are declared before anything else is made, so everything
    // after, the defaults of one-active seams included, can ask which are.
    let extensions = TypeId::of::<Extensions>();
    errors.extend(select::kinds(&mut parts, &mut boot, &|kind| {
        kind == extensions
    }));
    let (selections, mut selecting) = select::one_active(&mut parts, &mut boot);
    errors.append(&mut selecting);
    if !errors.is_empty() {
        // Everything made from here on is made with the winners in hand:
        // without them, its errors would only echo these.
        errors.extend(boot.take_errors());
        return Err(BootErrors(errors));
    }

    // Everything else, made with the winners in hand.
    errors.extend(collect::make(
        Stage::Assemble,
        &mut entries,
        &boot,
        &mut parts,
    ));
    errors.extend(select::kinds(&mut parts, &mut boot, &|kind| {
        kind != extensions
    }));
    let union = contribute::union(&mut parts, &boot, &mut errors);

    let section: ServerSection = boot.section();
    let capabilities = capabilities(&union, &boot);
    let legacy_capabilities = of_era(&capabilities, Era::Legacy, &boot);
    let capabilities = of_era(&capabilities, Era::Modern, &boot);
    let hub = Arc::new(Hub::new(section.max_listeners, section.listener_queue));
    let dynamic = Arc::new(Dynamic::default());
    let mut built = Inputs {
        boot: &boot,
        folder: Folder::default(),
        chains: ChainBuilder::new(&boot),
        typed: boot
            .entries::<TypedInterceptors>()
            .map(|t| PendingTyped {
                name: t.name,
                origin: t.origin,
                item: t.member,
            })
            .collect(),
        initializer: Some(Initializer::new(
            info.clone(),
            legacy_capabilities.clone(),
            section.instructions.clone(),
        )),
        discovery: Some(Discovery::new(
            &info,
            &capabilities,
            section.instructions.clone(),
            &modern_versions(),
            section.discover_ttl_ms,
        )),
        server: section.clone(),
        listen: Some((
            hub.clone(),
            Offers {
                tools: capabilities.tools.is_some(),
                prompts: capabilities.prompts.is_some(),
                resources: capabilities.resources.is_some(),
            },
        )),
        dynamic: dynamic.clone(),
    }
    .build(union, &mut errors);

    errors.extend(requirements(&capabilities, &boot));
    for name in &expected {
        if !boot.has_extension(name) {
            errors.push(BootError::MissingExtension { name: name.clone() });
        }
    }
    for package in &expected_linked {
        if !parts.crates.contains(package.as_str()) {
            errors.push(BootError::NotLinked {
                package: package.clone(),
            });
        }
    }
    errors.extend(boot.take_errors());
    if !errors.is_empty() {
        errors.extend(boot.check_settings());
        return Err(BootErrors(errors));
    }

    // The runtime catalog folds and chains what it adds as boot did, with
    // what boot knew.
    let boot = Arc::new(boot);
    let deferred = built.deferred.take();
    let (server, editor) = freeze(
        info,
        [capabilities, legacy_capabilities],
        section,
        built,
        selections,
        &parts,
        (&boot, dynamic),
    );
    // Each catalog contributor loads once before the server serves; what
    // it cannot load, or what would be refused, fails boot.
    let contributors = boot.members::<CatalogContributors>();
    for contributor in contributors {
        if let Err(refused) = server.catalog().reload_here(contributor.name()) {
            errors.extend(refused.0);
        }
    }
    // A customizer of one handler may find it among what they loaded.
    if let Some((mut folder, methods)) = deferred {
        folder.absorb(std::mem::take(&mut *crate::vocabulary::lock(
            &editor.matched,
        )));
        folder.unmatched(
            &boot,
            &|kind| match kind {
                TargetKind::Tool => server.tools().into_iter().map(|t| t.name).collect(),
                TargetKind::Prompt => server.prompts().into_iter().map(|p| p.name).collect(),
                TargetKind::Resource => server.resources().into_iter().map(|r| r.uri).collect(),
                TargetKind::ResourceTemplate => server
                    .resource_templates()
                    .into_iter()
                    .map(|t| t.uri_template)
                    .collect(),
                TargetKind::Method => methods.clone(),
                TargetKind::Completion => Vec::new(),
            },
            &mut errors,
        );
    }
    for validator in boot.entries::<Validators>() {
        for diagnostic in validator.member.validate(&server, &boot) {
            tracing::debug!(validator = %validator.name, origin = %validator.origin, "a validator failed boot");
            errors.push(BootError::Extension(diagnostic));
        }
    }
    errors.extend(boot.take_errors());
    errors.extend(boot.check_settings());
    if errors.is_empty() {
        for contributor in contributors {
            contributor.watch(server.catalog());
        }
        Ok(server)
    } else {
        Err(BootErrors(errors))
    }
}

/// What the server offers: what was contributed, then the customizers.
fn capabilities(union: &Union, boot: &BootContext) -> ServerCapabilities {
    let mut capabilities = ServerCapabilities::default();
    // Changes reach listeners in either era: legacy sessions on their
    // streams, 2026-07-28 clients through `subscriptions/listen`.
    let changing = ListChangedCapability {
        list_changed: Some(true),
        ..ListChangedCapability::default()
    };
    let served = |kind| union.served.contains(&kind);
    if !union.tools.is_empty() || served(TargetKind::Tool) {
        capabilities.tools = Some(changing.clone());
    }
    if !union.prompts.is_empty() || served(TargetKind::Prompt) {
        capabilities.prompts = Some(changing);
    }
    if !union.resources.is_empty() || !union.templates.is_empty() || served(TargetKind::Resource) {
        capabilities.resources = Some(ResourcesCapability {
            list_changed: Some(true),
            subscribe: Some(true),
            ..ResourcesCapability::default()
        });
    }
    if !union.completions.is_empty() {
        capabilities.completions = Some(JsonObject::new());
    }
    for customizer in boot.members::<CapabilitiesCustomizers>() {
        customizer.customize(&mut capabilities, boot);
    }
    capabilities
}

/// The requirements of every declared extension that the assembled server
/// does not meet, each naming the extension and the requirement.
fn requirements(capabilities: &ServerCapabilities, boot: &BootContext) -> Vec<BootError> {
    let declared: Vec<_> = boot.entries::<Extensions>().collect();
    let extensions: Vec<Arc<Extension>> = declared.iter().map(|e| e.member.clone()).collect();
    let packages: Vec<&'static str> = declared.iter().map(|e| e.origin.crate_name).collect();
    let assembled = Assembled {
        capabilities,
        extensions: &extensions,
        packages: &packages,
        boot,
    };
    declared
        .iter()
        .flat_map(|e| {
            e.member
                .requirements()
                .iter()
                .filter(|r| !r.is_met(&assembled))
                .map(|r| BootError::UnmetRequirement {
                    extension: e.member.id().to_owned(),
                    requirement: r.to_string(),
                    origin: e.origin,
                })
        })
        .collect()
}

/// What the server offers in one era: each declared extension's entry,
/// then the customizers' edits for that era.
fn of_era(capabilities: &ServerCapabilities, era: Era, boot: &BootContext) -> ServerCapabilities {
    let mut capabilities = capabilities.clone();
    for extension in boot.members::<Extensions>() {
        extension.advertise(era, &mut capabilities, boot);
    }
    for customizer in boot.members::<CapabilitiesCustomizers>() {
        customizer.customize_era(era, &mut capabilities, boot);
    }
    capabilities
}

/// Freezes what boot assembled into one server.
fn freeze(
    info: mcp_core::content::Implementation,
    [capabilities, legacy_capabilities]: [ServerCapabilities; 2],
    section: ServerSection,
    built: Built,
    selections: Vec<Selection>,
    parts: &Parts,
    (boot, dynamic): (&Arc<BootContext>, Arc<Dynamic>),
) -> (Server, Arc<RuntimeCatalog>) {
    let mut methods: Vec<MethodReport> = built
        .all
        .iter()
        .map(|route| method_report(route.report()))
        .collect();
    sort::sort_by(&mut methods, |a, b| {
        (&a.method, &a.eras).cmp(&(&b.method, &b.eras))
    });
    // Grouped by seam word, in the taxonomy's order (a stable sort keeps
    // the registration order within a group), as the text report lists them.
    let mut members = parts.registered.clone();
    sort::sort_by_cached_key(&mut members, |m| m.seam);
    let report = BootReport {
        server: info.clone(),
        members,
        selections,
        raw_interceptors: boot
            .entries::<RawInterceptors>()
            .map(|r| format!("{} order {} ({})", r.name, r.order, r.origin))
            .collect(),
        extensions: extension_reports(parts, boot),
        methods,
        warnings: boot.take_warnings(),
    };
    let changes = boot
        .active::<dyn ChangeSink>()
        .expect("the framework declares the change sink seam");
    let changes = Arc::new(Fanout::new(
        built
            .hub
            .clone()
            .expect("the routes hold the listeners' hub"),
        changes,
    ));
    let editor = Arc::new(RuntimeCatalog {
        boot: boot.clone(),
        dynamic: dynamic.clone(),
        assembled: built.assembled,
        changes: changes.clone(),
        writer: std::sync::Mutex::new(()),
        server: std::sync::OnceLock::new(),
        contributors: boot
            .members::<CatalogContributors>()
            .iter()
            .map(|c| (c.name().to_owned(), c.clone()))
            .collect(),
        served: std::sync::Mutex::default(),
        matched: std::sync::Mutex::default(),
        instance: std::hash::BuildHasher::hash_one(
            &std::collections::hash_map::RandomState::new(),
            std::time::SystemTime::now(),
        ),
    });
    let catalog = Catalog::new(editor.clone());
    // The catalog travels with the shared state, where a request's context
    // finds it (`RequestContext::catalog`).
    let mut state = boot.state();
    state.insert(
        std::any::TypeId::of::<Catalog>(),
        Arc::new(catalog.clone()) as Arc<dyn std::any::Any + Send + Sync>,
    );
    let runtime = Runtime {
        changes,
        actives: boot.actives.clone(),
        members: boot.members.clone(),
        state,
        senders: boot
            .members::<crate::seam::interceptor::SendingInterceptors>()
            .into(),
        shutdown: crate::vocabulary::Shutdown::new(std::time::Duration::from_secs(
            section.drain_timeout_s,
        )),
    };
    let server_info =
        serde_json::value::to_raw_value(&info).expect("an `Implementation` always serializes");
    let server_info_entry = format!("\"{}\":{}", mcp_core::meta::SERVER_INFO, server_info.get());
    let server_info_member = format!("\"_meta\":{{{server_info_entry}}}");
    let server = Server::new(ServerInner {
        server_info_member,
        server_info_entry,
        info,
        capabilities,
        legacy_capabilities,
        instructions: section.instructions,
        routes: built.routes,
        raw: boot.members::<RawInterceptors>().into(),
        notifications: built.notifications,
        principal_source: boot
            .active::<dyn PrincipalSource>()
            .expect("the framework declares the principal source seam"),
        runtime: Arc::new(runtime),
        catalogue: built.catalogue,
        catalog,
        dynamic,
        param_headers: built.param_headers,
        report,
        rounds: Rounds {
            keys: boot
                .active::<dyn KeyStrategy>()
                .expect("the framework declares the key strategy seam"),
            used: boot
                .active::<dyn UsedStateStore>()
                .expect("the framework declares the used-state store seam"),
            ttl: std::time::Duration::from_secs(section.request_state_ttl_s),
        },
    });
    editor.server.set(server.downgrade()).ok();
    // Catalog contributors reload on every instance when one reloads.
    if !editor.contributors.is_empty() {
        editor.follow();
    }
    (server, editor)
}

/// Every declared extension with what it requires and what its crate
/// registers, for the report.
fn extension_reports(parts: &Parts, boot: &BootContext) -> Vec<ExtensionReport> {
    boot.entries::<Extensions>()
        .map(|e| ExtensionReport {
            id: e.member.id().to_owned(),
            version: e.member.version().to_owned(),
            origin: e.origin,
            advertised: [Era::Modern, Era::Legacy]
                .into_iter()
                .filter(|era| e.member.is_advertised(*era))
                .collect(),
            requires: e
                .member
                .requirements()
                .iter()
                .map(ToString::to_string)
                .collect(),
            members: parts
                .registered
                .iter()
                .filter(|r| r.origin.crate_name == e.origin.crate_name && r.name != e.name)
                .map(|r| format!("{} `{}`", r.kind, r.name))
                .collect(),
        })
        .collect()
}

/// A route's pipeline as the boot report shows it.
fn method_report(r: RouteReport) -> MethodReport {
    MethodReport {
        method: r.method,
        eras: r.eras,
        owner: r.owner,
        typed_interceptors: r.typed,
        handlers: r
            .handlers
            .into_iter()
            .map(|(target, chain)| crate::server::report::HandlerReport { target, chain })
            .collect(),
    }
}
