//! How a rating's uncertainty grows while its player is away (ruling T47).
//!
//! Glicko-2 (Glickman, "Example of the Glicko-2 system", step 6): a player who
//! does not compete in a rating period keeps their rating and volatility, and
//! their deviation grows to `φ' = sqrt(φ² + σ²)`. lichess counts
//! 0.21436 rating periods per day of inactivity and grows the deviation by
//! the elapsed periods `t` as `φ' = sqrt(φ² + t·σ²)` (lila's
//! `glicko2.RatingCalculator`, `ratingPeriodsPerDay`), which takes a settled
//! 60 to about 110 in a year. The crate has one period's step
//! (`glicko2::decay_deviation`) but not a fraction of periods, so the formula
//! is written here; like the crate, the deviation never grows past the
//! starting 350.
//!
//! Weng-Lin (OpenSkill) has no calendar: its variance grows the same share
//! of its start per day as Glicko-2's does under lichess's numbers (the
//! per-day variance `0.21436 · (0.06 · 173.7178)²` over `350²`, times
//! `(25/3)²`), so that both models turn a player provisional again after
//! about as long an absence; it never grows past the starting 25/3.

use super::Rating;
use crate::clock::Millis;
use crate::duration::DAY;

/// Rating periods per day of inactivity (lichess).
pub const PERIODS_PER_DAY: f64 = 0.21436;

/// Glicko-2's scale: rating points per unit of the internal scale.
const GLICKO2_SCALE: f64 = 173.7178;

/// The deviation a rating starts with, which aging never exceeds.
const GLICKO2_START_RD: f64 = 350.0;

/// Weng-Lin's starting uncertainty, which aging never exceeds.
const WENG_LIN_START_SIGMA: f64 = 25.0 / 3.0;

/// The Weng-Lin variance added per day away: Glicko-2's per-day share of its
/// starting variance (at the starting volatility 0.06), of Weng-Lin's start.
fn weng_lin_variance_per_day() -> f64 {
    let glicko2_per_day = PERIODS_PER_DAY * (0.06 * GLICKO2_SCALE).powi(2);
    glicko2_per_day / GLICKO2_START_RD.powi(2) * WENG_LIN_START_SIGMA.powi(2)
}

impl Rating {
    /// The rating after `days` without a rated game: the same value, a wider
    /// deviation.
    pub fn aged_days(self, days: f64) -> Rating {
        if days <= 0.0 || days.is_nan() {
            return self;
        }
        match self {
            Rating::Glicko2 {
                rating,
                deviation,
                volatility,
            } => {
                let phi = deviation / GLICKO2_SCALE;
                let periods = days * PERIODS_PER_DAY;
                let grown = (phi * phi + periods * volatility * volatility).sqrt() * GLICKO2_SCALE;
                Rating::Glicko2 {
                    rating,
                    deviation: grown.min(GLICKO2_START_RD).max(deviation),
                    volatility,
                }
            }
            Rating::WengLin {
                rating,
                uncertainty,
            } => {
                let grown = (uncertainty * uncertainty + days * weng_lin_variance_per_day()).sqrt();
                Rating::WengLin {
                    rating,
                    uncertainty: grown.min(WENG_LIN_START_SIGMA).max(uncertainty),
                }
            }
        }
    }

    /// The rating at `now` of one last rated at `last` (`None`: no date kept,
    /// a rating stored before ratings aged, which ages from its next game).
    pub fn aged(self, last: Option<Millis>, now: Millis) -> Rating {
        match last {
            Some(last) => self.aged_days(now.saturating_sub(last) as f64 / DAY as f64),
            None => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lichess's formula for a settled player (RD 60, volatility 0.06) away
    /// 365 days: t = 365 · 0.21436 = 78.2414 periods,
    /// φ' = sqrt((60/173.7178)² + 78.2414 · 0.06²) · 173.7178 = 110.0008.
    /// The returning player is provisional again (RD above 110).
    #[test]
    fn deviation_after_365_idle_days_follows_lichess() {
        let settled = Rating::Glicko2 {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        assert!(!settled.provisional());
        let back = settled.aged(Some(0), 365 * DAY);
        let Rating::Glicko2 {
            rating, deviation, ..
        } = back
        else {
            panic!("{back:?}")
        };
        assert_eq!(rating, 1800.0);
        assert!((deviation - 110.0008).abs() < 1.0, "{deviation}");
        assert!((deviation - 110.0008).abs() < 0.001, "{deviation}");
        assert!(back.provisional(), "{back:?}");
        // A month away leaves a settled player settled; years reach the start, no further.
        assert!(!settled.aged(Some(0), 30 * DAY).provisional());
        let Rating::Glicko2 { deviation, .. } = settled.aged(Some(0), 20 * 365 * DAY) else {
            unreachable!()
        };
        assert_eq!(deviation, 350.0);
        // Without a date (a rating stored before ratings aged), it stands.
        assert_eq!(settled.aged(None, 365 * DAY), settled);
    }

    /// Weng-Lin ages by the same share of its start: a settled sigma of 3.5
    /// turns provisional (above 4.0) after a year away, not after a month.
    #[test]
    fn weng_lin_ages_as_glicko2_does() {
        let settled = Rating::WengLin {
            rating: 30.0,
            uncertainty: 3.5,
        };
        assert!(!settled.provisional());
        assert!(!settled.aged(Some(0), 30 * DAY).provisional());
        let back = settled.aged(Some(0), 365 * DAY);
        assert!(back.provisional(), "{back:?}");
        assert_eq!(back.value(), 30.0);
        // sqrt(3.5² + 365 · 0.013202) = 4.1318
        let Rating::WengLin { uncertainty, .. } = back else {
            unreachable!()
        };
        assert!((uncertainty - 4.1318).abs() < 0.001, "{uncertainty}");
    }
}
