//! Which gateway shards this process runs: `TOKAR_SHARDS` and `TOKAR_SHARD_RANGE`.
//!
//! Discord splits a bot's servers between gateway connections ("shards"): the events of a
//! server go only to shard `(guild_id >> 22) % shards`, direct messages only to shard 0, and
//! the interactions of a server are answered by the process that runs its shard. Discord
//! requires sharding from 2,500 servers. Several processes share the shards out by each
//! running a range of them, all with the same total.
//!
//! Unset, the process runs one shard, as it did before sharding existed: a community's bot
//! needs no more, it starts without asking Discord anything first, and a count chosen by
//! Discord (its recommendation can change between restarts) would not say which process runs
//! which shards when there are several of them.

use std::fmt;
use std::ops::Range;

use super::DiscordError;

/// The shards of one process: `range` of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    /// How many shards the bot has in all (every process is given the same number).
    pub total: u32,
    /// The first shard this process runs.
    pub first: u32,
    /// One past the last shard this process runs.
    pub end: u32,
}

impl Shards {
    /// The largest total accepted: Discord allows at most 2,500 servers a shard, so this
    /// serves 25 million servers; a larger number is a typing mistake.
    pub const MAX_TOTAL: u32 = 10_000;

    /// The shards this process runs, half-open as Rust ranges are.
    pub fn range(&self) -> Range<u32> {
        self.first..self.end
    }

    /// How many shards this process runs.
    pub fn count(&self) -> u32 {
        self.end - self.first
    }

    /// Reads `TOKAR_SHARDS` (`total`) and `TOKAR_SHARD_RANGE` (`range`, `a..b`), each unset or
    /// trimmed. Both unset: `None` (one shard, as before). A range without a total, a total that
    /// is not a number from 1 to [`Self::MAX_TOTAL`], or a range that is not `a..b` with
    /// `a < b <= total` is refused with a one-line reason.
    pub fn parse(total: Option<&str>, range: Option<&str>) -> Result<Option<Self>, DiscordError> {
        let Some(raw_total) = total else {
            return match range {
                None => Ok(None),
                Some(raw) => Err(range_error(format!(
                    "`{raw}` given without TOKAR_SHARDS, the number of shards in all"
                ))),
            };
        };
        let total = raw_total
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=Self::MAX_TOTAL).contains(n))
            .ok_or_else(|| DiscordError::Setting {
                name: "TOKAR_SHARDS",
                reason: format!(
                    "`{raw_total}` is not a number of shards between 1 and {}",
                    Self::MAX_TOTAL
                ),
            })?;
        let Some(raw) = range else {
            return Ok(Some(Self {
                total,
                first: 0,
                end: total,
            }));
        };
        let (a, b) = raw.split_once("..").ok_or_else(|| {
            range_error(format!(
                "`{raw}` is not a range of shards such as 0..{total} (first..one past the last)"
            ))
        })?;
        let bound = |s: &str| {
            s.trim().parse::<u32>().map_err(|_| {
                range_error(format!(
                    "`{raw}` is not a range of shards such as 0..{total} (first..one past the last)"
                ))
            })
        };
        let (first, end) = (bound(a)?, bound(b)?);
        if first >= end {
            return Err(range_error(format!(
                "`{raw}` holds no shard (the end is one past the last shard)"
            )));
        }
        if end > total {
            return Err(range_error(format!(
                "`{raw}` goes past the {total} shards of TOKAR_SHARDS (shards are 0..{total})"
            )));
        }
        Ok(Some(Self { total, first, end }))
    }
}

fn range_error(reason: String) -> DiscordError {
    DiscordError::Setting {
        name: "TOKAR_SHARD_RANGE",
        reason,
    }
}

impl fmt::Display for Shards {
    /// `shards 1..2 of 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shards {}..{} of {}", self.first, self.end, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(total: Option<&str>, range: Option<&str>) -> String {
        let e = Shards::parse(total, range).expect_err("refused");
        let line = e.to_string();
        assert!(!line.contains('\n'), "one line: {line}");
        line
    }

    #[test]
    fn unset_runs_one_shard_as_before() {
        assert_eq!(Shards::parse(None, None).unwrap(), None);
    }

    #[test]
    fn a_total_alone_runs_every_shard() {
        let s = Shards::parse(Some("2"), None).unwrap().unwrap();
        assert_eq!((s.range(), s.total, s.count()), (0..2, 2, 2));
        assert_eq!(s.to_string(), "shards 0..2 of 2");
    }

    #[test]
    fn a_range_is_half_open() {
        let s = Shards::parse(Some("10"), Some("4..7")).unwrap().unwrap();
        assert_eq!((s.range(), s.count()), (4..7, 3));
        let last = Shards::parse(Some("2"), Some("1..2")).unwrap().unwrap();
        assert_eq!(last.range(), 1..2);
        let all = Shards::parse(Some("3"), Some(" 0 .. 3 ")).unwrap().unwrap();
        assert_eq!(all.range(), 0..3);
        let most = Shards::MAX_TOTAL.to_string();
        assert!(Shards::parse(Some(&most), None).unwrap().is_some());
    }

    #[test]
    fn bad_totals_are_refused_in_one_line() {
        for bad in ["0", "-1", "two", "1.5", "10001", "99999999999"] {
            let line = refusal(Some(bad), None);
            assert!(line.starts_with("setting TOKAR_SHARDS: "), "{line}");
            assert!(line.contains(bad), "{line}");
        }
    }

    #[test]
    fn bad_ranges_are_refused_in_one_line() {
        let cases = [
            ("2", "0..3", "goes past the 2 shards"),
            ("2", "2..3", "goes past the 2 shards"),
            ("2", "1..1", "holds no shard"),
            ("4", "3..1", "holds no shard"),
            ("2", "1", "is not a range"),
            ("2", "a..b", "is not a range"),
            ("2", "-1..1", "is not a range"),
            ("2", "0..=1", "is not a range"),
            ("2", "0...2", "is not a range"),
        ];
        for (total, range, why) in cases {
            let line = refusal(Some(total), Some(range));
            assert!(line.starts_with("setting TOKAR_SHARD_RANGE: "), "{line}");
            assert!(line.contains(why), "{range}: {line}");
        }
    }

    #[test]
    fn a_range_without_a_total_is_refused() {
        let line = refusal(None, Some("0..1"));
        assert!(line.starts_with("setting TOKAR_SHARD_RANGE: "), "{line}");
        assert!(line.contains("without TOKAR_SHARDS"), "{line}");
    }

    #[test]
    fn a_bad_total_is_reported_before_the_range() {
        let line = refusal(Some("0"), Some("0..1"));
        assert!(line.starts_with("setting TOKAR_SHARDS: "), "{line}");
    }
}
