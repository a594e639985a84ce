//! Tests of `svg`.

use tabletape_engine::svg::*;

#[test]
fn text_from_the_table_cannot_become_markup() {
    let mut svg = Svg::new(10, 10, "a <b> & \"c\"");
    svg.text(0, 0, "start", "name", "<script>alert('x')</script>");
    let out = svg.finish();
    assert!(!out.contains("<script>"), "{out}");
    assert!(out.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert!(out.starts_with("<svg ") && out.ends_with("</svg>"));
}

#[test]
fn every_special_character_is_escaped_wherever_it_stands() {
    assert_eq!(escape(""), "");
    assert_eq!(escape("plain"), "plain");
    assert_eq!(escape("&"), "&amp;");
    assert_eq!(
        escape("<a href=\"x\">Bo's & Cy's</a>"),
        "&lt;a href=&quot;x&quot;&gt;Bo&#39;s &amp; Cy&#39;s&lt;/a&gt;"
    );
    // Runs of text beside them keep every character, beyond ASCII too.
    assert_eq!(escape("Zoë>Åsa<"), "Zoë&gt;Åsa&lt;");
    assert_eq!(format!("{}", Escaped("x<y")), "x&lt;y");
}

#[test]
fn a_long_name_is_broken_at_spaces_and_cut_only_past_its_lines() {
    assert_eq!(
        wrapped("The Clockmaker's Daughter", 14, 3),
        ["The", "Clockmaker's", "Daughter"]
    );
    assert_eq!(wrapped("A Tough Crowd", 14, 3), ["A Tough Crowd"]);
    assert_eq!(
        wrapped("one two three four five", 5, 2),
        ["one", "two \u{2026}"]
    );
}
