//! `slide bench`: solve a benchmark file of instances with known optimal lengths (Korf's 100, Korf & Felner's 50)
//! and report per instance and in total: length, agreement with the published optimum, nodes, time. With
//! `--metric mtm` the instances are solved in MTM: the published (STM) lengths are then upper bounds.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use slide::benchmarks::{self, Instance};
use slide::engine::SolverExt;
use slide::{Board, Solver};

use crate::solve::SearchArgs;
use crate::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// `korf100` (Korf's 100 15-puzzles) or `korf24` (Korf & Felner's 50 24-puzzles), both built into the binary,
    /// or a file of lines `id optimal nodes t0 t1 …` (square boards, row-major, blank-first goal).
    pub set: String,
    /// Only these instance ids (comma-separated, ranges allowed: 1-10,40).
    #[arg(long)]
    pub only: Option<String>,
    /// Also draw nodes and seconds per instance as an SVG chart into FILE.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
    /// Search only the IDA* iterations whose thresholds are at most each instance's known optimum minus K, then
    /// stop (a proven lower bound above them, `>=L`): the nodes to rule out every shorter solution, free of the
    /// luck of where the last iteration meets a goal. K = 1 measures a heuristic on the iterations below the
    /// optimum; larger K, a quicker look at the first iterations.
    #[arg(long, value_name = "K")]
    pub below_optimum: Option<u32>,
    /// Search flags, as for `slide solve` (heuristic, partition, limits, threads).
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The instances of `set`: an embedded set by name, else a file.
fn load(set: &str) -> Result<Vec<Instance>, String> {
    if let Some(v) = benchmarks::named(set) {
        return Ok(v);
    }
    let text = std::fs::read_to_string(set).map_err(|e| {
        format!("cannot read {set}: {e} (the embedded sets are korf100 and korf24)")
    })?;
    benchmarks::parse(&text).map_err(|e| format!("{set}: {e}"))
}

fn parse_only(spec: &str) -> Result<Vec<(u32, u32)>, String> {
    spec.split(',')
        .map(|part| {
            let mut it = part.trim().splitn(2, '-');
            let a: u32 = it
                .next()
                .unwrap_or("")
                .trim()
                .parse()
                .map_err(|_| format!("--only: bad id {part:?}"))?;
            let b: u32 = match it.next() {
                Some(x) => x
                    .trim()
                    .parse()
                    .map_err(|_| format!("--only: bad range {part:?}"))?,
                None => a,
            };
            Ok((a, b))
        })
        .collect()
}

pub fn run(solver: &Solver, args: &BenchArgs) -> anyhow::Result<u8> {
    let mut instances = match load(&args.set) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    if let Some(only) = &args.only {
        let ranges = match parse_only(only) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("slide: {e}");
                return Ok(EXIT_USAGE);
            }
        };
        instances.retain(|i| ranges.iter().any(|&(a, b)| (a..=b).contains(&i.id)));
    }
    let Some(first) = instances.first() else {
        match &args.only {
            Some(only) => eprintln!(
                "slide: --only {only}: no instance of {} has these ids",
                args.set
            ),
            None => eprintln!("slide: no instances in {}", args.set),
        }
        return Ok(EXIT_USAGE);
    };
    let opts = match args.search.options(Arc::new(AtomicBool::new(false))) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("slide: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    if args.below_optimum.is_some() && opts.metric == slide::Metric::Mtm {
        eprintln!("slide: --below-optimum counts from the published STM optimum: it does not go with --metric mtm");
        return Ok(EXIT_USAGE);
    }
    let goal = Board::goal_blank_first(first.board.shape());
    // Load or build the pattern databases first, so that their one-time cost is reported apart.
    let t0 = Instant::now();
    let frame = slide::engine::frame::Frame::new(&goal);
    // As the solver takes it: the 5 × 5 default is the pair `zbdefault|zbalt` within the memory budget.
    let spec = match &opts.heuristic {
        slide::HeuristicChoice::Pdb(s) => Some(s.clone()),
        slide::HeuristicChoice::Auto => Some(slide::PartitionSpec::Default),
        _ => None,
    }
    .map(|s| solver.partition_for(&frame, &s));
    let mtm = opts.metric == slide::Metric::Mtm;
    let mut pdb_bytes = 0;
    if mtm && goal.shape().cells() > slide::engine::table::MAX_TABLE_CELLS {
        // Above 12 cells MTM is searched with the label tables (the heuristic flags are refused in MTM).
        pdb_bytes = solver.label_tables(&goal)?.bytes();
    } else if mtm {
        // The complete MTM table answers: load or build it now.
        solver.distance_in(&first.board, &goal, slide::Metric::Mtm)?;
    } else if let Some(spec) = &spec {
        let sets = solver.pdb_sets(&goal, &frame, spec)?;
        // Partitions that share a pattern share its database: count each once.
        let mut seen = std::collections::HashSet::new();
        pdb_bytes = sets
            .iter()
            .flat_map(|set| &set.pdbs)
            .filter(|p| seen.insert(std::sync::Arc::as_ptr(p)))
            .map(|p| p.bytes())
            .sum::<usize>();
    }
    if !mtm {
        // IDA*'s move-pruning automaton is compiled once per process (about 7 ms here): a one-time cost, like
        // the databases, kept out of the search time rather than paid by the first search.
        let _ = slide::engine::pruning::MovePruner::global();
    }
    let prep = t0.elapsed().as_secs_f64();
    let threads = args.search.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    // Fewer instances than threads: share each search among the threads instead.
    let opts = slide::SolveOptions {
        parallel: instances.len() < pool.current_num_threads(),
        ..opts
    };
    let start = Instant::now();
    let cpu0 = cpu_seconds();
    let results: Vec<(u32, u32, Result<slide::Solution, slide::Error>, f64)> = pool.install(|| {
        instances
            .par_iter()
            .with_max_len(1)
            .map(|inst| {
                let t = Instant::now();
                let r = match args.below_optimum {
                    Some(k) => {
                        let o = slide::SolveOptions {
                            max_depth: Some(u64::from(inst.optimal.saturating_sub(k))),
                            ..opts.clone()
                        };
                        solver.solve_with(&inst.board, &goal, &o)
                    }
                    None => solver.solve_with(&inst.board, &goal, &opts),
                };
                (inst.id, inst.optimal, r, t.elapsed().as_secs_f64())
            })
            .collect()
    });
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu0;
    let mut out = std::io::stdout().lock();
    // Alternatives ('|'): a last column names the one each board's trial chose (the one it was running when a limit
    // stopped the trial itself: the solver's plan).
    let either = !mtm && spec.as_ref().is_some_and(|s| s.alternatives().len() > 1);
    writeln!(
        out,
        "{:>4} {:>5} {:>5} {:>3} {:>4} {:>14} {:>10} {:>12}{}",
        "id",
        "moves",
        if mtm { "stm" } else { "known" },
        "ok",
        "h0",
        "nodes",
        "seconds",
        "nodes/s",
        if either { "  partition" } else { "" }
    )?;
    let (mut nodes, mut ok, mut bad, mut unproven, mut h0) = (0u64, 0, 0, 0, 0u64);
    for (id, known, r, secs) in &results {
        match r {
            Ok(s) => {
                nodes += s.nodes();
                h0 += s.estimate();
                let len = s.length().map(|l| l as i64);
                // The published lengths count single-tile moves: in MTM the optimum is at most that.
                let good = s.is_optimal()
                    && match len {
                        Some(l) if mtm => l <= *known as i64,
                        l => l == Some(*known as i64),
                    };
                let replay_ok = s.moves().is_some_and(|m| replay(&instances, *id, m, &goal));
                if !s.is_optimal() {
                    unproven += 1;
                } else if good && replay_ok {
                    ok += 1;
                } else {
                    bad += 1;
                }
                let shown = match len {
                    Some(l) if s.is_optimal() => l.to_string(),
                    Some(l) => format!("~{l}"),
                    None => format!(">={}", s.lower_bound()),
                };
                let verdict = if !s.is_optimal() {
                    "?"
                } else if good && replay_ok {
                    "yes"
                } else {
                    "NO"
                };
                let chosen = match s.plan() {
                    slide::Plan::Search(slide::HeuristicChoice::Pdb(p)) if either => {
                        format!("  {p}")
                    }
                    _ => String::new(),
                };
                writeln!(
                    out,
                    "{id:>4} {shown:>5} {known:>5} {verdict:>3} {:>4} {:>14} {secs:>10.3} {:>12.0}{chosen}",
                    s.estimate(),
                    s.nodes(),
                    s.nodes() as f64 / secs.max(1e-9)
                )?;
            }
            Err(e) => {
                bad += 1;
                writeln!(out, "{id:>4} error: {}", crate::explain::explain(e))?;
            }
        }
    }
    let n = results.len();
    if mtm {
        writeln!(out, "instances: {n}, MTM-optimal, replayed and at most the published STM length: {ok}, not proven: {unproven}, wrong: {bad}")?;
    } else {
        writeln!(out, "instances: {n}, optimal and equal to the published length: {ok}, not proven: {unproven}, wrong: {bad}")?;
    }
    writeln!(
        out,
        "{}: {:.2} s to load or build, {:.1} MB; search: {wall:.3} s wall, {cpu:.3} s CPU on {} threads",
        if mtm { "MTM tables" } else { "pattern databases" },
        prep,
        pdb_bytes as f64 / 1e6,
        pool.current_num_threads()
    )?;
    writeln!(
        out,
        "nodes: {nodes} total, {:.0} per instance, {:.1} M/s per CPU-second; mean initial estimate {:.3}",
        nodes as f64 / n as f64,
        nodes as f64 / cpu.max(wall).max(1e-9) / 1e6,
        h0 as f64 / n.max(1) as f64
    )?;
    if let Some(path) = &args.plot {
        let points: Vec<slide::render::plot::BenchPoint> = results
            .iter()
            .filter_map(|(id, _, r, secs)| {
                r.as_ref().ok().map(|s| slide::render::plot::BenchPoint {
                    id: *id,
                    nodes: s.nodes(),
                    seconds: *secs,
                })
            })
            .collect();
        let title = format!("slide bench {}: nodes and seconds per instance", args.set);
        match slide::render::plot::bench_chart(&title, &points) {
            Ok(chart) => {
                if let Err(e) = std::fs::write(path, chart) {
                    eprintln!("slide: cannot write {}: {e}", path.display());
                    return Ok(EXIT_BAD_INPUT);
                }
            }
            Err(e) => {
                eprintln!("slide: --plot: {e}");
                return Ok(EXIT_BAD_INPUT);
            }
        }
    }
    Ok(if bad > 0 { EXIT_BAD_INPUT } else { EXIT_OK })
}

fn replay(instances: &[Instance], id: u32, moves: &[u32], goal: &Board) -> bool {
    let Some(inst) = instances.iter().find(|i| i.id == id) else {
        return false;
    };
    let mut b = inst.board.clone();
    moves.iter().all(|&t| b.apply(t).is_ok()) && &b == goal
}

/// CPU time of this process (user + system), from /proc where available.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses and may contain spaces).
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}
