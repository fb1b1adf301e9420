//! Pictures: a board as SVG or PNG, a move sequence as an animated GIF or SVG, and statistics charts ([`plot`]).
//!
//! Everything here returns bytes or strings; the faces write the files. Every picture is first an SVG document:
//! PNG and GIF frames are that document drawn by resvg. Tile numbers are set in DejaVu Sans Bold, cut down to the
//! digits and embedded in the library (`assets/DejaVuSans-Bold-digits.ttf`), so that no font is read from the
//! machine and the same input always gives the same pixels. The SVG names the font as `DejaVu Sans` with generic
//! fallbacks, for viewers that draw it themselves.
//!
//! Animations play a move sequence at a number of tiles per second ([`Animation::tps`]): the start is held
//! [`HOLD_START`] seconds, each move takes `1 / tps` seconds, and the end is held [`HOLD_END`] seconds before the
//! loop starts again. A GIF has one frame for every position, plus [`Animation::inbetweens`] frames within each
//! move where the moving tile is drawn part of the way (fewer at high speeds: [`Animation::gif_inbetweens`]); an
//! animated SVG moves the tiles with SMIL `<animateTransform>`.
//!
//! ```
//! use slide::{Board, render};
//! let board = Board::parse("4 1 2/5 0 3").unwrap();
//! let svg = render::svg(&board, &Board::goal(board.shape()), &render::Style::default()).unwrap();
//! assert!(svg.starts_with("<svg"));
//! ```

pub mod plot;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use crate::board::{Board, Tile};
use crate::error::{Error, Result};
use crate::notation::Moves;
use crate::{RenderError, SolveError};

/// The default length of a picture's longer side, in pixels.
pub const DEFAULT_SIZE: u32 = 400;
/// The smallest accepted [`Style::size`].
pub const MIN_SIZE: u32 = 16;
/// The largest accepted [`Style::size`].
pub const MAX_SIZE: u32 = 4096;
/// The most cells a picture may have (100 × 100).
pub const MAX_CELLS: usize = 10_000;
/// The most pixels a GIF may hold, counted as frames × width × height.
pub const MAX_GIF_PIXELS: u64 = 100_000_000;
/// The most cells a GIF may draw, counted as frames × cells of the board (a bound on its drawing time).
pub const MAX_GIF_TILES: u64 = 10_000_000;
/// The most moves an animated SVG may play.
pub const MAX_SVG_MOVES: usize = 100_000;
/// The default speed, in tiles per second.
pub const DEFAULT_TPS: f64 = 8.0;
/// The slowest accepted speed, in tiles per second.
pub const MIN_TPS: f64 = 0.1;
/// The fastest accepted speed, in tiles per second (a GIF frame lasts at least 1/50 s).
pub const MAX_TPS: f64 = 50.0;
/// The default number of in-between frames per move in a GIF.
pub const DEFAULT_INBETWEENS: u32 = 3;
/// The most in-between frames per move.
pub const MAX_INBETWEENS: u32 = 10;
/// Seconds the start position is held before the first move.
pub const HOLD_START: f64 = 0.5;
/// Seconds the end position is held before the animation starts again.
pub const HOLD_END: f64 = 1.0;

/// The family name of the embedded font.
pub const FONT_FAMILY: &str = "DejaVu Sans";
/// DejaVu Sans Bold, only the space and the digits (see `assets/FONT-LICENSE.md`).
const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold-digits.ttf");

/// How tiles are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scheme {
    /// Every tile the same colour.
    #[default]
    Plain,
    /// The speedsolvers' fringe colouring: a tile takes the colour of the row or column its goal cell is solved
    /// with, peeled from the outside: the first row, then the first column (below it), then the second row (right
    /// of the first column), and so on ([`fringe_group`]).
    Fringe,
}

/// Light or dark colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Dark numbers on light tiles, on a light background.
    #[default]
    Light,
    /// Light numbers on dark tiles, on a dark background.
    Dark,
}

impl std::str::FromStr for Scheme {
    type Err = Error;
    fn from_str(s: &str) -> Result<Scheme> {
        match s {
            "plain" => Ok(Scheme::Plain),
            "fringe" => Ok(Scheme::Fringe),
            _ => Err(Error::Solve(SolveError::InvalidOption {
                option: "scheme".into(),
                reason: format!("unknown colour scheme {s:?}: expected plain or fringe"),
            })),
        }
    }
}

impl std::str::FromStr for Theme {
    type Err = Error;
    fn from_str(s: &str) -> Result<Theme> {
        match s {
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            _ => Err(Error::Solve(SolveError::InvalidOption {
                option: "theme".into(),
                reason: format!("unknown theme {s:?}: expected light or dark"),
            })),
        }
    }
}

/// An opaque colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl std::fmt::Display for Rgb {
    /// `#rrggbb`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

const fn hex(v: u32) -> Rgb {
    Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// Fringe colours, by group (cycled when a board has more groups), for the light and the dark theme.
const FRINGE_LIGHT: [Rgb; 10] = [
    hex(0xe79a9a),
    hex(0xeec084),
    hex(0xe6dc7e),
    hex(0xa5d98f),
    hex(0x86d1cb),
    hex(0x94b6ea),
    hex(0xb8a1ea),
    hex(0xe6a1d6),
    hex(0xcbb594),
    hex(0xa9b4c1),
];
const FRINGE_DARK: [Rgb; 10] = [
    hex(0x9c3b3b),
    hex(0xa4641f),
    hex(0x8c8422),
    hex(0x3d8a36),
    hex(0x237d77),
    hex(0x335d9e),
    hex(0x61489e),
    hex(0x944084),
    hex(0x7a6344),
    hex(0x55616e),
];

/// How a picture looks: its size, colour scheme and theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// The length of the picture's longer side in pixels, [`MIN_SIZE`] to [`MAX_SIZE`].
    pub size: u32,
    /// How tiles are coloured.
    pub scheme: Scheme,
    /// Light or dark.
    pub theme: Theme,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            size: DEFAULT_SIZE,
            scheme: Scheme::Plain,
            theme: Theme::Light,
        }
    }
}

impl Style {
    /// The background: around the tiles, between them and in the blank's cell.
    pub fn background(&self) -> Rgb {
        match self.theme {
            Theme::Light => hex(0xd6d0c4),
            Theme::Dark => hex(0x1c1e22),
        }
    }

    /// The colour of tile numbers.
    pub fn text(&self) -> Rgb {
        match self.theme {
            Theme::Light => hex(0x242424),
            Theme::Dark => hex(0xf2f2f2),
        }
    }

    /// The fill of a tile whose goal cell is `goal_cell` on `goal`'s shape.
    pub fn fill(&self, goal: &Board, goal_cell: usize) -> Rgb {
        match (self.scheme, self.theme) {
            (Scheme::Plain, Theme::Light) => hex(0xfaf6ec),
            (Scheme::Plain, Theme::Dark) => hex(0x3e4553),
            (Scheme::Fringe, theme) => {
                let g = fringe_group(goal.shape(), goal_cell) % FRINGE_LIGHT.len();
                match theme {
                    Theme::Light => FRINGE_LIGHT[g],
                    Theme::Dark => FRINGE_DARK[g],
                }
            }
        }
    }

    /// The fill of each tile (index: tile number; the blank's entry is the background).
    pub fn fills(&self, goal: &Board) -> Vec<Rgb> {
        let mut fills = vec![self.background(); goal.tiles().len()];
        for (cell, &t) in goal.tiles().iter().enumerate() {
            if t != 0 {
                fills[t as usize] = self.fill(goal, cell);
            }
        }
        fills
    }

    fn check(&self) -> Result<()> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(Error::Solve(SolveError::InvalidOption {
                option: "size".into(),
                reason: format!(
                    "{} pixels is out of range: {MIN_SIZE} to {MAX_SIZE}",
                    self.size
                ),
            }));
        }
        Ok(())
    }
}

/// The fringe group of a cell: the goal's region is peeled from its top left, the top row of what is left
/// (group 0, 2, 4, …), then its left column (group 1, 3, 5, …), until no cell is left.
///
/// ```
/// use slide::{render::fringe_group, Shape};
/// let s = Shape::new(3, 3).unwrap();
/// let groups: Vec<usize> = (0..9).map(|c| fringe_group(s, c)).collect();
/// assert_eq!(groups, [0, 0, 0, 1, 2, 2, 1, 3, 4]);
/// ```
pub fn fringe_group(shape: crate::Shape, cell: usize) -> usize {
    let (r, c) = shape.coords(cell);
    // Cell (r, c) belongs to row r's strip when r <= c (peeled before column c), else to column c's strip.
    if r <= c {
        2 * r
    } else {
        2 * c + 1
    }
}

/// How an animation plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Animation {
    /// Speed in tiles per second, [`MIN_TPS`] to [`MAX_TPS`].
    pub tps: f64,
    /// In-between frames per move in a GIF, 0 to [`MAX_INBETWEENS`] (0: one frame per position).
    pub inbetweens: u32,
}

impl Default for Animation {
    fn default() -> Animation {
        Animation {
            tps: DEFAULT_TPS,
            inbetweens: DEFAULT_INBETWEENS,
        }
    }
}

impl Animation {
    fn check(&self) -> Result<()> {
        if !(MIN_TPS..=MAX_TPS).contains(&self.tps) {
            return Err(Error::Solve(SolveError::InvalidOption {
                option: "tps".into(),
                reason: format!(
                    "{} tiles per second is out of range: {MIN_TPS} to {MAX_TPS}",
                    self.tps
                ),
            }));
        }
        if self.inbetweens > MAX_INBETWEENS {
            return Err(Error::Solve(SolveError::InvalidOption {
                option: "inbetweens".into(),
                reason: format!(
                    "{} in-between frames is out of range: 0 to {MAX_INBETWEENS}",
                    self.inbetweens
                ),
            }));
        }
        Ok(())
    }

    /// The in-between frames per move a GIF gets: [`Animation::inbetweens`], fewer when a move is too short for
    /// them (GIF frames last whole hundredths of a second, and viewers slow frames shorter than 2/100 s).
    pub fn gif_inbetweens(&self) -> u32 {
        let per_move = (100.0 / self.tps / 2.0).floor() as u32; // frames of 2/100 s in one move
        self.inbetweens.min(per_move.saturating_sub(1))
    }

    /// The frames of a GIF of `moves` moves: one per position and [`Animation::gif_inbetweens`] per move.
    pub fn gif_frames(&self, moves: usize) -> u64 {
        moves as u64 * (1 + u64::from(self.gif_inbetweens())) + 1
    }

    /// The length of one loop of the animation of `moves` moves, in seconds.
    pub fn duration(&self, moves: usize) -> f64 {
        HOLD_START + moves as f64 / self.tps + HOLD_END
    }
}

/// The layout of a picture: pixel sizes of the cells and the picture.
struct Layout {
    rows: usize,
    cols: usize,
    /// Cell pitch in pixels.
    unit: f64,
    width: u32,
    height: u32,
}

/// Margin around the tiles and gap between them, in cells.
const MARGIN: f64 = 0.08;
const GAP: f64 = 0.06;

impl Layout {
    fn new(board: &Board, style: &Style) -> Result<Layout> {
        style.check()?;
        let shape = board.shape();
        if shape.cells() > MAX_CELLS {
            return Err(Error::Solve(SolveError::InvalidOption {
                option: "board".into(),
                reason: format!(
                    "a picture shows at most {MAX_CELLS} cells; {shape} has {}",
                    shape.cells()
                ),
            }));
        }
        let (rows, cols) = (shape.rows(), shape.cols());
        let longer = rows.max(cols) as f64 + 2.0 * MARGIN;
        let unit = f64::from(style.size) / longer;
        let side = |n: usize| ((n as f64 + 2.0 * MARGIN) * unit).round().max(1.0) as u32;
        Ok(Layout {
            rows,
            cols,
            unit,
            width: side(cols),
            height: side(rows),
        })
    }

    /// The top left corner of a cell's tile group, for a (possibly fractional) row and column.
    fn origin(&self, row: f64, col: f64) -> (f64, f64) {
        ((MARGIN + col) * self.unit, (MARGIN + row) * self.unit)
    }

    fn cell_origin(&self, cell: usize) -> (f64, f64) {
        self.origin((cell / self.cols) as f64, (cell % self.cols) as f64)
    }
}

/// A number with at most 3 decimals, without trailing zeros.
fn num(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// Where each tile is drawn: its number and its group's top left corner.
type Scene = Vec<(Tile, f64, f64)>;

fn scene(board: &Board, layout: &Layout) -> Scene {
    board
        .tiles()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(cell, &t)| {
            let (x, y) = layout.cell_origin(cell);
            (t, x, y)
        })
        .collect()
}

/// Writes an SVG document of tiles at the given places; `animate(tile)` may add children to a tile's group.
fn document(
    layout: &Layout,
    style: &Style,
    goal: &Board,
    tiles: &Scene,
    mut animate: impl FnMut(Tile, &mut String),
) -> String {
    let fills = style.fills(goal);
    let (w, h) = (layout.width, layout.height);
    let u = layout.unit;
    let inner = u * (1.0 - GAP);
    let mut s = String::with_capacity(200 + tiles.len() * 200);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <title>{r} × {c} sliding puzzle</title>\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{bg}\"/>\n\
         <g font-family=\"{FONT_FAMILY}, Verdana, Arial, sans-serif\" font-weight=\"bold\" \
         text-anchor=\"middle\" fill=\"{text}\">\n",
        r = layout.rows,
        c = layout.cols,
        bg = style.background(),
        text = style.text(),
    );
    let (g2, radius) = (num(u * GAP / 2.0), num(u * 0.12));
    let (inner_s, mid) = (num(inner), num(u / 2.0));
    for &(t, x, y) in tiles {
        let digits = t.to_string();
        // Digits of DejaVu Sans Bold are about 0.7 em wide and 0.73 em tall: fit them in 80% of the tile.
        let font = (0.45 * u).min(0.8 * inner / (0.7 * digits.len() as f64));
        let baseline = u / 2.0 + 0.365 * font;
        let _ = write!(
            s,
            "<g class=\"tile\" data-tile=\"{t}\" transform=\"translate({x} {y})\">\
             <rect x=\"{g2}\" y=\"{g2}\" width=\"{inner_s}\" height=\"{inner_s}\" rx=\"{radius}\" fill=\"{fill}\"/>\
             <text x=\"{mid}\" y=\"{base}\" font-size=\"{fs}\">{t}</text>",
            x = num(x),
            y = num(y),
            fill = fills[t as usize],
            base = num(baseline),
            fs = num(font),
        );
        animate(t, &mut s);
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n</svg>\n");
    s
}

fn check_goal(board: &Board, goal: &Board) -> Result<()> {
    if board.shape() != goal.shape() {
        return Err(Error::Solve(SolveError::ShapeMismatch {
            board: board.shape(),
            goal: goal.shape(),
        }));
    }
    Ok(())
}

/// An SVG picture of a board. `goal` decides the fringe colours (the tiles' home cells).
pub fn svg(board: &Board, goal: &Board, style: &Style) -> Result<String> {
    check_goal(board, goal)?;
    let layout = Layout::new(board, style)?;
    Ok(document(
        &layout,
        style,
        goal,
        &scene(board, &layout),
        |_, _| {},
    ))
}

/// The picture's size in pixels (width, height) for a board and a style.
pub fn dimensions(board: &Board, style: &Style) -> Result<(u32, u32)> {
    let l = Layout::new(board, style)?;
    Ok((l.width, l.height))
}

fn usvg_options() -> &'static resvg::usvg::Options<'static> {
    static OPTIONS: OnceLock<resvg::usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family(FONT_FAMILY);
        resvg::usvg::Options {
            font_family: FONT_FAMILY.into(),
            fontdb: Arc::new(db),
            ..Default::default()
        }
    })
}

/// Draws an SVG document of ours into an opaque RGBA pixmap.
fn rasterize(svg: &str, width: u32, height: u32) -> Result<resvg::tiny_skia::Pixmap> {
    let tree = resvg::usvg::Tree::from_str(svg, usvg_options()).map_err(|e| {
        Error::Render(RenderError::Draw {
            step: "drawing the SVG".into(),
            reason: e.to_string(),
        })
    })?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)
        .ok_or(Error::Render(RenderError::NoPixmap { width, height }))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// A PNG picture of a board (8-bit RGBA, opaque).
pub fn png(board: &Board, goal: &Board, style: &Style) -> Result<Vec<u8>> {
    let doc = svg(board, goal, style)?;
    let layout = Layout::new(board, style)?;
    rasterize(&doc, layout.width, layout.height)?
        .encode_png()
        .map_err(|e| {
            Error::Render(RenderError::Draw {
                step: "encoding the PNG".into(),
                reason: e.to_string(),
            })
        })
}

/// An animated SVG of a move sequence played from `start` (SMIL `<animateTransform>`; viewers without SMIL show
/// the start). At most [`MAX_SVG_MOVES`] moves; an illegal move is an error naming it.
pub fn animated_svg(
    start: &Board,
    moves: &Moves,
    goal: &Board,
    style: &Style,
    animation: &Animation,
) -> Result<String> {
    check_goal(start, goal)?;
    animation.check()?;
    let layout = Layout::new(start, style)?;
    if moves.len() > MAX_SVG_MOVES {
        return Err(Error::Solve(SolveError::InvalidOption {
            option: "moves".into(),
            reason: format!(
                "an animated SVG plays at most {MAX_SVG_MOVES} moves; this sequence has {}",
                moves.len()
            ),
        }));
    }
    // Key frames of each tile that moves: (time, x, y).
    let mut keys: HashMap<Tile, Vec<(f64, f64, f64)>> = HashMap::new();
    let total = animation.duration(moves.len());
    moves.apply(start)?; // the error names the first illegal move
    let mut board = start.clone();
    for (i, &d) in moves.directions().iter().enumerate() {
        let from = board.blank();
        let tile = board
            .apply_direction(d)
            .ok_or_else(|| Error::Internal("a checked move left the board".into()))?;
        let to = from;
        let from_cell = board.blank();
        let t0 = (HOLD_START + i as f64 / animation.tps) / total;
        let t1 = (HOLD_START + (i + 1) as f64 / animation.tps) / total;
        let (x0, y0) = layout.cell_origin(from_cell);
        let (x1, y1) = layout.cell_origin(to);
        let k = keys.entry(tile).or_default();
        if k.last().is_none_or(|&(t, _, _)| t < t0) {
            k.push((t0, x0, y0));
        }
        k.push((t1, x1, y1));
    }
    let tiles = scene(start, &layout);
    let dur = num(total);
    Ok(document(&layout, style, goal, &tiles, |t, s| {
        let Some(k) = keys.get(&t) else { return };
        let &(_, x0, y0) = tiles
            .iter()
            .find(|e| e.0 == t)
            .expect("every tile is drawn");
        let &(_, xe, ye) = k.last().expect("a moving tile has key frames");
        let mut values = format!("{} {}", num(x0), num(y0));
        let mut times = String::from("0");
        for &(time, x, y) in k {
            let _ = write!(values, ";{} {}", num(x), num(y));
            let _ = write!(times, ";{:.6}", time);
        }
        let _ = write!(values, ";{} {}", num(xe), num(ye));
        times.push_str(";1");
        let _ = write!(
            s,
            "<animateTransform attributeName=\"transform\" type=\"translate\" dur=\"{dur}s\" \
             repeatCount=\"indefinite\" calcMode=\"linear\" values=\"{values}\" keyTimes=\"{times}\"/>"
        );
    }))
}

/// An animated GIF of a move sequence played from `start`, looping: a frame for every position and in-between
/// frames within moves ([`Animation::gif_frames`] in all). Refused, before any drawing, when frames × width ×
/// height exceeds [`MAX_GIF_PIXELS`] or frames × cells exceeds [`MAX_GIF_TILES`]; an illegal move is an error
/// naming it.
///
/// Frames after the first hold only the rectangle that changed (disposal: keep), and all share one palette that
/// holds the background, every tile fill and the text colour exactly. Frames are drawn and encoded one at a time.
pub fn gif(
    start: &Board,
    moves: &Moves,
    goal: &Board,
    style: &Style,
    animation: &Animation,
) -> Result<Vec<u8>> {
    gif_until(start, moves, goal, style, animation, &|| false)
}

/// [`gif()`], asking `stop` before each frame: once it says `true` the drawing ends with [`Error::Cancelled`] (a
/// time budget, or a cancel flag set when nobody waits for the picture any more).
pub fn gif_until(
    start: &Board,
    moves: &Moves,
    goal: &Board,
    style: &Style,
    animation: &Animation,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<u8>> {
    animation.check()?;
    let k = animation.gif_inbetweens();
    let tps = animation.tps;
    gif_at(
        start,
        moves,
        goal,
        style,
        k,
        &|i| HOLD_START + i as f64 / tps,
        stop,
    )
}

/// The most milliseconds a move time of [`gif_timed`] may be (a day).
pub const MAX_MOVE_TIME_MS: u64 = 86_400_000;

/// An animated GIF of a move sequence played at the times it was made, as a solve was recorded: `times_ms[i]` is
/// when single-tile move `i` was made, in milliseconds from the start of the solve (non-decreasing, at most
/// [`MAX_MOVE_TIME_MS`]). One frame per position: the start is held [`HOLD_START`] seconds before the first move's
/// time, each position then shows until the next move's time (at least 2/100 s, the shortest frame viewers keep),
/// and the end is held [`HOLD_END`] seconds. Limits and errors as [`gif()`]; a wrong number of times or a time out of
/// order or range is an error naming it.
pub fn gif_timed(
    start: &Board,
    moves: &Moves,
    goal: &Board,
    style: &Style,
    times_ms: &[u64],
) -> Result<Vec<u8>> {
    gif_timed_until(start, moves, goal, style, times_ms, &|| false)
}

/// [`gif_timed`], asking `stop` before each frame as [`gif_until`] does.
pub fn gif_timed_until(
    start: &Board,
    moves: &Moves,
    goal: &Board,
    style: &Style,
    times_ms: &[u64],
    stop: &dyn Fn() -> bool,
) -> Result<Vec<u8>> {
    let bad = |reason: String| {
        Error::Solve(SolveError::InvalidOption {
            option: "times_ms".into(),
            reason,
        })
    };
    if times_ms.len() != moves.len() {
        return Err(bad(format!(
            "{} times for {} single-tile moves: give one per move",
            times_ms.len(),
            moves.len()
        )));
    }
    for (i, w) in times_ms.windows(2).enumerate() {
        if w[1] < w[0] {
            return Err(bad(format!(
                "time {} ({} ms) is before time {} ({} ms): times must not decrease",
                i + 2,
                w[1],
                i + 1,
                w[0]
            )));
        }
    }
    if let Some(&t) = times_ms.last().filter(|&&t| t > MAX_MOVE_TIME_MS) {
        return Err(bad(format!(
            "{t} ms is out of range: 0 to {MAX_MOVE_TIME_MS}"
        )));
    }
    let at = |i: usize| {
        let t = times_ms.get(i).or(times_ms.last()).copied().unwrap_or(0);
        HOLD_START + t as f64 / 1000.0
    };
    gif_at(start, moves, goal, style, 0, &at, stop)
}

/// The GIF of [`gif()`] and [`gif_timed`]: `k` in-between frames per move; move `i` begins at `at(i)` seconds and
/// its tile arrives at `at(i + 1)` (`at(moves.len())` is when the end is reached).
fn gif_at(
    start: &Board,
    moves: &Moves,
    goal: &Board,
    style: &Style,
    k: u32,
    at: &dyn Fn(usize) -> f64,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<u8>> {
    check_goal(start, goal)?;
    let layout = Layout::new(start, style)?;
    let frames = moves.len() as u64 * (1 + u64::from(k)) + 1;
    let pixels = u64::from(layout.width) * u64::from(layout.height);
    if frames.saturating_mul(pixels) > MAX_GIF_PIXELS {
        return Err(Error::Render(RenderError::PictureTooLarge {
            reason: format!(
                "a GIF of {frames} frames of {} × {} pixels holds {} pixels, more than the limit of \
                 {MAX_GIF_PIXELS} (frames × width × height); use a smaller size, fewer in-between frames or \
                 fewer moves",
                layout.width,
                layout.height,
                frames.saturating_mul(pixels)
            ),
        }));
    }
    let cells = start.shape().cells() as u64;
    if frames.saturating_mul(cells) > MAX_GIF_TILES {
        return Err(Error::Render(RenderError::PictureTooLarge {
            reason: format!(
                "a GIF of {frames} frames of a board of {cells} cells draws {} cells, more than the limit of \
                 {MAX_GIF_TILES} (frames × cells); use fewer in-between frames or fewer moves",
                frames.saturating_mul(cells)
            ),
        }));
    }
    moves.apply(start)?; // the error names the first illegal move
    let (w, h) = (layout.width as u16, layout.height as u16);

    // One palette for every frame: the scheme's flat colours first, then the most frequent others of the start.
    let mut flat = vec![style.background(), style.text()];
    for c in style.fills(goal) {
        if !flat.contains(&c) {
            flat.push(c);
        }
    }
    let draw = |sc: &Scene| {
        if stop() {
            return Err(Error::Cancelled);
        }
        rasterize(
            &document(&layout, style, goal, sc, |_, _| {}),
            layout.width,
            layout.height,
        )
    };
    let first = draw(&scene(start, &layout))?;
    let mut counts: HashMap<Rgb, u64> = HashMap::new();
    for px in first.data().chunks_exact(4) {
        *counts.entry(Rgb(px[0], px[1], px[2])).or_default() += 1;
    }
    let mut others: Vec<(Rgb, u64)> = counts
        .into_iter()
        .filter(|(c, _)| !flat.contains(c))
        .collect();
    others.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then((a.0 .0, a.0 .1, a.0 .2).cmp(&(b.0 .0, b.0 .1, b.0 .2)))
    });
    let mut palette = flat;
    palette.truncate(256);
    let room = 256 - palette.len();
    palette.extend(others.into_iter().take(room).map(|(c, _)| c));
    let flat_palette: Vec<u8> = palette.iter().flat_map(|c| [c.0, c.1, c.2]).collect();

    let mut out = Vec::new();
    let mut writer = GifWriter {
        encoder: ::gif::Encoder::new(&mut out, w, h, &flat_palette).map_err(gif_error)?,
        quantizer: Quantizer::new(&palette),
        previous: None,
        shown: 0,
        width: w,
        height: h,
    };
    writer
        .encoder
        .set_repeat(::gif::Repeat::Infinite)
        .map_err(gif_error)?;
    let last = moves.is_empty();
    writer.frame(&first, at(0) + if last { HOLD_END } else { 0.0 })?;
    let mut board = start.clone();
    for (i, &d) in moves.directions().iter().enumerate() {
        let before = board.clone();
        board
            .apply_direction(d)
            .ok_or_else(|| Error::Internal("a checked move left the board".into()))?;
        // The tile that moved sits on the blank cell of `before`; it came from `board`'s blank cell.
        let tile = before.tiles()[board.blank()];
        let (fx, fy) = layout.cell_origin(board.blank());
        let (tx, ty) = layout.cell_origin(before.blank());
        let base = at(i);
        let step = (at(i + 1) - base) / f64::from(k + 1);
        for j in 1..=k {
            let f = f64::from(j) / f64::from(k + 1);
            let mut sc = scene(&before, &layout);
            for e in sc.iter_mut().filter(|e| e.0 == tile) {
                (e.1, e.2) = (fx + (tx - fx) * f, fy + (ty - fy) * f);
            }
            writer.frame(&draw(&sc)?, base + step * f64::from(j))?;
        }
        let hold = if i + 1 == moves.len() { HOLD_END } else { 0.0 };
        writer.frame(
            &draw(&scene(&board, &layout))?,
            base + step * f64::from(k + 1) + hold,
        )?;
    }
    drop(writer);
    Ok(out)
}

fn gif_error(e: ::gif::EncodingError) -> Error {
    Error::Render(RenderError::Draw {
        step: "encoding the GIF".into(),
        reason: e.to_string(),
    })
}

/// Writes frames into a GIF: maps them to the palette, keeps only what changed, times them.
struct GifWriter<'a, W: std::io::Write> {
    encoder: ::gif::Encoder<W>,
    quantizer: Quantizer<'a>,
    previous: Option<Vec<u8>>,
    /// Hundredths of a second written so far.
    shown: u64,
    width: u16,
    height: u16,
}

impl<W: std::io::Write> GifWriter<'_, W> {
    /// Adds a frame shown until `end` seconds after the start.
    fn frame(&mut self, pixmap: &resvg::tiny_skia::Pixmap, end: f64) -> Result<()> {
        let (w, h) = (self.width, self.height);
        let indices: Vec<u8> = pixmap
            .data()
            .chunks_exact(4)
            .map(|px| self.quantizer.index(Rgb(px[0], px[1], px[2])))
            .collect();
        let end_cs = (end * 100.0).round() as u64;
        let delay = end_cs
            .saturating_sub(self.shown)
            .clamp(2, u64::from(u16::MAX));
        self.shown += delay;
        let (left, top, fw, fh) = match &self.previous {
            None => (0, 0, w, h),
            Some(prev) => changed(prev, &indices, w, h),
        };
        let mut buffer = Vec::with_capacity(usize::from(fw) * usize::from(fh));
        for y in top..top + fh {
            let row = usize::from(y) * usize::from(w);
            buffer
                .extend_from_slice(&indices[row + usize::from(left)..row + usize::from(left + fw)]);
        }
        let frame = ::gif::Frame {
            delay: delay as u16,
            dispose: ::gif::DisposalMethod::Keep,
            left,
            top,
            width: fw,
            height: fh,
            buffer: std::borrow::Cow::Owned(buffer),
            ..::gif::Frame::default()
        };
        self.encoder.write_frame(&frame).map_err(gif_error)?;
        self.previous = Some(indices);
        Ok(())
    }
}

/// The smallest rectangle (left, top, width, height) holding every pixel that differs; 1 × 1 when none does.
fn changed(prev: &[u8], next: &[u8], w: u16, h: u16) -> (u16, u16, u16, u16) {
    let (w, h) = (usize::from(w), usize::from(h));
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        let (a, b) = (&prev[y * w..(y + 1) * w], &next[y * w..(y + 1) * w]);
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = a.iter().zip(b).rposition(|(p, q)| p != q).unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    if x0 >= x1 {
        return (0, 0, 1, 1);
    }
    (x0 as u16, y0 as u16, (x1 - x0) as u16, (y1 - y0) as u16)
}

/// Maps colours to the nearest palette entry (exact matches first), remembering answers.
struct Quantizer<'a> {
    palette: &'a [Rgb],
    memo: HashMap<Rgb, u8>,
    last: Option<(Rgb, u8)>,
}

impl<'a> Quantizer<'a> {
    fn new(palette: &'a [Rgb]) -> Quantizer<'a> {
        let memo = palette
            .iter()
            .enumerate()
            .rev()
            .map(|(i, &c)| (c, i as u8))
            .collect();
        Quantizer {
            palette,
            memo,
            last: None,
        }
    }

    fn index(&mut self, c: Rgb) -> u8 {
        if let Some((lc, li)) = self.last {
            if lc == c {
                return li;
            }
        }
        let palette = self.palette;
        let i = *self.memo.entry(c).or_insert_with(|| {
            let d = |p: &Rgb| {
                let dr = i32::from(p.0) - i32::from(c.0);
                let dg = i32::from(p.1) - i32::from(c.1);
                let db = i32::from(p.2) - i32::from(c.2);
                dr * dr + dg * dg + db * db
            };
            palette
                .iter()
                .enumerate()
                .min_by_key(|(_, p)| d(p))
                .map_or(0, |(i, _)| i as u8)
        });
        self.last = Some((c, i));
        i
    }
}
