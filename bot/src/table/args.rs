//! A command's options, read one by one so that anything left over (a typo,
//! an option the command does not take) is reported instead of ignored.

use std::collections::BTreeMap;

pub struct Args {
    map: BTreeMap<String, String>,
}

impl Args {
    /// `main` is the option a value given without a name belongs to.
    pub fn new(options: &[(String, String)], main: Option<&str>) -> Result<Args, String> {
        let mut map = BTreeMap::new();
        for (k, v) in options {
            let mut key = k.trim().to_ascii_lowercase();
            if key.is_empty() {
                match main {
                    Some(m) => key = m.to_string(),
                    None => return Err(format!("'{v}' needs an option name (name:value).")),
                }
            }
            if map.insert(key.clone(), v.trim().to_string()).is_some() {
                return Err(format!("Option '{key}' is given twice."));
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
