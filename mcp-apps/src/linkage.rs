//! Tool linkage: the View a tool names (`_meta.ui.resourceUri`) and who
//! may call it (`_meta.ui.visibility`), written next to its `#[tool]`.

use mcp_server::core::ext::apps::{McpUiToolMeta, McpUiToolVisibility, UI_RESOURCE_URI};
use mcp_server::core::tools::Tool;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};

use crate::view::Origins;

/// Who may call a tool that has a View.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// The model and the View (`["model", "app"]`, the default).
    ModelAndApp,
    /// Only the View, through the host (`["app"]`): the host keeps the
    /// tool from the model.
    AppOnly,
}

/// The UI metadata of one tool: a customizer of that tool, attached with
/// [`ui!`](crate::ui) or `Item::customizer_for::<Tool>(name, ..)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolUi {
    resource_uri: Option<&'static str>,
    visibility: Visibility,
}

impl ToolUi {
    /// The tool shows the View at `resource_uri`; the model and the View may call it.
    pub const fn view(resource_uri: &'static str) -> Self {
        Self {
            resource_uri: Some(resource_uri),
            visibility: Visibility::ModelAndApp,
        }
    }

    /// The tool is for Views only; it shows no View of its own.
    pub const fn app_only() -> Self {
        Self {
            resource_uri: None,
            visibility: Visibility::AppOnly,
        }
    }

    /// The same, with `visibility`.
    #[must_use]
    pub const fn visibility(mut self, visibility: Visibility) -> Self {
        self.visibility = visibility;
        self
    }

    fn meta(&self) -> McpUiToolMeta {
        McpUiToolMeta {
            resource_uri: self.resource_uri.map(str::to_owned),
            visibility: match self.visibility {
                Visibility::ModelAndApp => None,
                Visibility::AppOnly => Some(vec![McpUiToolVisibility::App]),
            },
        }
    }
}

impl HandlerCustomizer<Tool> for ToolUi {
    fn customize(&self, config: &mut HandlerConfig<'_, Tool>) {
        let mine = self.meta();
        let meta = config.descriptor_mut().meta.get_or_insert_default();
        let mut ui = McpUiToolMeta::from_meta(meta)
            .ok()
            .flatten()
            .unwrap_or_default();
        if mine.resource_uri.is_some() {
            ui.resource_uri = mine.resource_uri;
        }
        if mine.visibility.is_some() {
            ui.visibility = mine.visibility;
        }
        ui.insert_into(meta);
    }
}

/// Runs on every tool: records where it came from, and moves a resource
/// URI written under the deprecated flat `_meta["ui/resourceUri"]` into
/// `_meta.ui`, so the flat key is never sent.
pub(crate) struct EveryTool;

impl HandlerCustomizer<Tool> for EveryTool {
    fn customize(&self, config: &mut HandlerConfig<'_, Tool>) {
        let origins = config.boot().shared::<Origins>();
        let name = config.descriptor().name.clone();
        Origins::record(&origins.tools, &name, config.origin());
        let Some(meta) = config.descriptor_mut().meta.as_mut() else {
            return;
        };
        if !meta.contains_key(UI_RESOURCE_URI) {
            return;
        }
        // An unreadable `_meta.ui` is left as written, for the boot check to name.
        if let Ok(Some(ui)) = McpUiToolMeta::from_meta(meta) {
            meta.remove(UI_RESOURCE_URI);
            if ui != McpUiToolMeta::default() {
                ui.insert_into(meta);
            }
        }
    }
}

/// Links a `#[tool]` function to its View, written next to it:
/// `mcp_apps::ui!(my_tool, "ui://my-server/view")`; add `, app_only` for a
/// tool only the View may call (`visibility: ["app"]`), or write
/// `mcp_apps::ui!(my_tool, app_only)` for such a tool without a View of
/// its own.
///
/// ```
/// use mcp_server::tool;
///
/// /// Today's weather.
/// #[tool]
/// async fn weather(city: String) -> String {
///     format!("sunny in {city}")
/// }
/// mcp_apps::ui!(weather, "ui://weather/dashboard");
///
/// /// Refreshes the dashboard; only the dashboard calls it.
/// #[tool]
/// async fn refresh() -> String {
///     "refreshed".into()
/// }
/// mcp_apps::ui!(refresh, "ui://weather/dashboard", app_only);
/// ```
#[macro_export]
macro_rules! ui {
    ($tool:path, app_only) => {
        ::mcp_server::customize_tool!($tool, $crate::ToolUi::app_only());
    };
    ($tool:path, $uri:expr) => {
        ::mcp_server::customize_tool!($tool, $crate::ToolUi::view($uri));
    };
    ($tool:path, $uri:expr, app_only) => {
        ::mcp_server::customize_tool!(
            $tool,
            $crate::ToolUi::view($uri).visibility($crate::Visibility::AppOnly)
        );
    };
}
