//! Small rules for text every input format shares (a leaf module).

/// `text` without a leading byte-order mark (editors on Windows write one; JSON parsers
/// would report "expected value at line 1 column 1").
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}
