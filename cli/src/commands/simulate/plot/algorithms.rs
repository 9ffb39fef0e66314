//! `simulate --algorithms A,B,... --plot FILE.svg`: the comparison as a picture.
//!
//! Top: load per server, one line per algorithm: each server's keys over the mean, servers
//! sorted from the most loaded (at most [`MAX_POINTS`] servers per line, evenly spaced ranks).
//! Bottom: for each fleet change, the fraction of keys moved over the ideal fraction (so a
//! change moving 0.02% and one moving 15% read on one scale), one bar per algorithm in the same
//! colour, the ideal as a black line at 1; each group's label gives its ideal fraction.

use plotters::prelude::*;

use super::super::algos::Report;
use super::svg::{self, color, Area, DrawResult, FONT};
use crate::shared::Fail;

/// Points per load line at most (a 10,000-server fleet is sampled at evenly spaced ranks).
pub(crate) const MAX_POINTS: usize = 1000;

/// The sorted load curve of one algorithm: (rank, load / mean).
fn curve(loads: &[u64]) -> Vec<(f64, f64)> {
    let n = loads.len();
    let total: u64 = loads.iter().sum();
    if n == 0 || total == 0 {
        return Vec::new();
    }
    let mean = total as f64 / n as f64;
    let mut sorted = loads.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let ranks: Vec<usize> = if n <= MAX_POINTS {
        (0..n).collect()
    } else {
        (0..MAX_POINTS)
            .map(|j| j * (n - 1) / (MAX_POINTS - 1))
            .collect()
    };
    ranks
        .into_iter()
        .map(|r| ((r + 1) as f64, sorted[r] as f64 / mean))
        .collect()
}

/// Writes the comparison's SVG: load per server on top, keys moved per change below.
pub(crate) fn write(r: &Report, path: &str) -> Result<(), Fail> {
    svg::write(path, (1100, 1000), |root| {
        let (top, bottom) = root.split_vertically(500);
        loads(r, &top)?;
        moved(r, &bottom)
    })
}

fn loads(r: &Report, area: &Area<'_>) -> DrawResult {
    let curves: Vec<Vec<(f64, f64)>> = r.results.iter().map(|x| curve(&x.loads)).collect();
    let top = curves.iter().flatten().map(|p| p.1).fold(1.0, f64::max);
    let bottom = curves.iter().flatten().map(|p| p.1).fold(1.0, f64::min);
    let pad = (top - bottom).max(0.02) * 0.08;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "Load per server: {} keys on {} servers (most loaded first)",
                r.keys, r.servers
            ),
            (FONT, 20),
        )
        .margin(12)
        .margin_right(30)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(1f64..r.servers.max(2) as f64, (bottom - pad)..(top + pad))?;
    chart
        .configure_mesh()
        .x_desc("server rank")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_desc("keys / mean")
        .label_style((FONT, 13))
        .draw()?;
    for (i, (x, c)) in r.results.iter().zip(&curves).enumerate() {
        let style = color(i).stroke_width(2);
        chart
            .draw_series(LineSeries::new(c.iter().copied(), style))?
            .label(x.shown.as_str())
            .legend(move |(px, py)| {
                PathElement::new(vec![(px, py), (px + 20, py)], color(i).stroke_width(3))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()?;
    Ok(())
}

fn moved(r: &Report, area: &Area<'_>) -> DrawResult {
    let groups = r.changes.len().max(1);
    let count = r.results.len().max(1);
    let ratio = |moved: f64, ideal: f64| if ideal > 0.0 { moved / ideal } else { 0.0 };
    let top = r
        .results
        .iter()
        .flat_map(|x| {
            x.changes
                .iter()
                .zip(&r.changes)
                .map(|(m, c)| ratio(m.moved, c.ideal))
        })
        .fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Keys moved per fleet change, over the ideal minimum (black line)",
            (FONT, 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..groups as f64, 0f64..top * 1.1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("keys moved / ideal")
        .label_style((FONT, 13))
        .draw()?;
    for (i, x) in r.results.iter().enumerate() {
        let fill = color(i).filled();
        chart.draw_series(
            x.changes
                .iter()
                .zip(&r.changes)
                .enumerate()
                .map(|(j, (m, c))| {
                    let x0 = j as f64 + 0.1 + 0.8 * i as f64 / count as f64;
                    let x1 = x0 + 0.8 / count as f64;
                    Rectangle::new([(x0, 0.0), (x1, ratio(m.moved, c.ideal))], fill)
                }),
        )?;
    }
    chart.draw_series((0..r.changes.len()).map(|j| {
        PathElement::new(
            vec![(j as f64 + 0.05, 1.0), (j as f64 + 0.95, 1.0)],
            BLACK.stroke_width(2),
        )
    }))?;
    chart.draw_series(r.changes.iter().enumerate().map(|(j, c)| {
        let label = format!("{}: ideal {}", c.name, crate::output::pct(c.ideal));
        let shift = -(label.len() as i32) * 7 / 2;
        EmptyElement::at((j as f64 + 0.5, 0.0)) + Text::new(label, (shift, 8), (FONT, 15))
    }))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_sorts_and_samples() {
        assert_eq!(curve(&[1, 3, 2]), [(1.0, 1.5), (2.0, 1.0), (3.0, 0.5)]);
        let big: Vec<u64> = (0..5000).collect();
        let c = curve(&big);
        assert_eq!(c.len(), MAX_POINTS);
        assert_eq!(c[0].0, 1.0);
        assert_eq!(c[MAX_POINTS - 1].0, 5000.0);
        assert!(curve(&[]).is_empty());
    }
}
