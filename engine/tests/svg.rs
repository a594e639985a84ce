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
