//! How many games one user may start that nobody else agreed to (ruling T41).
//!
//! One user once made 1,000 games in 12 seconds: invitations nobody answered, open seats
//! nobody took. Each is a record, a line in every list of the server's games, a reminder
//! and an expiry to schedule. A game another person accepted or joined was wanted by two
//! people and is not limited; a game nobody else is seated in (a lobby still waiting, a game
//! against Tokar alone, a game of `players:1`) costs one person one command, so those are.

use super::lobby::Lobby;
use super::Res;
use tokar_model::record::Phase;

/// The most unfinished games a user may have created that no other person has a seat in.
/// Generous for play (a correspondence player rarely waits on more than a handful of
/// invitations), small enough that one person cannot fill a server's lists.
pub const MAX_UNJOINED_GAMES: usize = 25;

impl Lobby<'_> {
    /// Refuses a `/new` from a user who already has [`MAX_UNJOINED_GAMES`] unfinished games
    /// they created with nobody else seated, naming some of them and how to cancel one.
    pub(super) async fn room_for_a_new_game(&self, user: u64) -> Res<()> {
        let robot = self.t.robot().id;
        let mut alone: Vec<u64> = self
            .t
            .games()
            .records_of_user(user)
            .await?
            .iter()
            .filter(|r| r.creator == user && matches!(r.phase, Phase::Lobby | Phase::Playing))
            .filter(|r| {
                r.members
                    .iter()
                    .all(|m| m.user.id == user || m.user.id == robot)
            })
            .map(|r| r.id)
            .collect();
        if alone.len() < MAX_UNJOINED_GAMES {
            return Ok(());
        }
        alone.sort_unstable();
        let named: Vec<String> = alone.iter().take(5).map(|id| format!("#{id}")).collect();
        Err(format!(
            "You already have {} games that nobody else has joined ({}{}): finish or cancel some \
             before starting another (/resign game:<number> cancels one still waiting for \
             players, or concedes one in play).",
            alone.len(),
            named.join(", "),
            if alone.len() > named.len() {
                ", …"
            } else {
                ""
            }
        )
        .into())
    }
}
