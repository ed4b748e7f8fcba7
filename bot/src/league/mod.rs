//! Round-robin leagues: what is stored ([`record`]), who plays whom
//! ([`pairing`]) and the standings ([`standings`]). Pure: the table service
//! (`table/league.rs`) reads and writes them.

pub mod pairing;
pub mod record;
pub mod standings;

pub use record::{decode_league, Entrant, Fixture, LeaguePhase, LeagueRecord, LEAGUE_FORMAT};
pub use standings::{standings, Played, Standings};
