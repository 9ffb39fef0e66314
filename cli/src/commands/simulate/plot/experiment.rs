//! `simulate --plot FILE.svg` on the hash experiment: its own figures.
//!
//! Top: the hit rate after the change, one bar per hash (each in its colour, its rate above
//! it), the ideal hit rate as a black line across. Bottom: the keys per node before (left) and
//! after (right) the change, one line per hash in the same colours, nodes in fleet order, the
//! even share (keys over nodes) as a black line.

use plotters::prelude::*;

use super::super::experiment::{HashResult, Report};
use super::svg::{self, color, Area, DrawResult, FONT};
use crate::output::pct;
use crate::shared::Fail;

/// Writes the experiment's SVG.
pub(crate) fn write(r: &Report, path: &str) -> Result<(), Fail> {
    svg::write(path, (1100, 1000), |root| {
        let (top, bottom) = root.split_vertically(450);
        hit_rates(r, &top)?;
        let (left, right) = bottom.split_horizontally(550);
        let before: Vec<&[usize]> = r.results.iter().map(|x| x.before.as_slice()).collect();
        let after: Vec<&[usize]> = r.results.iter().map(|x| x.after.as_slice()).collect();
        per_node(r, &left, "before", &before)?;
        per_node(r, &right, "after", &after)
    })
}

/// The hit rate per hash beside the ideal.
fn hit_rates(r: &Report, area: &Area<'_>) -> DrawResult {
    let n = r.results.len().max(1);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "Hit rate after nodes {} -> {} ({} keys, profile {}); black line: the ideal {}",
                r.old.len(),
                r.new.len(),
                r.keys,
                r.profile.name,
                pct(r.ideal)
            ),
            (FONT, 20),
        )
        .margin(12)
        .margin_right(30)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..n as f64, 0f64..105f64)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("hit rate (%)")
        .y_label_formatter(&|v| format!("{v:.0}"))
        .label_style((FONT, 13))
        .draw()?;
    chart.draw_series(r.results.iter().enumerate().map(|(j, x)| {
        Rectangle::new(
            [
                (j as f64 + 0.15, 0.0),
                (j as f64 + 0.85, x.hit_rate * 100.0),
            ],
            color(j).filled(),
        )
    }))?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, r.ideal * 100.0), (n as f64, r.ideal * 100.0)],
        BLACK.stroke_width(2),
    )))?;
    chart.draw_series(r.results.iter().enumerate().map(|(j, x)| {
        let label = x.shown.clone();
        let shift = -(label.len() as i32) * 7 / 2;
        EmptyElement::at((j as f64 + 0.5, 0.0)) + Text::new(label, (shift, 8), (FONT, 15))
    }))?;
    chart.draw_series(r.results.iter().enumerate().map(|(j, x)| {
        let label = pct(x.hit_rate);
        let shift = -(label.len() as i32) * 7 / 2;
        EmptyElement::at((j as f64 + 0.5, x.hit_rate * 100.0))
            + Text::new(label, (shift, -20), (FONT, 14))
    }))?;
    Ok(())
}

/// Keys per node (`when`: before or after), one line per hash, the even share in black.
fn per_node(r: &Report, area: &Area<'_>, when: &str, counts: &[&[usize]]) -> DrawResult {
    let nodes = counts.first().map_or(0, |c| c.len()).max(1);
    let placed = r.results.first().map_or(0, |x: &HashResult| x.placed);
    let even = placed as f64 / nodes as f64;
    let top = counts
        .iter()
        .flat_map(|c| c.iter().copied())
        .max()
        .unwrap_or(0) as f64;
    let top = top.max(even) * 1.15 + 1.0;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("Keys per node {when} ({nodes} nodes)"), (FONT, 18))
        .margin(12)
        .margin_right(20)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.5f64..nodes as f64 + 0.5, 0f64..top)?;
    chart
        .configure_mesh()
        .x_desc("node (fleet order)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_desc("keys")
        .y_label_formatter(&|v| format!("{v:.0}"))
        .label_style((FONT, 13))
        .draw()?;
    for (i, (x, c)) in r.results.iter().zip(counts).enumerate() {
        let points: Vec<(f64, f64)> = c
            .iter()
            .enumerate()
            .map(|(k, &v)| ((k + 1) as f64, v as f64))
            .collect();
        chart
            .draw_series(LineSeries::new(points, color(i).stroke_width(2)))?
            .label(x.shown.as_str())
            .legend(move |(px, py)| {
                PathElement::new(vec![(px, py), (px + 20, py)], color(i).stroke_width(3))
            });
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.5, even), (nodes as f64 + 0.5, even)],
            BLACK.stroke_width(1),
        )))?
        .label(format!("even share {even:.0}"))
        .legend(|(px, py)| PathElement::new(vec![(px, py), (px + 20, py)], BLACK.stroke_width(1)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 12))
        .draw()?;
    Ok(())
}
