//! The command line: every subcommand, argument and help text, as clap types.
//!
//! Only this module knows the shape of the command line; `commands` turns a
//! parsed [`Cli`] into journal calls. Help texts are written for someone who
//! has never seen Tabletape: each argument says what it is and gives an example.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tabletape_store::Location;

const LONG_ABOUT: &str = "\
Tabletape records every action of a real tabletop game, checks it against the
rules, rolls the dice when asked, and keeps it as an immutable, hash-chained
event. Games can then be replayed step by step, forked at any point, verified
and told as a story.

Quick start:
  tabletape kinds                                    # the rule sets this build knows
  tabletape new lostworlds --player Nowa --player Grimbold
  tabletape legal <game>                             # what can be done now, as JSON
  tabletape act <game> '<one line printed by legal>' # record an action
  tabletape replay <game>                            # watch the game so far

On a local store you are the game's owner and every read shows everything.
Give a read `--as SEAT` (a seat number or a player's name) to see only what
that seat may see, or `--as public` for what anyone may see: no other
seat's secrets, no seed, no event salt, until the game is over.

While `tabletape serve` runs on a store, the commands on that store go
through the server, with the same answers (`restore` excepted).";

/// Record, replay, fork and narrate tabletop games.
#[derive(Debug, Parser)]
#[command(name = "tabletape", version, about = "Record, replay, fork and narrate tabletop games.", long_about = LONG_ABOUT)]
pub struct Cli {
    /// Where every game is kept: a directory for the embedded store (created if
    /// missing), or a PostgreSQL database, `postgres://user@host/db`, that many
    /// `serve` processes may share (its schema is created and migrated by tabletape).
    #[arg(
        long,
        global = true,
        value_name = "PATH|URL",
        env = "TABLETAPE_STORE",
        default_value = "./tabletape-data"
    )]
    pub store: Location,

    /// Print machine-readable JSON on stdout instead of friendly text.
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the rule sets (kinds) this build knows, with their options and content packs.
    Kinds,
    /// Start a new game of KIND: seats the players and records the game's creation.
    #[command(
        after_help = "Example:\n  tabletape new lostworlds --player Nowa --player Grimbold --seed 7"
    )]
    New(NewArgs),
    /// Show every action open now, one JSON line each, ready to paste into `act`.
    Legal(LegalArgs),
    /// Record an action (checked against the rules first; a rejected action is never stored).
    #[command(
        after_help = "Examples:\n  tabletape act g-3f9a1c2e '{\"type\":\"choose\",\"page\":36}' --as Nowa\n  \
                            tabletape act g-3f9a1c2e --file actions.jsonl"
    )]
    Act(ActArgs),
    /// Play at the terminal: the state, the numbered actions open now, and a prompt that records
    /// the line you pick (asking for what it needs), until the game ends or you quit.
    #[command(
        after_help = "At the prompt: a line number records that action; u takes back the last entry (after a\n\
                      y/N), r shows the table again, q (or end of input) quits. With --as SEAT you play as\n\
                      that seat and see only what it may see."
    )]
    Play(PlayArgs),
    /// List every game in the store.
    Games,
    /// List a branch's events: seq, time, actor, type and short hash.
    Log(LogArgs),
    /// Show the state of a game, now or at an earlier seq.
    State(StateArgs),
    /// Step through a game event by event: narration and what changed.
    Replay(ReplayArgs),
    /// Start a new branch that shares the history up to a seq ("what if?").
    #[command(
        after_help = "The owner's fork inherits the parent's dice unless `--reseed` says otherwise. A fork made\n\
                      `--as SEAT` without `--reseed` draws its dice from fresh, secret randomness, so no seat can\n\
                      play a fork to learn what the parent's dice and decks hold; only the owner sees that seed."
    )]
    Fork(ForkArgs),
    /// Take back the last event of the game's current line: play goes on from a fork just
    /// before it, and the old line stays in the branch tree, marked taken back.
    #[command(
        after_help = "Nothing is deleted: events are immutable. The fork keeps the old line's dice, so taking\n\
                      back never re-rolls. Commands without --branch follow the current line."
    )]
    Undo(UndoArgs),
    /// Draw a game's branch tree with each branch's fork point and head.
    Branches(BranchesArgs),
    /// Tell a game as a story in Markdown, plain text, HTML or JSON.
    #[command(
        after_help = "With --variations, every other line of the game (its forks, a line taken back) is told\n\
                      beside the moment it parts from this one, as a chess book tells variations; the HTML\n\
                      story folds each away for the reader to open."
    )]
    Narrate(NarrateArgs),
    /// Write a note on a moment of a game; with --title it is a bookmark. It is kept in the
    /// log (attributed, hash-chained), told beside that moment, and changes nothing in play.
    #[command(
        after_help = "Examples:\n  tabletape note g-3f9a1c2e --at 7 'Nowa should have jumped back here'\n  \
                            tabletape note g-3f9a1c2e --at 12 --title 'the turning point'\n\n\
                      A --private note is read only by its writer and the owner until the game is over."
    )]
    Note(NoteArgs),
    /// Add a seat's share to the dice: a random value the seat keeps, committed to first and
    /// revealed once every seat has committed. The dice are then keyed by every share and the
    /// owner's seed, so no one, the owner included, chose them.
    #[command(
        after_help = "Run it twice for each seat, before the first action:\n  \
                            tabletape contribute g-3f9a1c2e --as Ada          (commits; prints the value to keep)\n  \
                            tabletape contribute g-3f9a1c2e --as Ada --reveal VALUE   (once every seat has committed)\n\n\
                      A game that began before every seat added its share is dealt by the owner's seed alone,\n\
                      and says so. Once it is over, anyone can check every roll from its export:\n  \
                            tabletape verify --public g-3f9a1c2e.jsonl"
    )]
    Contribute(ContributeArgs),
    /// Give a branch a title and a description at the table (its name in the log stays).
    #[command(
        after_help = "Example:\n  tabletape rename g-3f9a1c2e owner-at-7 'Nowa jumps back' --description 'What if she had?'"
    )]
    Rename(RenameArgs),
    /// Compare two lines of a game: where they part, each one's story from there and how it
    /// came out, and how their states differ at their heads.
    #[command(after_help = "Example:\n  tabletape compare g-3f9a1c2e main owner-at-7")]
    Compare(CompareArgs),
    /// Write a game's events as JSON Lines (one event per line, envelope included).
    #[command(
        after_help = "A branch with no events of its own is not exported; its forks re-import as forks of its parent.\n\n\
                      An export holds every secret (hands, seeds, salts), so `--as SEAT` is refused while any\n\
                      exported branch is still in play; once its game is over, anyone may export it."
    )]
    Export(ExportArgs),
    /// Recreate a game from a JSON Lines export (same id, same hashes, new tokens).
    Import(ImportArgs),
    /// Copy every game of the store, with its tokens, to one JSON Lines file.
    #[command(
        after_help = "Safe while `serve` runs on the store: it is then taken through the server (`GET /backup`\n\
                      with the operator token `serve` leaves in the store) or, with the store free, read directly.\n\
                      `restore` brings it back."
    )]
    Backup(BackupArgs),
    /// Bring back every game of a backup that the store lacks, keeping every token.
    #[command(
        after_help = "The recovery from a damaged store: move the damaged directory aside (keep it), then\n\
                      `tabletape --store NEW_PATH restore BACKUP.jsonl` and serve NEW_PATH. Games the store has\n\
                      already are skipped and named; each game is restored whole or not at all. A restore does\n\
                      not go through a running `serve`: stop it first."
    )]
    Restore(RestoreArgs),
    /// Re-check hash chains and strictly replay every event; exit 1 on any problem.
    #[command(
        after_help = "With `--as SEAT` a game still in play is checked as that seat can: every part it may see\n\
                      against its commitment, every hash and every link. Re-deciding the actions needs the\n\
                      hidden parts, so that full check is the owner's (and anyone's once the game is over)."
    )]
    Verify(VerifyArgs),
    /// Move every game, with its tokens and hashes, from one store to another.
    #[command(
        after_help = "From a directory to a database, a database to a directory, or between two of either:\n\
                      `tabletape migrate --from ./tabletape-data --to postgres://tabletape@db/tabletape`.\n\
                      Every event keeps its hash and every token works on the new store; games the\n\
                      destination has already are skipped and named. Stop `serve` on a directory first."
    )]
    Migrate(MigrateArgs),
    /// Serve the HTTP API over this store.
    #[command(
        after_help = "While it runs, `tabletape` commands on the same --store go through it: `serve` leaves a note,\n\
                      `serve.json` in the store (readable by you alone), with its pid, the address it listens on and\n\
                      a token drawn afresh at each start that owns every game and is the store's admin. Ctrl-C\n\
                      (or SIGTERM) stops it and removes the note; the token is never logged nor kept in the store."
    )]
    Serve(ServeArgs),
    /// Measure this machine: durable appends (beside a raw write+fdatasync loop, and SQLite when
    /// built with `--features sqlite-peer`), folds, forks, state lookups, import, memory.
    #[command(
        after_help = "On temporary sled stores, unless --store names a PostgreSQL database: then the same measures\n\
                      run on it, in schemas of their own (dropped afterwards; the role needs CREATE on the\n\
                      database), with appends through one and then two `serve` processes."
    )]
    Bench(BenchArgs),
    /// Work with content packs: print a kind's bundled pack, write a starting point for your
    /// own box, or check a pack before a game uses it.
    #[command(
        subcommand,
        after_help = "A pack given to `new --pack` is laid over the kind's bundled pack: an entry \
                      with the id (or name) of a bundled one changes the fields it gives, a new one \
                      is added, and the rest stays as bundled. `\"whole\": true` reads a pack alone; \
                      `\"whole\": [\"board\", \"locations\"]` takes just those as the file gives them.\n\n\
                      Examples:\n  tabletape pack show ludovia > ludovia-box.json\n  \
                      tabletape pack new legless > our-box.json\n  \
                      tabletape pack check our-box.json --kind legless"
    )]
    Pack(PackCommand),
    /// Print a shell completion script for bash, zsh, fish or PowerShell.
    #[command(
        after_help = "Load it for this shell, or install it where your shell looks for completions:\n  \
                      source <(tabletape completions bash)\n  \
                      tabletape completions zsh > ~/.zfunc/_tabletape\n  \
                      tabletape completions fish > ~/.config/fish/completions/tabletape.fish"
    )]
    Completions(CompletionsArgs),
    /// Print tabletape's manual page (roff), every subcommand included.
    #[command(
        after_help = "Read it with `tabletape man | man -l -`, or install it:\n  \
                            tabletape man > /usr/local/share/man/man1/tabletape.1"
    )]
    Man,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiceArg {
    /// Tabletape rolls every die and draws every card.
    Digital,
    /// The table rolls and draws; each action carries the outcome (`"roll": 5`).
    Physical,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Md,
    Txt,
    Html,
    Json,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The rule set to play (`tabletape kinds` lists them), e.g. `lostworlds`.
    pub kind: String,
    /// A player's name, once per seat, in seat order (the first is seat 0).
    #[arg(long = "player", value_name = "NAME", required = true)]
    pub players: Vec<String>,
    /// Seed for every die and shuffle (random if left out; printed either way).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Who rolls the dice: Tabletape (`digital`) or the table (`physical`).
    #[arg(long, value_enum, default_value = "digital")]
    pub dice: DiceArg,
    /// A kind option as KEY=VALUE, repeatable; VALUE is read as JSON if it parses, else as text
    /// (e.g. `--option books=record --option rounds=7`).
    #[arg(long = "option", value_name = "K=V")]
    pub options: Vec<String>,
    /// Your own content pack (JSON file), laid over the kind's bundled one (see `tabletape pack`).
    #[arg(long, value_name = "FILE")]
    pub pack: Option<PathBuf>,
    /// Let anyone read the game over the HTTP API without a token.
    #[arg(long)]
    pub public: bool,
    /// The table's name for the game (one line, up to 120 characters), shown in listings and
    /// at the head of its story.
    #[arg(long, value_name = "TITLE")]
    pub title: Option<String>,
    /// The game's id, chosen (`duel`: ASCII letters, digits, `-`, `_`, `.`; refused when
    /// taken) instead of a random one (`g-3f9a1c2e`).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
}

#[derive(Debug, Args)]
pub struct LegalArgs {
    /// The game id printed by `new` (e.g. `g-3f9a1c2e`).
    pub game: String,
    /// Only the actions of this seat: a seat number (from 0) or a player's name (`public` has
    /// none). Left out, every seat's actions, as the owner sees them.
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: Option<String>,
    /// The branch to look at.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
}

#[derive(Debug, Args)]
pub struct ActArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// The action as JSON, e.g. one line printed by `tabletape legal`, or that line's number
    /// (`tabletape act GAME 3`: at a terminal you are asked for what it needs).
    #[arg(
        value_name = "JSON",
        required_unless_present = "file",
        conflicts_with = "file"
    )]
    pub action: Option<String>,
    /// Record many actions from a file, one JSON action per line (`-` reads stdin). A line may
    /// also be `{"as": SEAT, "action": {...}}` to act for a particular seat.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Act as this seat: a seat number (from 0) or a player's name; the narration printed is then
    /// what that seat may know. Left out, the owner acts for the table and reads everything.
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: Option<String>,
    /// Only record if the branch's last seq is still SEQ (guards against a concurrent writer).
    #[arg(long, value_name = "SEQ")]
    pub expect: Option<u64>,
    /// The branch to record on.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
    /// An idempotency key: retrying with the same key returns the first answer and stores nothing twice.
    #[arg(long, value_name = "IDEMPOTENCY_KEY", conflicts_with = "file")]
    pub key: Option<String>,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// Play as this seat: a seat number (from 0) or a player's name. Left out, the owner plays
    /// for the whole table and sees everything.
    #[arg(long = "as", value_name = "SEAT")]
    pub seat: Option<String>,
    /// The branch to play on.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
}

#[derive(Debug, Args)]
pub struct BranchesArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// List the branches as this seat may know them (a seat number, a player's name, or
    /// `public`): whether a fork was reseeded, but not its seed while the game is in play.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// The branch to list.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
    /// List the events as this seat may see them (a seat number, a player's name, or `public`):
    /// parts it may not see are left out, with their seals so it can still check the hash chain.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct StateArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// Show the state right after this seq instead of now.
    #[arg(long, value_name = "SEQ")]
    pub at: Option<u64>,
    /// The branch to look at.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
    /// Show only what this seat may see: a seat number (from 0), a player's name, or `public`.
    /// Left out, the owner's view: everything.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// Stop after this seq.
    #[arg(long, value_name = "SEQ")]
    pub to: Option<u64>,
    /// The branch to replay.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
    /// Replay as this seat saw it: a seat number (from 0), a player's name, or `public`.
    /// Left out, the owner's view: everything.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct ForkArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// The new branch keeps the history up to and including this seq.
    #[arg(long, value_name = "SEQ")]
    pub at: u64,
    /// The branch to fork from (default: the game's current line).
    #[arg(long, value_name = "B")]
    pub from: Option<String>,
    /// The new branch's name (default: who forked and where, `owner-at-7`, `ada-at-12`).
    #[arg(long, value_name = "B")]
    pub name: Option<String>,
    /// Draw every die after the fork from this seed instead of continuing the parent's dice.
    #[arg(long, value_name = "S")]
    pub reseed: Option<u64>,
    /// Fork as this seat (a seat number or a player's name): without `--reseed`, the fork's dice
    /// come from fresh, secret randomness. Left out, the owner forks.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct NarrateArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// The branch to tell.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
    /// md (Markdown), txt (plain text), html (one self-contained page) or json.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
    /// The story's title, as the table names it now (default: the title given at `new`, else
    /// one the game gives itself, such as "The Legend of Sir Kettle and Moss").
    #[arg(long, value_name = "TITLE")]
    pub title: Option<String>,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Tell the story as this seat knows it: a seat number (from 0), a player's name, or
    /// `public`. Left out, the owner's story: everything.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
    /// Tell every other line of the game as a variation beside the moment it parts.
    #[arg(long)]
    pub variations: bool,
    /// Tell each chapter's record after its prose (page and picture numbers, squares, dice
    /// arithmetic, tallies). Left out, md and txt tell the story alone; html folds the record
    /// under each chapter and json always carries it.
    #[arg(long)]
    pub record: bool,
}

#[derive(Debug, Args)]
pub struct NoteArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// What the note says (may be left out for a bookmark with a --title).
    pub text: Option<String>,
    /// The seq of the moment the note is about.
    #[arg(long, value_name = "SEQ")]
    pub at: u64,
    /// A short title: the note becomes a bookmark ("the turning point").
    #[arg(long, value_name = "TITLE")]
    pub title: Option<String>,
    /// The branch to write on.
    /// (Default: the game's current line, `main` until a take-back moves it.)
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
    /// Keep the note from the other seats until the game is over.
    #[arg(long)]
    pub private: bool,
    /// Write as this seat (a seat number or a player's name). Left out, the owner writes.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct RenameArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// The branch to name (as the log knows it: `main`, `ada-at-12`).
    pub branch: String,
    /// What the table calls it ("Nowa jumps back").
    pub title: String,
    /// What the line is about.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// Name it as this seat. Left out, the owner names it.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// One line (a branch name).
    pub a: String,
    /// The other line.
    pub b: String,
    /// Compare as this seat may know the two lines (a seat number, a player's name, or `public`).
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// Export only this branch's linear history (default: every branch).
    #[arg(long, value_name = "B")]
    pub branch: Option<String>,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Export as this seat (a seat number, a player's name, or `public`): refused while any
    /// exported branch is still in play, since the export holds every secret.
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: Option<String>,
    /// What to write: the game's events as JSON Lines (`jsonl`, what `import` reads back), or a
    /// finished game as one play for a play-logging app: BG Stats' export file (`bgstats`, JSON)
    /// or a BoardGameGeek play record (`bgg`, XML).
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: ExportFormat,
    /// BoardGameGeek's id for the box, written into a `bgstats` or `bgg` play (e.g. the number
    /// in the game's boardgamegeek.com address); 0 when left out.
    #[arg(long, value_name = "ID", default_value_t = 0)]
    pub bgg_id: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Jsonl,
    Bgstats,
    Bgg,
}

#[derive(Debug, Args)]
pub struct UndoArgs {
    /// The game id printed by `new`.
    pub game: String,
}

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// Write the backup here (standard output when absent).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// A backup written by `backup` (`-` reads stdin).
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A JSON Lines file written by `export` (`-` reads stdin).
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct ContributeArgs {
    /// The game id printed by `new`.
    pub game: String,
    /// The seat whose share this is (a seat number or a player's name).
    #[arg(long = "as", value_name = "SEAT")]
    pub viewer: String,
    /// Commit to this value (64 hex digits) rather than a fresh random one.
    #[arg(long, value_name = "HEX", conflicts_with = "reveal")]
    pub value: Option<String>,
    /// Reveal the value this seat committed to, once every seat has committed.
    #[arg(long, value_name = "HEX")]
    pub reveal: Option<String>,
    /// The branch to add to (default: the game's current line).
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Check only this game (default: every game in the store).
    pub game: Option<String>,
    /// Check a finished game's export, with no store and no token: every hash and link, the
    /// seed against the commitment made at its creation, each seat's share against its own
    /// commitment, and every roll and draw decided again from them.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "viewer"])]
    pub public: Option<PathBuf>,
    /// Check the game as this seat can (a seat number, a player's name, or `public`; needs GAME):
    /// the chain it can see, while the game is in play.
    #[arg(long = "as", value_name = "SEAT", requires = "game")]
    pub viewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The store to move the games from (`--store` when absent).
    #[arg(long, value_name = "PATH|URL")]
    pub from: Option<Location>,
    /// The store to move them to: a directory or `postgres://user@host/db`.
    #[arg(long, value_name = "PATH|URL")]
    pub to: Location,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (`0.0.0.0:7878` lets other devices join; port 0 takes a free
    /// port, printed and noted in the store).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:7878")]
    pub addr: SocketAddr,
    /// Read the store's admin token from this file (it replaces any other).
    /// Without it, the first `serve` of a store draws one and prints it once.
    #[arg(long, value_name = "FILE")]
    pub admin_token_file: Option<PathBuf>,

    /// How the server logs: `text` for a person reading a terminal, `json` (one object per
    /// line) for a log shipper. Either way one line per request: method, route, game, status
    /// and latency, never a token.
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A small run (10,000-event game instead of 1,000,000; fewer appends) for a quick look or tests.
    #[arg(long)]
    pub quick: bool,
    /// Every measure at a token size, for a test that the bench runs (its figures mean nothing).
    #[arg(long, hide = true, conflicts_with = "quick")]
    pub smoke: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum PackCommand {
    /// Print KIND's bundled pack, as a whole pack to start your own from.
    Show {
        /// The kind (`tabletape kinds` lists them).
        kind: String,
    },
    /// Print a starting point for your own box's pack: one entry of each list, to change or
    /// copy, with comments (`//`) saying how it is read.
    New {
        /// The kind (`tabletape kinds` lists them).
        kind: String,
    },
    /// Check a pack as `new --pack` would read it (laid over the bundled pack): every
    /// error is named by its place in your file; a good pack is summed up.
    Check {
        /// The pack, a JSON file.
        file: PathBuf,
        /// The kind it is for.
        #[arg(long)]
        kind: String,
    },
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: ShellArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShellArg {
    Bash,
    Zsh,
    Fish,
    Powershell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn act_takes_json_or_file_not_both() {
        assert!(Cli::try_parse_from(["tabletape", "act", "g-1"]).is_err());
        assert!(
            Cli::try_parse_from(["tabletape", "act", "g-1", "{}", "--file", "a.jsonl"]).is_err()
        );
        assert!(Cli::try_parse_from([
            "tabletape",
            "act",
            "g-1",
            "--file",
            "a.jsonl",
            "--key",
            "k"
        ])
        .is_err());
        let cli = Cli::try_parse_from([
            "tabletape",
            "--json",
            "act",
            "g-1",
            "{}",
            "--as",
            "Nowa",
            "--expect",
            "3",
        ])
        .unwrap();
        assert!(cli.json);
        match cli.command {
            Command::Act(a) => {
                assert_eq!(a.action.as_deref(), Some("{}"));
                assert_eq!(a.seat.as_deref(), Some("Nowa"));
                assert_eq!(a.expect, Some(3));
                assert_eq!(a.branch, None, "without --branch: the current line");
            }
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn every_read_takes_as_and_verify_as_needs_a_game() {
        for words in [
            &["state", "g-1"][..],
            &["replay", "g-1"],
            &["narrate", "g-1"],
            &["log", "g-1"],
            &["branches", "g-1"],
            &["verify", "g-1"],
            &["legal", "g-1"],
            &["export", "g-1"],
            &["fork", "g-1", "--at", "2"],
            &["act", "g-1", "{}"],
        ] {
            let mut argv = vec!["tabletape"];
            argv.extend_from_slice(words);
            argv.extend(["--as", "public"]);
            assert!(Cli::try_parse_from(&argv).is_ok(), "{argv:?}");
        }
        assert!(Cli::try_parse_from(["tabletape", "verify", "--as", "1"]).is_err());
    }

    #[test]
    fn new_needs_a_player_and_global_flags_go_anywhere() {
        assert!(Cli::try_parse_from(["tabletape", "new", "lostworlds"]).is_err());
        let cli = Cli::try_parse_from([
            "tabletape",
            "new",
            "lostworlds",
            "--player",
            "A",
            "--player",
            "B",
            "--store",
            "/tmp/x",
            "--dice",
            "physical",
        ])
        .unwrap();
        assert_eq!(cli.store, Location::Dir("/tmp/x".into()));
        match cli.command {
            Command::New(n) => {
                assert_eq!(n.players, ["A", "B"]);
                assert_eq!(n.dice, DiceArg::Physical);
            }
            other => panic!("parsed as {other:?}"),
        }
    }
}
