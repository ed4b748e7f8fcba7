//! "Did you mean": the nearest known word to a misspelt one, for every refusal
//! of a value that must come from a fixed set (game kinds, armies, units, rule
//! topics, option names and choices).
//!
//! The distance is `strsim`'s optimal string alignment (Levenshtein with
//! transpositions), a small, well-kept crate already in the dependency tree:
//! `humen` is one edit from `human`, `blue-knigth` one from `blue-knight`.

/// The most edits a word may be from a known one and still be suggested:
/// one for short words, about a third of the length for longer ones, so that
/// `necromacer` finds `necromancer` while `dragon` finds nothing among the
/// armies.
fn reach(len: usize) -> usize {
    (len / 3).max(1)
}

/// Lower case, without spaces, hyphens, underscores or apostrophes: `Blue
/// Knight`, `blue_knight` and `blue-knight` spell one name.
fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_' | '\'' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The known word nearest to `word` within reach, if any; among equally near
/// words the first one listed. A word that already names one (up to case,
/// spaces and hyphens) suggests nothing: it is refused for another reason.
pub fn nearest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = squash(word);
    if w.is_empty() {
        return None;
    }
    let mut best: Option<(usize, &'a str)> = None;
    for k in known {
        let s = squash(k);
        if s == w {
            return None;
        }
        let d = strsim::osa_distance(&w, &s);
        if d <= reach(s.chars().count().max(w.chars().count())) && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, k));
        }
    }
    best.map(|(_, k)| k)
}

/// ` Did you mean human?` when a known word is near `word`, else nothing: for
/// the end of a refusal.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match nearest(word, known) {
        Some(k) => format!(" Did you mean {k}?"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_words_are_suggested_and_far_ones_not() {
        let armies = ["human", "undead", "undead-arcana", "alternate"];
        assert_eq!(nearest("humen", armies), Some("human"));
        assert_eq!(nearest("Undaed", armies), Some("undead"));
        assert_eq!(nearest("undead arcana", armies), None, "already a name");
        assert_eq!(nearest("dragon", armies), None);
        assert_eq!(nearest("", armies), None);
        assert_eq!(
            nearest("blue-knigth", ["blue-knight", "wind-mage"]),
            Some("blue-knight")
        );
        assert_eq!(
            did_you_mean("rullings", ["rulings"]),
            " Did you mean rulings?"
        );
        assert_eq!(did_you_mean("zzz", ["rulings"]), "");
    }
}
