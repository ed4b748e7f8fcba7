//! Round-robin leagues: what is stored ([`record`]), the rules a league is
//! judged by ([`rules`]), who plays whom ([`pairing`]), the standings
//! ([`standings`], from the figures of [`scores`] ordered by [`ranking`]).
//! Pure: the table service reads and writes them, and lays out the
//! crosstable picture from them.

pub mod pairing;
pub mod ranking;
pub mod record;
pub mod rules;
pub mod scores;
pub mod standings;

pub use record::{decode_league, Entrant, Fixture, LeaguePhase, LeagueRecord, LEAGUE_FORMAT};
pub use standings::{standings, Played, Rules, Standings};
