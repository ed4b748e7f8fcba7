//! Quoting what a user typed: refusals name the value they refuse, but a value may be
//! thousands of characters long, so a quote is a short excerpt of it.

/// The most characters of something typed that a refusal quotes, the ellipsis included.
pub const EXCERPT_CHARS: usize = 60;

/// What a refusal quotes of something typed: the whole of it when short, else its first
/// characters (cut on a character boundary) and "…", [`EXCERPT_CHARS`] characters at most.
/// Line breaks and other control characters read as spaces, so that the refusal stays one
/// line. A refusal once echoed a 12,207-character value whole, which took several Discord
/// messages and repeated to everyone watching what one person typed (issue #32).
pub fn excerpt(typed: &str) -> String {
    let typed = typed.trim();
    let clean = |c: char| if c.is_control() { ' ' } else { c };
    if typed.chars().count() <= EXCERPT_CHARS {
        return typed.chars().map(clean).collect();
    }
    let mut out: String = typed.chars().take(EXCERPT_CHARS - 1).map(clean).collect();
    out.push('…');
    out
}

/// A refusal with every long piece of what was typed (an option's name or value, a word of
/// one, the words given without a name joined as the command reads them, the command's
/// name) that it quotes
/// whole replaced by its [`excerpt`]. Each refusal quotes an excerpt where it is written;
/// this catches the quotes made where the typed text is not known as such (a reason the
/// engine gives for an action, which may name the action's words).
pub fn bound_quotes(reason: String, command: &str, typed: &[(String, String)]) -> String {
    let long = |s: &str| s.chars().count() > EXCERPT_CHARS;
    let nameless: Vec<&str> = typed
        .iter()
        .filter(|(k, _)| k.trim().is_empty())
        .map(|(_, v)| v.trim())
        .collect();
    let joined = nameless.join(" ");
    let mut pieces: Vec<&str> = vec![joined.as_str(), command, command.trim()];
    for (k, v) in typed {
        pieces.extend([k.as_str(), k.trim(), v.as_str(), v.trim()]);
        pieces.extend(k.split_whitespace());
        pieces.extend(v.split_whitespace());
    }
    pieces.retain(|p| long(p));
    // The longest first: a value before the words inside it.
    pieces.sort_by_key(|p| std::cmp::Reverse(p.len()));
    pieces.dedup();
    let mut reason = reason;
    for p in pieces {
        if reason.contains(p) {
            reason = reason.replace(p, &excerpt(p));
        }
    }
    reason
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_quoted_by_its_first_characters_on_a_char_boundary() {
        assert_eq!(excerpt("  e4-e5 "), "e4-e5");
        let long = "é".repeat(12_000);
        let e = excerpt(&long);
        assert_eq!(e.chars().count(), EXCERPT_CHARS);
        assert!(e.ends_with('…'));
        assert!(long.starts_with(e.trim_end_matches('…')));
        assert_eq!(excerpt("a\nb\tc"), "a b c", "one line");
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact, "no ellipsis when nothing is cut");
    }

    #[test]
    fn a_refusal_quoting_a_long_value_or_word_quotes_its_excerpt() {
        let word = "q".repeat(5_000);
        let typed = vec![
            ("action".to_string(), format!("{word} b1-c3")),
            (String::new(), "xx".repeat(40)),
        ];
        let reason = format!("'{word} b1-c3' is refused: {word} is not a square.");
        let bounded = bound_quotes(reason, "play", &typed);
        assert!(!bounded.contains(&"q".repeat(EXCERPT_CHARS)), "{bounded}");
        assert!(bounded.contains("is refused:"), "{bounded}");
        let nameless = format!("Cannot read '{}'.", "xx".repeat(40));
        assert_eq!(
            bound_quotes(nameless, "play", &typed),
            format!("Cannot read '{}'.", excerpt(&"xx".repeat(40)))
        );
        assert_eq!(bound_quotes("short".into(), "play", &typed), "short");
    }
}
