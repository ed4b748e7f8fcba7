//! Reading the numbers and lists a rules text states, so that a test can hold
//! them against what the engine plays (engine/tests/rule_texts_*.rs).

/// Number words as the rules texts write them.
const WORDS: [&str; 13] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// Ordinals as the rules texts write them ("for the fourth time").
const ORDINALS: [&str; 8] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

/// A number written in digits or in words ("3", "three", "Fifty").
pub fn number(word: &str) -> Option<u32> {
    let w = word
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_ascii_lowercase();
    if let Ok(n) = w.parse() {
        return Some(n);
    }
    if let Some(n) = WORDS.iter().position(|x| *x == w) {
        return Some(n as u32);
    }
    if let Some(n) = ORDINALS.iter().position(|x| *x == w) {
        return Some(n as u32 + 1);
    }
    let tens = [
        ("twenty", 20),
        ("thirty", 30),
        ("forty", 40),
        ("fifty", 50),
        ("sixty", 60),
    ];
    tens.iter().find(|(t, _)| *t == w).map(|&(_, n)| n)
}

/// The number written just before `after` in `text` ("gets three hidden",
/// " hidden" gives 3). Panics, quoting the text, where there is none: a test
/// asks only for what the text must state.
pub fn number_before(text: &str, after: &str) -> u32 {
    let at = text
        .find(after)
        .unwrap_or_else(|| panic!("the text does not say '{after}':\n{text}"));
    let word = text[..at].split_whitespace().last().unwrap_or("");
    number(word).unwrap_or_else(|| panic!("no number before '{after}' ('{word}'):\n{text}"))
}

/// The number written just after `before` in `text` ("rank 5)": "rank " gives 5).
pub fn number_after(text: &str, before: &str) -> u32 {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("the text does not say '{before}':\n{text}"));
    let word = text[at + before.len()..]
        .split(|c: char| c.is_whitespace() || c == ')' || c == ',' || c == '.' || c == ';')
        .next()
        .unwrap_or("");
    number(word).unwrap_or_else(|| panic!("no number after '{before}' ('{word}'):\n{text}"))
}

/// Every number written in `text`, in order (digits and number words).
pub fn numbers(text: &str) -> Vec<u32> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(number)
        .collect()
}

/// The text between `start` and the next `end` (exclusive), after the first
/// `start`. Panics, quoting the text, where `start` is missing.
pub fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let at = text
        .find(start)
        .unwrap_or_else(|| panic!("the text does not say '{start}':\n{text}"))
        + start.len();
    let rest = &text[at..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// The topics an overview lists on its "Topics: a, b, c." line.
pub fn topics(overview: &str) -> Vec<String> {
    between(overview, "Topics: ", ".")
        .split(',')
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}
