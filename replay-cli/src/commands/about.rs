//! What the command says about itself and the rules it knows: shell
//! completions, the manual page, and the kinds.

use super::*;

/// A completion script, generated from the clap definitions (so it never
/// falls behind the command line).
pub(super) fn completions(shell: ShellArg, out: &mut dyn Write) -> Result<()> {
    use clap_complete::Shell;
    let shell = match shell {
        ShellArg::Bash => Shell::Bash,
        ShellArg::Zsh => Shell::Zsh,
        ShellArg::Fish => Shell::Fish,
        ShellArg::Powershell => Shell::PowerShell,
    };
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "tabletape", out);
    Ok(())
}

/// The manual page, generated from the clap definitions: the command's page
/// with every subcommand's own section after it.
pub(super) fn man(out: &mut dyn Write) -> Result<()> {
    let command = Cli::command();
    let page = clap_mangen::Man::new(command.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    // The description keeps its indented examples as they are written.
    writeln!(out, ".SH DESCRIPTION")?;
    let about = command
        .get_long_about()
        .map(|a| a.to_string())
        .unwrap_or_default();
    for paragraph in about.split("\n\n") {
        if paragraph.lines().skip(1).all(|l| l.starts_with("  ")) && paragraph.contains("\n  ") {
            writeln!(out, ".PP\n.nf\n{}\n.fi", roff_text(paragraph))?;
        } else {
            writeln!(out, ".PP\n{}", roff_text(paragraph))?;
        }
    }
    page.render_options_section(out)?;
    page.render_subcommands_section(out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        writeln!(out, ".SH \"TABLETAPE {}\"", name.to_uppercase())?;
        let about = sub
            .get_long_about()
            .or(sub.get_about())
            .map(|a| a.to_string())
            .unwrap_or_default();
        let usage = sub
            .clone()
            .bin_name(format!("tabletape {name}"))
            .render_usage();
        writeln!(
            out,
            ".PP\n\\fB{}\\fR",
            roff_text(&usage.to_string().replace("Usage: ", ""))
        )?;
        writeln!(out, ".PP\n{}", roff_text(&about))?;
        for arg in sub
            .get_arguments()
            .filter(|a| !a.is_hide_set() && !a.is_global_set())
        {
            let value = arg
                .get_value_names()
                .and_then(|v| v.first())
                .map(|v| v.to_string())
                .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
            let takes_value = arg.get_action().takes_values();
            let name = match (arg.get_short(), arg.get_long()) {
                (_, Some(long)) if takes_value => format!("--{long} <{value}>"),
                (_, Some(long)) => format!("--{long}"),
                (Some(short), None) => format!("-{short}"),
                (None, None) => format!("<{value}>"),
            };
            let help = arg
                .get_long_help()
                .or(arg.get_help())
                .map(|h| h.to_string())
                .unwrap_or_default();
            writeln!(
                out,
                ".TP\n\\fB{}\\fR\n{}",
                roff_text(&name),
                roff_text(&help)
            )?;
        }
        if let Some(after) = sub.get_after_long_help().or(sub.get_after_help()) {
            writeln!(out, ".PP\n.nf\n{}\n.fi", roff_text(&after.to_string()))?;
        }
    }
    page.render_version_section(out)?;
    Ok(())
}

/// Text made safe for roff: backslashes escaped, and no line that begins
/// with a control character (`.` or `'`) is taken for a request.
fn roff_text(text: &str) -> String {
    text.replace('\\', "\\e")
        .lines()
        .map(|line| {
            let line = line.trim_end();
            if line.starts_with('.') || line.starts_with('\'') {
                format!("\\&{line}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `tabletape pack`: a kind's bundled pack, a starting point for a table's
/// own, or a check of one as `new --pack` reads it.
pub(super) fn pack(command: PackCommand, out: &mut dyn Write, json: bool) -> Result<()> {
    let kind_of = |kind: &str| {
        tabletape_engine::kind(kind).ok_or_else(|| {
            CliError::from(JournalError::BadInput(
                tabletape_engine::EngineError::UnknownKind(kind.into()).to_string(),
            ))
        })
    };
    match command {
        // A file to read and edit: one field a line.
        PackCommand::Show { kind } => print_pretty(out, &kind_of(&kind)?.default_pack()),
        PackCommand::New { kind } => print_pretty(
            out,
            &tabletape_engine::pack::starting_point(kind_of(&kind)?),
        ),
        PackCommand::Check { file, kind } => {
            let rules = kind_of(&kind)?;
            let text = std::fs::read_to_string(&file).map_err(|e| CliError::file(&file, e))?;
            let table: Value = serde_json::from_str(&text).map_err(|e| CliError::File {
                path: file.display().to_string(),
                source: io::Error::new(io::ErrorKind::InvalidData, format!("not JSON: {e}")),
            })?;
            let name = file.display().to_string();
            // Every error that can be named, not only the first.
            let errors = tabletape_engine::pack::check_all(rules, &table, &name);
            match errors.as_slice() {
                [] => {}
                [one] => return Err(JournalError::BadInput(format!("content pack {one}")).into()),
                many => {
                    let each: Vec<String> = many
                        .iter()
                        .map(|e| format!("  {}: {}", e.path, e.message))
                        .collect();
                    return Err(JournalError::BadInput(format!(
                        "content pack {name}: {} errors (each entry at fault set aside to read on):\n{}",
                        many.len(),
                        each.join("\n")
                    ))
                    .into());
                }
            }
            let read = tabletape_engine::pack::read(rules, &table, &name)
                .map_err(|e| JournalError::BadInput(format!("content pack {e}")))?;
            // What the game would have: each list's entries, counted.
            let lists: BTreeMap<&String, usize> = read
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| v.as_array().map(|a| (k, a.len())))
                .collect();
            if json {
                return print_json(out, &json!({"ok": true, "kind": kind, "lists": lists}));
            }
            let counted: Vec<String> = lists.iter().map(|(k, n)| format!("{k} {n}")).collect();
            writeln!(
                out,
                "{} reads as a pack for {}, laid over the bundled one: {}",
                file.display(),
                rules.game_title(),
                counted.join(", ")
            )?;
            Ok(())
        }
    }
}

fn print_pretty(out: &mut dyn Write, value: &Value) -> Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(|e| CliError::Stdout(e.into()))?;
    writeln!(out, "{text}")?;
    Ok(())
}

pub(super) fn kinds(out: &mut dyn Write, json: bool) -> Result<()> {
    let infos: Vec<_> = tabletape_engine::kinds().iter().map(|k| k.info()).collect();
    if json {
        return print_json(out, &infos);
    }
    for (i, k) in infos.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{}  {} ({} to {} players)",
            k.kind, k.title, k.min_players, k.max_players
        )?;
        if !k.summary.is_empty() {
            writeln!(out, "  {}", k.summary)?;
        }
        writeln!(out, "  rules version {}", k.rules_version)?;
        if !k.default_pack.is_empty() {
            writeln!(
                out,
                "  content pack: {} (bundled; --pack FILE loads your own)",
                k.default_pack
            )?;
        }
        if k.options.is_empty() {
            writeln!(out, "  options: none")?;
        } else {
            writeln!(out, "  options (--option NAME=VALUE):")?;
            let kind = tabletape_engine::kind(k.kind).expect("a listed kind");
            for o in &k.options {
                writeln!(out, "    {} (default {}): {}", o.name, o.default, o.help)?;
                let mut seen = std::collections::BTreeSet::new();
                let values: Vec<String> = kind
                    .option_values(&o.name)
                    .into_iter()
                    .filter(|v| seen.insert(v.value.clone()))
                    .map(|v| {
                        if v.label == v.value {
                            v.value
                        } else {
                            format!("{} ({})", v.value, v.label)
                        }
                    })
                    .collect();
                if !values.is_empty() {
                    writeln!(out, "      values: {}", values.join(", "))?;
                }
            }
        }
        if !k.vocabulary.is_empty() {
            writeln!(out, "  words:")?;
            for t in &k.vocabulary {
                writeln!(out, "    {}: {}", t.word, t.means)?;
            }
        }
    }
    Ok(())
}
