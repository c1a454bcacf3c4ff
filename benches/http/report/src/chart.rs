//! The SVG chart of a run: requests per second of every server as a group
//! of bars, one bar per connection count, each with a whisker over the
//! range of its rounds and labelled with its ratio to the floor (and, for
//! the framework's rows, to rmcp).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::rows::{Row, Run};

/// The bar colours, one per connection count, in order.
const COLOURS: [RGBColor; 3] = [
    RGBColor(0x2b, 0x6c, 0xb0),
    RGBColor(0xe0, 0x8a, 0x2c),
    RGBColor(0x5a, 0x9e, 0x4b),
];
/// The chart's size in pixels.
const SIZE: (u32, u32) = (1100, 600);
/// The font of every text: the viewer's own sans-serif.
const FONT: &str = "sans-serif";

/// Draws the chart into an SVG file at `path`.
pub fn draw(run: &Run, path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let servers = run.servers();
    let counts = run.connection_counts();
    let top = run
        .rows
        .iter()
        .map(|r| r.rps.max(r.rps_range.1))
        .fold(0.0, f64::max)
        * 1.22;
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    titles(&root)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(16)
        .margin_top(70)
        .x_label_area_size(52)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..servers.len() as f64, 0.0..top.max(1.0))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(0)
        .y_desc("requests/s")
        .y_label_formatter(&|v| format!("{:.0}k", v / 1000.0))
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 15))
        .draw()?;

    let slot = 0.8 / counts.len().max(1) as f64;
    for (c, &connections) in counts.iter().enumerate() {
        let colour = COLOURS[c % COLOURS.len()];
        let bars: Vec<_> = servers
            .iter()
            .enumerate()
            .filter_map(|(s, (key, _))| run.find(key, connections).map(|row| (s, row)))
            .collect();
        let left = |s: usize| s as f64 + 0.1 + slot * c as f64;
        chart
            .draw_series(bars.iter().map(|(s, row)| {
                Rectangle::new(
                    [(left(*s) + 0.01, 0.0), (left(*s) + slot - 0.01, row.rps)],
                    colour.filled(),
                )
            }))?
            .label(format!(
                "{connections} connection{}",
                if connections == 1 { "" } else { "s" }
            ))
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], colour.filled()));
        chart.draw_series(
            bars.iter()
                .filter(|(_, row)| row.rounds > 1)
                .map(|(s, row)| {
                    let centre = left(*s) + slot / 2.0;
                    PathElement::new(
                        [(centre, row.rps_range.0), (centre, row.rps_range.1)],
                        BLACK.stroke_width(2),
                    )
                }),
        )?;
        for (s, row) in &bars {
            let (x, y) =
                chart.backend_coord(&(left(*s) + slot / 2.0, row.rps_range.1.max(row.rps)));
            for (i, line) in bar_label(run, row).iter().rev().enumerate() {
                root.draw(&Text::new(
                    line.clone(),
                    (x, y - 4 - 14 * i as i32),
                    anchored(14, VPos::Bottom),
                ))?;
            }
        }
    }

    for (s, (_, label)) in servers.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(s as f64 + 0.5, 0.0));
        let (first, second) = label.split_once(", ").unwrap_or((label, ""));
        root.draw(&Text::new(
            first.to_owned(),
            (x, y + 8),
            anchored(15, VPos::Top),
        ))?;
        root.draw(&Text::new(
            second.to_owned(),
            (x, y + 26),
            anchored(15, VPos::Top),
        ))?;
    }

    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 15))
        .draw()?;
    root.present()?;
    Ok(())
}

/// The title and, under it, how to read the bars.
fn titles(root: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), Box<dyn std::error::Error>> {
    let middle = SIZE.0 as i32 / 2;
    root.draw(&Text::new(
        "tools/call over Streamable HTTP: requests/s (server on one core, wrk on the other)",
        (middle, 12),
        anchored(22, VPos::Top),
    ))?;
    root.draw(&Text::new(
        "bars: median of the undisturbed rounds, whiskers: their range; labels: requests/s, ratio to the floor (and, for the framework, to rmcp)",
        (middle, 42),
        anchored(15, VPos::Top),
    ))?;
    Ok(())
}

/// The lines over a bar: its requests per second, its ratio to the floor,
/// and for the framework's rows its ratio to rmcp.
fn bar_label(run: &Run, row: &Row) -> Vec<String> {
    let mut lines = vec![format!("{:.1}k/s", row.rps / 1000.0)];
    if let Some(r) = run.ratio(row, "floor") {
        lines.push(format!("{r:.2}× floor"));
    }
    let framework = row.key != "floor" && !row.key.starts_with("rmcp");
    if let Some(r) = run.ratio(row, row.rmcp_key()).filter(|_| framework) {
        lines.push(format!("{r:.1}× rmcp"));
    }
    lines
}

/// Text of `size`, centred across its point and above (`Bottom`) or below
/// (`Top`) it.
fn anchored(size: u32, vertical: VPos) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).pos(Pos::new(HPos::Center, vertical))
}
