//! A small SVG writer for the kinds' board drawings (`Rules::render_svg`).
//!
//! Drawings are strings built in one pass: no DOM, no IO. Every piece of
//! text goes through [`escape`], because names and free text come from the
//! table (a player called `<script>` must stay a name). Coordinates are
//! whole user units; the page scales the drawing to its width.

use std::fmt::Write;

/// Escapes text for SVG content and attribute values.
pub fn escape(text: &str) -> String {
    Escaped(text).to_string()
}

/// Text written escaped straight into a drawing, with no string of its own
/// on the way: a board writes thousands of names, classes and ids.
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a>(pub &'a str);

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rest = self.0;
        // Runs of plain text are written whole, each special byte as its
        // entity (all five are ASCII, so a cut there is a char boundary).
        while let Some(at) = rest.bytes().position(|b| b"&<>\"'".contains(&b)) {
            f.write_str(&rest[..at])?;
            f.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

/// One drawing being written.
#[derive(Debug)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// A drawing `width` by `height` units with an accessible title.
    pub fn new(width: u32, height: u32, title: &str) -> Svg {
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" aria-label="{t}"><title>{t}</title>"#,
            t = Escaped(title)
        );
        Svg { out }
    }

    /// A style sheet of the kind's own (a constant: no text from the table
    /// goes in one), written right after the title.
    pub fn style(&mut self, sheet: &'static str) -> &mut Self {
        self.out.push_str(sheet);
        self
    }

    /// A rectangle; `class` names its look for the page's style sheet.
    pub fn rect(&mut self, x: i32, y: i32, w: u32, h: u32, class: &str) -> &mut Self {
        let _ = write!(
            self.out,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" class="{}"/>"#,
            Escaped(class)
        );
        self
    }

    pub fn circle(&mut self, cx: i32, cy: i32, r: u32, class: &str) -> &mut Self {
        let _ = write!(
            self.out,
            r#"<circle cx="{cx}" cy="{cy}" r="{r}" class="{}"/>"#,
            Escaped(class)
        );
        self
    }

    /// A closed shape through `points` (a hex of a map).
    pub fn polygon(&mut self, points: &[(i32, i32)], class: &str) -> &mut Self {
        let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
        let _ = write!(
            self.out,
            r#"<polygon points="{}" class="{}"/>"#,
            pts.join(" "),
            Escaped(class)
        );
        self
    }

    pub fn line(&mut self, x1: i32, y1: i32, x2: i32, y2: i32, class: &str) -> &mut Self {
        let _ = write!(
            self.out,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="{}"/>"#,
            Escaped(class)
        );
        self
    }

    /// Text anchored at its start (`anchor` "start", "middle" or "end").
    pub fn text(&mut self, x: i32, y: i32, anchor: &str, class: &str, text: &str) -> &mut Self {
        let _ = write!(
            self.out,
            r#"<text x="{x}" y="{y}" text-anchor="{}" class="{}">{}</text>"#,
            Escaped(anchor),
            Escaped(class),
            Escaped(text)
        );
        self
    }

    /// Opens a group that the page can find by `id` (a square, a piece).
    pub fn open(&mut self, id: &str, class: &str) -> &mut Self {
        let _ = write!(
            self.out,
            r#"<g id="{}" class="{}">"#,
            Escaped(id),
            Escaped(class)
        );
        self
    }

    /// Opens a group like [`Svg::open`] that also says which actions a tap
    /// on it means: those whose fields hold every value of `pick` (a JSON
    /// object, such as `{"character": 0, "slot": 5}`), for a page that
    /// knows no rules to filter what `legal` offers.
    pub fn open_pick(&mut self, id: &str, class: &str, pick: &serde_json::Value) -> &mut Self {
        let _ = write!(
            self.out,
            r#"<g id="{}" class="{}" data-pick="{}">"#,
            Escaped(id),
            Escaped(class),
            Escaped(&pick.to_string())
        );
        self
    }

    pub fn close(&mut self) -> &mut Self {
        self.out.push_str("</g>");
        self
    }

    /// The finished drawing.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// The text picture of a state as an SVG, one line of text a row: the
/// drawing of a kind that has no board of its own yet.
pub fn of_text(title: &str, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let width = 12 + 8 * lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    let height = 16 * lines.len() as u32 + 16;
    let mut svg = Svg::new(width, height, title);
    for (i, line) in lines.iter().enumerate() {
        svg.text(6, 16 * (i as i32 + 1), "start", "mono", line);
    }
    svg.finish()
}

/// `text` cut to `max` characters, an ellipsis marking the cut.
pub fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
        out.push('\u{2026}');
        out
    }
}

/// `text` broken at spaces into at most `most` lines of about `n`
/// characters each, so a long name is read whole on a small card (only a
/// name longer than every line together is cut).
pub fn wrapped(text: &str, n: usize, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= n => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.len() > most {
        let rest = lines.split_off(most.saturating_sub(1)).join(" ");
        lines.push(short(&rest, n));
    }
    lines
}
