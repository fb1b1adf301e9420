//! The options of the commands that build or load tables (`--cache-dir`, `--no-cache`, `--max-memory`, `--quiet`;
//! `--pdb-index` for those that search with pattern databases), declared by each such command and nowhere else,
//! and also taken before the command name (`slide --cache-dir DIR solve …`), where they are handed to the command.

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory};

/// Where tables are cached, the memory budget for building them, and whether their progress shows: the options of
/// every command that builds or loads tables.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TableArgs {
    /// Where table files are cached (default: $SLIDE_CACHE_DIR, else the platform cache directory, such as
    /// ~/.cache/slide).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Do not cache tables on disk: build them in memory.
    #[arg(long)]
    pub no_cache: bool,
    /// Refuse table and pattern-database builds that would need more memory than this, in MB (default: the
    /// machine's physical memory; 0 refuses every build).
    #[arg(long, value_name = "MB", allow_hyphen_values = true, value_parser = crate::numbers::max_memory)]
    pub max_memory: Option<u64>,
    /// No progress bars or warnings.
    #[arg(long, short)]
    pub quiet: bool,
}

/// How pattern databases number their placements: an option of the commands that search with them.
#[derive(clap::Args, Debug, Clone)]
pub struct PdbIndex {
    /// How pattern databases number their placements: auto (the sparse index where a table takes at most 128 MiB,
    /// 2^28 entries of 4 bits: 1.9 to 2.9 times the dense table's memory, about 0.8 times the search time), dense (every table
    /// by rank, the smallest), sparse (every table that has a sparse form, within --max-memory: the
    /// 24-puzzle's zcdefault takes 9.3 GB instead of 4.85 GB). docs/design/pattern-databases.md, "The sparse index".
    #[arg(long, value_name = "INDEX", default_value = "auto", value_parser = crate::numbers::pdb_index)]
    pub pdb_index: slide::engine::IndexChoice,
}

/// A command's own arguments, then `--pdb-index` and the table options: the commands that search with pattern
/// databases.
#[derive(clap::Args, Debug, Clone)]
pub struct Searching<A: clap::Args> {
    /// The command's own arguments.
    #[command(flatten)]
    pub args: A,
    /// `--pdb-index`.
    #[command(flatten)]
    pub index: PdbIndex,
    /// The table options.
    #[command(flatten)]
    pub tables: TableArgs,
}

/// The options that may be written before a command name, in the order of the help: (clap's id, the flag).
const LEADING: [(&str, &str); 5] = [
    ("pdb_index", "--pdb-index"),
    ("cache_dir", "--cache-dir"),
    ("no_cache", "--no-cache"),
    ("max_memory", "--max-memory"),
    ("quiet", "--quiet"),
];

/// Whether the argument `id` of `matches` was given on the command line (not a default).
fn given(matches: &ArgMatches, id: &str) -> bool {
    matches.ids().any(|i| i.as_str() == id)
        && matches.value_source(id) == Some(ValueSource::CommandLine)
}

/// Hands the options written before the command name (`slide --no-cache stats 2x6`) to the command, where those
/// written after it win (`slide --max-memory 0 solve --max-memory 100 …` allows 100 MB); an option the command
/// does not take is a usage error naming the commands that do.
pub(crate) fn take_leading(cli: &mut crate::Cli, matches: &ArgMatches) -> Result<(), clap::Error> {
    let leading: Vec<(&str, &str)> = LEADING
        .into_iter()
        .filter(|(id, _)| given(matches, id))
        .collect();
    let Some((name, sub)) = matches.subcommand() else {
        return Ok(());
    };
    let (top, top_index) = (&cli.tables, &cli.index);
    let (tables, mut index) = match cli.command.tables_mut() {
        Some(t) => t,
        None => match leading.first() {
            Some((id, flag)) => return Err(refused(name, id, flag)),
            None => return Ok(()),
        },
    };
    for (id, flag) in leading {
        match id {
            "cache_dir" => tables.cache_dir = tables.cache_dir.take().or(top.cache_dir.clone()),
            "no_cache" => tables.no_cache = true,
            "max_memory" => tables.max_memory = tables.max_memory.or(top.max_memory),
            "quiet" => tables.quiet = true,
            _ => match &mut index {
                Some(i) if !given(sub, id) => **i = top_index.pdb_index,
                Some(_) => {}
                None => return Err(refused(name, id, flag)),
            },
        }
    }
    Ok(())
}

/// The usage error of an option written before a command that does not take it.
fn refused(name: &str, id: &str, flag: &str) -> clap::Error {
    let mut cli = crate::Cli::command();
    cli.build();
    let takers: Vec<&str> = cli
        .get_subcommands()
        .filter(|c| c.get_arguments().any(|a| a.get_id() == id))
        .map(|c| c.get_name())
        .collect();
    let message = format!(
        "'slide {name}' does not take '{flag}': only {} do",
        takers.join(", ")
    );
    let command = cli
        .find_subcommand_mut(name)
        .expect("the command just parsed");
    command.error(clap::error::ErrorKind::UnknownArgument, message)
}
