//! A tool with an interactive View (the `mcp-apps` extension):
//! `sales_by_region` answers with a sentence for the model and with the
//! figures as `structuredContent`, which the `sales_chart` View draws.

use mcp_apps::View;
use mcp_server::core::tools::CallToolResult;
use mcp_server::tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// The URI of the chart View.
pub const SALES_CHART: &str = "ui://mcp-demo/sales-chart";

/// A quarter of the year.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
pub enum Quarter {
    /// January to March.
    Q1,
    /// April to June.
    Q2,
    /// July to September.
    #[default]
    Q3,
    /// October to December.
    Q4,
}

/// The sales of each region in one quarter, in thousands of dollars.
fn sales(quarter: Quarter) -> [(&'static str, u32); 4] {
    let figures = match quarter {
        Quarter::Q1 => [98, 104, 121, 77],
        Quarter::Q2 => [110, 99, 130, 85],
        Quarter::Q3 => [120, 95, 143, 88],
        Quarter::Q4 => [135, 112, 151, 97],
    };
    let regions = ["North", "South", "East", "West"];
    std::array::from_fn(|i| (regions[i], figures[i]))
}

/// Sales by region for one quarter (`Q1` to `Q4`, default `Q3`), as a
/// sentence and as a bar chart in hosts that render MCP Apps.
#[tool]
pub async fn sales_by_region(quarter: Option<Quarter>) -> CallToolResult {
    let quarter = quarter.unwrap_or_default();
    let bars = sales(quarter);
    let total: u32 = bars.iter().map(|(_, value)| value).sum();
    let listed: Vec<String> = bars
        .iter()
        .map(|(label, value)| format!("{label} {value}"))
        .collect();
    let mut result = CallToolResult::text(format!(
        "Sales by region, {quarter:?}: {} (total {total} k$)",
        listed.join(", ")
    ));
    result.structured_content = Some(json!({
        "title": format!("Sales by region, {quarter:?}"),
        "unit": "k$",
        "bars": bars
            .iter()
            .map(|(label, value)| json!({"label": label, "value": value}))
            .collect::<Vec<_>>(),
    }));
    result
}
mcp_apps::ui!(sales_by_region, SALES_CHART);

/// The bar chart of `sales_by_region`: one HTML file, embedded at compile
/// time, that speaks the View side of the MCP Apps host protocol itself.
pub fn sales_chart() -> View {
    View::new(SALES_CHART, "sales_chart")
        .title("Sales chart")
        .description("The figures of `sales_by_region` as a bar chart")
        .html(include_str!("../../views/sales_chart.html"))
        .prefers_border(true)
}
mcp_apps::view!(sales_chart);
