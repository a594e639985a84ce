//! Tests of `narrative`.

use tabletape_engine::narrative::*;

fn sample() -> Narrative {
    Narrative {
        title: "A <duel>".into(),
        chapters: vec![Chapter::new(
            "Exchange 1",
            vec!["Nowa & Grim circle.".into()],
        )],
        epilogue: vec!["Nowa wins.".into()],
        appendix: Vec::new(),
        over: true,
    }
}

#[test]
fn a_game_in_play_closes_with_so_far_not_the_end() {
    let n = Narrative {
        over: false,
        ..sample()
    };
    for format in [Format::Markdown, Format::Text, Format::Html] {
        let told = n.render(format);
        assert!(told.contains("So far"), "{told}");
        assert!(!told.contains("The end"), "{told}");
    }
}

#[test]
fn formats_render_every_line() {
    let n = sample();
    let md = n.render(Format::Markdown);
    assert_eq!(
        md,
        "# A <duel>\n\n## Exchange 1\n\nNowa & Grim circle.\n\n## The end\n\nNowa wins.\n"
    );
    let txt = n.render(Format::Text);
    assert!(txt.starts_with("A <duel>\n========\n\nExchange 1\n----------\nNowa & Grim circle.\n"));
    let html = n.render(Format::Html);
    assert!(html.contains("<title>A &lt;duel&gt;</title>"));
    assert!(html.contains("<p>Nowa &amp; Grim circle.</p>"));
    let json: Narrative = serde_json::from_str(&n.render(Format::Json)).unwrap();
    assert_eq!(json, n);
}

#[test]
fn lists_maps_and_the_appendix_in_every_format() {
    let mut n = sample();
    n.chapters[0]
        .lines
        .extend(["- Nowa: 12".into(), "- Grim: 3".into()]);
    n.chapters[0].figure =
        Some("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>#1 a&b</text></svg>".into());
    n.appendix = vec![Chapter::new("Weapons", vec!["#1 the axe: Grim's".into()])];
    let md = n.render(Format::Markdown);
    assert!(
        md.contains("Nowa & Grim circle.\n\n- Nowa: 12\n- Grim: 3\n\n## The end"),
        "{md}"
    );
    assert!(
        md.ends_with("## Appendix\n\n### Weapons\n\n- #1 the axe: Grim's\n"),
        "{md}"
    );
    let html = n.render(Format::Html);
    assert!(
        html.contains("<ul>\n<li>Nowa: 12</li>\n<li>Grim: 3</li>\n</ul>"),
        "{html}"
    );
    // The drawing is an image of its own, every unsafe byte encoded.
    assert!(html.contains("<img src=\"data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22%3E%3Ctext%3E%231%20a%26b%3C/text%3E%3C/svg%3E\" alt=\"The table at the end of Exchange 1\">"), "{html}");
    assert!(
        html.contains(
            "<h2>Appendix</h2>\n<section>\n<h3>Weapons</h3>\n<ul>\n<li>#1 the axe: Grim&#39;s</li>"
        ),
        "{html}"
    );
    let txt = n.render(Format::Text);
    assert!(
        txt.ends_with("\nAppendix\n--------\n\nWeapons:\n- #1 the axe: Grim's\n"),
        "{txt}"
    );
    let json: Narrative = serde_json::from_str(&n.render(Format::Json)).unwrap();
    assert_eq!(json, n);
}

#[test]
fn a_long_paragraph_stands_apart_in_text() {
    let long = "word ".repeat(40).trim_end().to_string();
    let n = Narrative {
        chapters: vec![Chapter::new(
            "Round 1",
            vec![
                "Short.".into(),
                "Short too.".into(),
                long.clone(),
                "- a".into(),
            ],
        )],
        ..sample()
    };
    let txt = n.render(Format::Text);
    assert!(
        txt.contains(&format!(
            "Round 1\n-------\nShort.\nShort too.\n\n{long}\n\n- a\n"
        )),
        "{txt}"
    );
}

#[test]
fn format_names() {
    assert_eq!("md".parse::<Format>(), Ok(Format::Markdown));
    assert!("pdf"
        .parse::<Format>()
        .unwrap_err()
        .contains("md, txt, html or json"));
}
