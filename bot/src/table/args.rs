//! A command's options, read one by one so that anything left over (a typo,
//! an option the command does not take) is reported instead of ignored.

use std::collections::BTreeMap;

pub struct Args {
    map: BTreeMap<String, String>,
}

impl Args {
    /// `main` is the option that values given without a name belong to:
    /// they are joined with spaces, after its named value if there is one,
    /// so that a typed action with spaces needs no quotes (`/play
    /// action:h5-h4-i4-j4 xk4`, `/play game:2 turncoat l5 xa5`).
    pub fn new(options: &[(String, String)], main: Option<&str>) -> Result<Args, String> {
        let mut map = BTreeMap::new();
        let mut nameless: Vec<&str> = Vec::new();
        for (k, v) in options {
            let key = k.trim().to_ascii_lowercase();
            if key.is_empty() {
                if main.is_none() {
                    return Err(format!("'{v}' needs an option name (name:value)."));
                }
                nameless.push(v.trim());
                continue;
            }
            if map.insert(key.clone(), v.trim().to_string()).is_some() {
                return Err(format!("Option '{key}' is given twice."));
            }
        }
        if let (Some(main), false) = (main, nameless.is_empty()) {
            let value: &mut String = map.entry(main.to_string()).or_default();
            for word in nameless {
                if !value.is_empty() {
                    value.push(' ');
                }
                value.push_str(word);
            }
        }
        Ok(Args { map })
    }

    pub fn take(&mut self, key: &str) -> Option<String> {
        self.map.remove(key)
    }

    pub fn require(&mut self, key: &str, what: &str) -> Result<String, String> {
        match self.take(key) {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(format!("Missing option {key}: {what}.")),
        }
    }

    /// The game number, if given (`game:3` or `game:#3`).
    pub fn game(&mut self) -> Result<Option<u64>, String> {
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

    /// Fails naming the options nobody took.
    pub fn finish(self, command: &str) -> Result<(), String> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(k) => Err(format!("/{command} does not take option '{k}'.")),
        }
    }
}

pub fn parse_game_number(v: &str) -> Result<u64, String> {
    v.trim()
        .trim_start_matches('#')
        .parse::<u64>()
        .map_err(|_| format!("'{v}' is not a game number (write game:3)."))
}

/// Reads a user mention `<@123>` (or `<@!123>`, or a bare id).
pub fn parse_mention(v: &str) -> Result<u64, String> {
    let t = v.trim();
    let inner = t
        .strip_prefix("<@")
        .and_then(|s| s.strip_suffix('>'))
        .map(|s| s.trim_start_matches('!'))
        .unwrap_or(t);
    inner
        .parse::<u64>()
        .map_err(|_| format!("'{v}' is not a user (mention them: @name)."))
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
