//! The rules a league is created with and judged by: its tie-break list
//! (T43), what a withdrawal does to the standings (T44) and how the pairing
//! numbers are given (T33). Each is chosen at `/league new` and written in
//! the league's description, so nobody learns the rule after the result.

use serde::{Deserialize, Serialize};

/// One way of separating entrants level on points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// Direct encounter: the points scored in the games among the tied
    /// entrants only, re-applied inside every group it leaves tied.
    Direct,
    /// The number of games won (placed first alone).
    Wins,
    /// Sonneborn-Berger: each beaten opponent's points, half of each drawn one's.
    Sonneborn,
    /// Koya: the points scored against the entrants who made at least half
    /// of the points they could.
    Koya,
}

impl TieBreak {
    /// The column's head in the standings.
    pub fn head(self) -> &'static str {
        match self {
            TieBreak::Direct => "DE",
            TieBreak::Wins => "Wins",
            TieBreak::Sonneborn => "SB",
            TieBreak::Koya => "Koya",
        }
    }

    /// Its name in the league's description.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Direct => {
                "direct encounter (DE, re-applied inside each group it leaves tied)"
            }
            TieBreak::Wins => "number of wins",
            TieBreak::Sonneborn => "Sonneborn-Berger (SB)",
            TieBreak::Koya => "Koya",
        }
    }
}

/// The tie-break list of a league (`tiebreaks:`). Lots drawn with the
/// league's seed end every list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreaks {
    /// FIDE's order for round robins (Handbook C.07): direct encounter, wins,
    /// Sonneborn-Berger, Koya.
    #[default]
    Fide,
    /// Sonneborn-Berger first, then wins: a list many clubs use, where the
    /// whole table rather than one game decides.
    Sb,
}

impl TieBreaks {
    pub fn list(self) -> &'static [TieBreak] {
        match self {
            TieBreaks::Fide => &[
                TieBreak::Direct,
                TieBreak::Wins,
                TieBreak::Sonneborn,
                TieBreak::Koya,
            ],
            TieBreaks::Sb => &[TieBreak::Sonneborn, TieBreak::Wins],
        }
    }

    pub fn parse(v: &str) -> Result<TieBreaks, String> {
        match v.trim().to_ascii_lowercase().as_str() {
            "fide" => Ok(TieBreaks::Fide),
            "sb" | "sonneborn-berger" => Ok(TieBreaks::Sb),
            other => Err(format!(
                "tiebreaks:{other} is not a tie-break list: fide (direct encounter, wins, Sonneborn-Berger, Koya, lots) or sb (Sonneborn-Berger, wins, lots)."
            )),
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            TieBreaks::Fide => "fide",
            TieBreaks::Sb => "sb",
        }
    }

    /// "Level on points: direct encounter ..., then lots." for the description.
    pub fn describe(self) -> String {
        let names: Vec<&str> = self.list().iter().map(|t| t.name()).collect();
        let anchor = match self {
            TieBreaks::Fide => " (FIDE's round-robin order, Handbook C.07)",
            TieBreaks::Sb => "",
        };
        format!(
            "Level on points{anchor}: {}, then lots drawn with the league's seed",
            names.join(", then ")
        )
    }
}

/// What leaving a league does to the standings (`withdrawal:`, T44).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Withdrawal {
    /// FIDE: the results of a player who played under half of their games
    /// are annulled (none of their games count, for anyone); otherwise the
    /// games they had left are lost by forfeit.
    #[default]
    Fide,
    /// ICCF: the games left are lost by forfeit; the ones played stand.
    Iccf,
}

impl Withdrawal {
    pub fn parse(v: &str) -> Result<Withdrawal, String> {
        match v.trim().to_ascii_lowercase().as_str() {
            "fide" => Ok(Withdrawal::Fide),
            "iccf" => Ok(Withdrawal::Iccf),
            other => Err(format!(
                "withdrawal:{other} is not a withdrawal rule: fide (under half played: results annulled) or iccf (the games left are lost)."
            )),
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Withdrawal::Fide => "fide",
            Withdrawal::Iccf => "iccf",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Withdrawal::Fide => "A player who leaves having played under half of their games has their results annulled; otherwise their games left are lost (FIDE)",
            Withdrawal::Iccf => "A player who leaves loses the games they had left; those played stand (ICCF)",
        }
    }
}

/// How the entrants get their pairing numbers, which decide who is at home
/// (seat 0, the first move) in which game (`numbers:`, T33).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Numbers {
    /// Drawn by lot with the league's seed.
    #[default]
    Lot,
    /// By rating in the league's game, highest first (unrated people last,
    /// in the order of `players:`).
    Rating,
    /// The order of `players:` (every league made before format 2).
    Listed,
}

impl Numbers {
    pub fn parse(v: &str) -> Result<Numbers, String> {
        match v.trim().to_ascii_lowercase().as_str() {
            "lot" | "lots" => Ok(Numbers::Lot),
            "rating" => Ok(Numbers::Rating),
            "listed" | "players" => Ok(Numbers::Listed),
            other => Err(format!(
                "numbers:{other} is not a way to give pairing numbers: lot, rating or listed."
            )),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Numbers::Lot => "pairing numbers drawn by lot",
            Numbers::Rating => "pairing numbers by rating",
            Numbers::Listed => "pairing numbers in the order of players:",
        }
    }
}
