//! Statistics charts as SVG (plotters' SVG backend): the distance histogram of a shape, a benchmark's nodes and
//! seconds per instance, and a practice session's times.
//!
//! plotters estimates text widths for its layout without any font file; the SVG names generic font families and
//! the viewer draws the text.
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use crate::error::{Error, RenderError, Result, SolveError};
use crate::{Metric, Shape};

/// The size of a chart in pixels (width, height).
pub const CHART_SIZE: (u32, u32) = (800, 480);

fn chart_error(e: impl std::fmt::Display) -> Error {
    Error::Render(RenderError::Draw {
        step: "drawing a chart".into(),
        reason: e.to_string(),
    })
}

const BAR: RGBColor = RGBColor(0x4a, 0x78, 0xb0);
const MARK: RGBColor = RGBColor(0xc0, 0x39, 0x2b);

/// How a metric is named in chart titles.
fn metric_title(metric: Metric) -> &'static str {
    match metric {
        Metric::Stm => "STM: single-tile moves",
        Metric::Mtm => "MTM: multi-tile moves",
    }
}

/// The distance histogram of a shape as an SVG bar chart: states at each distance from the goal, the last
/// distance (god's number) marked in red with a label `god's number: D`. The title names the shape and the
/// metric. `histogram[d]` is the number of states at distance `d`; it must not be empty.
pub fn distance_chart(shape: Shape, metric: Metric, histogram: &[u64]) -> Result<String> {
    let Some(god) = histogram.len().checked_sub(1) else {
        return Err(Error::Solve(SolveError::InvalidOption {
            option: "histogram".into(),
            reason: "no distances to plot".into(),
        }));
    };
    let god = god as u32;
    let top = histogram.iter().copied().max().unwrap_or(1).max(1);
    let y_max = top + top / 8 + 1;
    let title = format!(
        "{} × {}: states at each distance ({})",
        shape.rows(),
        shape.cols(),
        metric_title(metric)
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, CHART_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(90)
            .build_cartesian_2d((0u32..god + 1).into_segmented(), 0u64..y_max)
            .map_err(chart_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(match metric {
                Metric::Stm => "distance from the goal (single-tile moves)",
                Metric::Mtm => "distance from the goal (multi-tile moves)",
            })
            .y_desc("states")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(d) | SegmentValue::Exact(d) => d.to_string(),
                SegmentValue::Last => String::new(),
            })
            .y_label_formatter(&|v| group_digits(*v))
            .draw()
            .map_err(chart_error)?;
        chart
            .draw_series(
                Histogram::vertical(&chart)
                    .style_func(|x, _| {
                        if matches!(x, SegmentValue::CenterOf(d) if *d == god) {
                            MARK.filled()
                        } else {
                            BAR.filled()
                        }
                    })
                    .margin(1)
                    .data(histogram.iter().enumerate().map(|(d, &c)| (d as u32, c))),
            )
            .map_err(chart_error)?;
        // The marker: a dashed line over god's number's bar, and its label.
        let x = SegmentValue::CenterOf(god);
        chart
            .draw_series(DashedLineSeries::new(
                [(x.clone(), 0), (x.clone(), y_max)],
                6,
                4,
                MARK.stroke_width(2),
            ))
            .map_err(chart_error)?;
        let label = format!("god's number: {god}");
        let style = TextStyle::from(("sans-serif", 18).into_font())
            .color(&MARK)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Right,
                plotters::style::text_anchor::VPos::Top,
            ));
        let at = chart.backend_coord(&(x, y_max));
        root.draw(&Text::new(label, (at.0 - 8, at.1 + 6), style))
            .map_err(chart_error)?;
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

/// One instance of a benchmark run, for [`bench_chart`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchPoint {
    /// The instance's id.
    pub id: u32,
    /// Nodes the search expanded.
    pub nodes: u64,
    /// Seconds it took.
    pub seconds: f64,
}

/// A benchmark run as an SVG chart: nodes (above) and seconds (below) per instance, both on log scales, titled
/// with `title` (for example the set's name). `points` must not be empty.
pub fn bench_chart(title: &str, points: &[BenchPoint]) -> Result<String> {
    if points.is_empty() {
        return Err(Error::Solve(SolveError::InvalidOption {
            option: "points".into(),
            reason: "no instances to plot".into(),
        }));
    }
    let lo = points.iter().map(|p| p.id).min().unwrap_or(0);
    let hi = points.iter().map(|p| p.id).max().unwrap_or(0);
    let x_range = f64::from(lo) - 0.5..f64::from(hi) + 0.5;
    let max_nodes = points.iter().map(|p| p.nodes).max().unwrap_or(1).max(1) as f64;
    // Seconds below a microsecond are drawn at a microsecond (a log scale has no zero).
    let min_secs = 1e-6;
    let max_secs = points
        .iter()
        .map(|p| p.seconds)
        .filter(|s| s.is_finite())
        .fold(min_secs, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (CHART_SIZE.0, CHART_SIZE.1 * 3 / 2))
            .into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let root = root
            .titled(title, ("sans-serif", 22))
            .map_err(chart_error)?;
        let (upper, lower) = root.split_vertically(CHART_SIZE.1 * 3 / 4 - 20);
        let panels: [(&DrawingArea<SVGBackend, _>, &str, f64, f64); 2] = [
            (&upper, "nodes", 1.0, max_nodes * 2.0),
            (&lower, "seconds", min_secs, max_secs * 2.0),
        ];
        for (k, (area, what, y_lo, y_hi)) in panels.into_iter().enumerate() {
            let mut chart = ChartBuilder::on(area)
                .margin(16)
                .x_label_area_size(40)
                .y_label_area_size(90)
                .build_cartesian_2d(x_range.clone(), (y_lo..y_hi).log_scale())
                .map_err(chart_error)?;
            chart
                .configure_mesh()
                .x_desc("instance")
                .y_desc(what)
                // Instance ids are whole numbers: ticks between them go unlabelled.
                .x_label_formatter(&|v| {
                    if v.fract() == 0.0 {
                        format!("{v:.0}")
                    } else {
                        String::new()
                    }
                })
                .y_label_formatter(&|v| {
                    if k == 0 && *v < 1e6 && v.fract() == 0.0 {
                        group_digits(*v as u64)
                    } else {
                        format!("{v:.0e}")
                    }
                })
                .draw()
                .map_err(chart_error)?;
            let value = |p: &BenchPoint| {
                if k == 0 {
                    (p.nodes as f64).max(1.0)
                } else if p.seconds.is_finite() {
                    p.seconds.max(min_secs)
                } else {
                    min_secs
                }
            };
            chart
                .draw_series(
                    points
                        .iter()
                        .map(|p| Circle::new((f64::from(p.id), value(p)), 3, BAR.filled())),
                )
                .map_err(chart_error)?;
        }
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

/// A practice series as an SVG chart: each solve's time in seconds (`None`: a DNF, drawn as a red cross along the
/// top) and the rolling average of 5 and of 12 ([`crate::practice`]) where they are defined, titled with `title`.
/// An empty series gives an empty chart.
pub fn times_chart(title: &str, times: &[Option<f64>]) -> Result<String> {
    use crate::practice::{Better, Kind, Score};
    let finite = |t: &Option<f64>| t.filter(|x| x.is_finite() && *x >= 0.0);
    let top = times.iter().filter_map(finite).fold(1.0, f64::max) * 1.1;
    let n = times.len().max(1);
    let rolling = |kind: Kind| -> Vec<(f64, f64)> {
        (kind.window()..=times.len())
            .filter_map(
                |end| match kind.of(&times[end - kind.window()..end], Better::Lower) {
                    Some(Score::Value(v)) if v.is_finite() => Some((end as f64, v.min(top))),
                    _ => None,
                },
            )
            .collect()
    };
    let ao5_colour = RGBColor(0x27, 0xae, 0x60);
    let ao12_colour = RGBColor(0x8e, 0x44, 0xad);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, CHART_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0.5..n as f64 + 0.5, 0.0..top)
            .map_err(chart_error)?;
        chart
            .configure_mesh()
            .x_desc("solve")
            .y_desc("seconds")
            .x_label_formatter(&|v| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(chart_error)?;
        chart
            .draw_series(times.iter().enumerate().filter_map(|(i, t)| {
                finite(t).map(|t| Circle::new(((i + 1) as f64, t), 3, BAR.filled()))
            }))
            .map_err(chart_error)?
            .label("time")
            .legend(|(x, y)| Circle::new((x + 10, y), 3, BAR.filled()));
        chart
            .draw_series(
                times
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| finite(t).is_none())
                    .map(|(i, _)| {
                        Cross::new(((i + 1) as f64, top * 0.97), 5, MARK.stroke_width(2))
                    }),
            )
            .map_err(chart_error)?
            .label("DNF")
            .legend(|(x, y)| Cross::new((x + 10, y), 5, MARK.stroke_width(2)));
        for (kind, colour) in [(Kind::Ao(5), ao5_colour), (Kind::Ao(12), ao12_colour)] {
            chart
                .draw_series(LineSeries::new(rolling(kind), colour.stroke_width(2)))
                .map_err(chart_error)?
                .label(kind.name())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(chart_error)?;
        root.present().map_err(chart_error)?;
    }
    Ok(svg)
}

/// A whole number with thin groups of three digits: `181,440`.
fn group_digits(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(181_440), "181,440");
        assert_eq!(group_digits(1_814_400), "1,814,400");
    }

    #[test]
    fn times_charts_are_svg() {
        let svg = times_chart(
            "3x3 single",
            &[Some(2.0), None, Some(3.5), Some(1.0), Some(2.5), Some(2.0)],
        )
        .unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("ao5") && svg.contains("DNF"));
        assert!(times_chart("empty", &[]).unwrap().starts_with("<svg"));
    }
}
