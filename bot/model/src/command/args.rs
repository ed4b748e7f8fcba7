//! A command's options as text, read one by one so that anything left over (a
//! typo, an option the command does not take) is reported instead of ignored.
//! [`super::Command::parse`] reads the console's text through it; a game's own
//! options (which only the engine judges) stay in one inside the typed command.

use crate::api::Refusal;
use crate::quote::excerpt;
use std::collections::BTreeMap;
use tokar_engine::spelling::did_you_mean;

/// Words an action may begin with that look like an option name (`king:`,
/// Gladiator's override). Typed as `/play king: c1-b2` or `/play
/// king:c1-b2`, they are the start of the action, not an option (T17).
const ACTION_PREFIXES: &[&str] = &["king"];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    map: BTreeMap<String, String>,
    /// The option names the command asked for, for "did you mean".
    asked: Vec<String>,
}

impl Args {
    /// `main` is the option that values given without a name belong to:
    /// they are joined with spaces, after its named value if there is one,
    /// so that a typed action with spaces needs no quotes (`/play
    /// action:h5-h4-i4-j4 xk4`, `/play game:2 turncoat l5 xa5`).
    ///
    /// When the main option is an action, a word of [`ACTION_PREFIXES`]
    /// given as an option name begins the action: `king: c1-b2` and
    /// `king:c1-b2` are the action `king: c1-b2` (T17).
    pub fn new(options: &[(String, String)], main: Option<&str>) -> Result<Args, Refusal> {
        let mut map = BTreeMap::new();
        let mut nameless: Vec<String> = Vec::new();
        let mut prefix: Option<String> = None;
        for (k, v) in options {
            let key = k.trim().to_ascii_lowercase();
            if key.is_empty() {
                if main.is_none() {
                    return Err(
                        format!("'{}' needs an option name (name:value).", excerpt(v)).into(),
                    );
                }
                nameless.push(v.trim().to_string());
                continue;
            }
            if main == Some("action") && ACTION_PREFIXES.contains(&key.as_str()) {
                if prefix.is_some() {
                    return Err(format!("'{key}:' is given twice.").into());
                }
                prefix = Some(format!("{key}: {}", v.trim()).trim_end().to_string());
                continue;
            }
            if map.insert(key.clone(), v.trim().to_string()).is_some() {
                return Err(format!("Option '{}' is given twice.", excerpt(&key)).into());
            }
        }
        if let Some(main) = main {
            if let Some(p) = prefix {
                let rest = map.remove(main).into_iter();
                nameless = std::iter::once(p).chain(rest).chain(nameless).collect();
            }
            if !nameless.is_empty() {
                let value: &mut String = map.entry(main.to_string()).or_default();
                for word in nameless {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(&word);
                }
            }
        }
        Ok(Args {
            map,
            asked: Vec::new(),
        })
    }

    pub fn take(&mut self, key: &str) -> Option<String> {
        self.expect(key);
        self.map.remove(key)
    }

    /// Notes that the command takes option `key` although it reads it some
    /// other way ([`Args::take_where`]), so that a misspelling of it is
    /// answered with "did you mean".
    pub fn expect(&mut self, key: &str) {
        if !self.asked.iter().any(|k| k == key) {
            self.asked.push(key.to_string());
        }
    }

    pub fn require(&mut self, key: &str, what: &str) -> Result<String, Refusal> {
        match self.take(key) {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(format!("Missing option {key}: {what}.").into()),
        }
    }

    /// The game number, if given (`game:3` or `game:#3`).
    pub fn game(&mut self) -> Result<Option<u64>, Refusal> {
        match self.take("game") {
            None => Ok(None),
            Some(v) => parse_game_number(&v).map(Some),
        }
    }

    /// Removes and returns every option whose name satisfies `f`.
    pub fn take_where(&mut self, f: impl Fn(&str) -> bool) -> Vec<(String, String)> {
        let keys: Vec<String> = self.map.keys().filter(|k| f(k)).cloned().collect();
        keys.into_iter()
            .map(|k| {
                let v = self.map.remove(&k).unwrap_or_default();
                (k, v)
            })
            .collect()
    }

    /// Fails naming the options nobody took, with the nearest option the
    /// command does take.
    pub fn finish(self, command: &str) -> Result<(), Refusal> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(k) => Err(format!(
                "/{command} does not take option '{}'.{}",
                excerpt(k),
                did_you_mean(k, self.asked.iter().map(String::as_str))
            )
            .into()),
        }
    }

    /// Whether no option is left.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The options left, as typed (name, value), for the refusal's quoting bound.
    pub fn left(&self) -> impl Iterator<Item = (&str, &str)> {
        self.map.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

pub fn parse_game_number(v: &str) -> Result<u64, Refusal> {
    v.trim()
        .trim_start_matches('#')
        .parse::<u64>()
        .map_err(|_| format!("'{}' is not a game number (write game:3).", excerpt(v)).into())
}

/// Reads a user mention `<@123>` (or `<@!123>`, or a bare id).
pub fn parse_mention(v: &str) -> Result<u64, Refusal> {
    let t = v.trim();
    let inner = t
        .strip_prefix("<@")
        .and_then(|s| s.strip_suffix('>'))
        .map(|s| s.trim_start_matches('!'))
        .unwrap_or(t);
    inner
        .parse::<u64>()
        .map_err(|_| format!("'{}' is not a user (mention them: @name).", excerpt(v)).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn nameless_words_join_the_main_option() {
        let mut a = Args::new(
            &opts(&[("action", "h5-h4-i4-j4"), ("", "xk4"), ("game", "2")]),
            Some("action"),
        )
        .unwrap();
        assert_eq!(a.take("action").as_deref(), Some("h5-h4-i4-j4 xk4"));
        assert_eq!(a.take("game").as_deref(), Some("2"));
        let mut a = Args::new(
            &opts(&[("game", "2"), ("", "turncoat"), ("", "l5"), ("", "xa5")]),
            Some("action"),
        )
        .unwrap();
        assert_eq!(a.take("action").as_deref(), Some("turncoat l5 xa5"));
        assert!(Args::new(&opts(&[("", "on")]), None).is_err());
        assert!(Args::new(&opts(&[("game", "1"), ("game", "2")]), Some("action")).is_err());
    }
}
