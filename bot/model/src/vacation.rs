//! The vacation budget (ruling T50 in docs/rulings.md), in the manner of chess.com's Daily
//! chess: a player starts with [`START`] of vacation time, earns [`EARNED`] on the 1st and
//! on the 15th of every month (UTC), never holds more than [`CAP`], and each vacation costs
//! at least [`MINIMUM`], charged when it starts. A vacation ends at `/vacation off`, at the
//! player's next `/play`, or when the budget is spent.
//!
//! Everything here is computed from the user record's vacation periods and the time the
//! budget began ([`UserRecord::vacation_budget_since`]): nothing else is stored, so the
//! balance shown, the end of a spent vacation and the clock of every game agree.
//!
//! The calendar (which instants are the 1st and the 15th) comes from `chrono`, already in
//! the build for backups' names.

use crate::clock::Millis;
use crate::duration::DAY;
use crate::record::UserRecord;
use chrono::{Datelike, TimeZone, Utc};

/// The vacation time a player has when the budget begins (chess.com gives new accounts 7 days).
pub const START: Millis = 7 * DAY;
/// Earned on the 1st and on the 15th of each month: 2 days a month, 24 a year.
pub const EARNED: Millis = DAY;
/// The most a player holds: a year's earnings and the start, rounded (chess.com's basic 30).
pub const CAP: Millis = 30 * DAY;
/// The least one vacation costs, however short, so that switching it on for an hour
/// before each deadline is not free.
pub const MINIMUM: Millis = DAY;

/// When the budget began: the stored time, or for a record from before budgets whose
/// vacation is still open, that vacation's start (it is charged from then).
pub fn since(user: &UserRecord) -> Option<Millis> {
    user.vacation_budget_since
        .or_else(|| match user.vacations.last() {
            Some(&(s, None)) => Some(s),
            _ => None,
        })
}

/// What a vacation `(s, e)` has cost by time `t`: nothing before it starts, then at least
/// [`MINIMUM`], then its length.
fn cost_by(v: (Millis, Option<Millis>), t: Millis) -> i64 {
    let (s, e) = v;
    if t < s {
        return 0;
    }
    let end = e.unwrap_or(t).min(t);
    end.saturating_sub(s).max(MINIMUM) as i64
}

/// The instants in `(from, to]` at which [`EARNED`] is added: 00:00 UTC on each 1st and 15th.
fn accruals(from: Millis, to: Millis) -> Vec<Millis> {
    let mut out = Vec::new();
    let Some(start) = Utc.timestamp_millis_opt(from as i64).single() else {
        return out;
    };
    let (mut y, mut m) = (start.year(), start.month());
    loop {
        for day in [1, 15] {
            let Some(at) = Utc.with_ymd_and_hms(y, m, day, 0, 0, 0).single() else {
                return out;
            };
            let at = at.timestamp_millis() as Millis;
            if at > to {
                return out;
            }
            if at > from {
                out.push(at);
            }
        }
        (y, m) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    }
}

/// The vacation time left at `t`, in milliseconds (negative once an open vacation has run
/// past the end of its budget; [`runs_out`] says when that was).
pub fn balance_at(user: &UserRecord, t: Millis) -> i64 {
    let Some(since) = since(user) else {
        return START as i64;
    };
    let charged: Vec<_> = user
        .vacations
        .iter()
        .copied()
        .filter(|v| v.0 >= since)
        .collect();
    let used = |x: Millis| -> i64 { charged.iter().map(|&v| cost_by(v, x)).sum() };
    let mut bal = START as i64;
    let mut spent = 0;
    for a in accruals(since, t) {
        let by_then = used(a);
        bal -= by_then - spent;
        spent = by_then;
        bal = (bal + EARNED as i64).min(CAP as i64);
    }
    bal - (used(t) - spent)
}

/// When the open vacation (if any) spends the last of the budget.
pub fn runs_out(user: &UserRecord) -> Option<Millis> {
    let &(s, None) = user.vacations.last()? else {
        return None;
    };
    // The first day is charged at the start; from then on it costs its length.
    let mut t = s + MINIMUM;
    loop {
        let left = balance_at(user, t);
        if left <= 0 {
            return Some(t);
        }
        let at = t + left as Millis;
        match accruals(t, at).first() {
            None => return Some(at),
            Some(&a) => t = a,
        }
    }
}

/// Ends an open vacation whose budget ran out by `now`, at the moment it ran out. Whether it
/// did.
pub fn close_if_spent(user: &mut UserRecord, now: Millis) -> bool {
    match runs_out(user) {
        Some(out) if out <= now => {
            user.vacation_budget_since = since(user);
            if let Some(v) = user.vacations.last_mut() {
                v.1 = Some(out);
            }
            true
        }
        _ => false,
    }
}

/// The vacation time left at `now`, never below zero.
pub fn left(user: &UserRecord, now: Millis) -> Millis {
    balance_at(user, now).max(0) as Millis
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duration::HOUR;
    use crate::record::Named;

    /// 2026-01-02 00:00 UTC.
    const JAN_2: Millis = 1_767_312_000_000;

    fn user() -> UserRecord {
        UserRecord::new(Named {
            id: 1,
            name: "bob".into(),
        })
    }

    #[test]
    fn the_budget_starts_with_seven_days_and_earns_two_a_month_up_to_thirty() {
        let mut u = user();
        assert_eq!(left(&u, JAN_2), START, "before any vacation");
        u.vacation_budget_since = Some(JAN_2);
        assert_eq!(left(&u, JAN_2), 7 * DAY);
        // Jan 15, Feb 1, Feb 15.
        assert_eq!(left(&u, JAN_2 + 45 * DAY), 10 * DAY);
        // A year and more: 7 + 24 would be 31, capped at 30.
        assert_eq!(left(&u, JAN_2 + 400 * DAY), CAP);
    }

    #[test]
    fn each_vacation_costs_at_least_a_day_and_an_open_one_ends_when_spent() {
        let mut u = user();
        u.vacation_budget_since = Some(JAN_2);
        u.vacations.push((JAN_2, Some(JAN_2 + 1000)));
        assert_eq!(left(&u, JAN_2 + 2000), 6 * DAY, "one second costs a day");
        u.vacations.push((JAN_2 + 2000, None));
        // 6 days left at the start, one more earned on Jan 15 (day 13 since Jan 2).
        let out = runs_out(&u).unwrap();
        assert_eq!(out, JAN_2 + 2000 + 6 * DAY, "spent before the 15th");
        assert!(!close_if_spent(&mut u, out - 1));
        assert!(close_if_spent(&mut u, out + DAY));
        assert_eq!(u.vacations.last().unwrap().1, Some(out));
        assert_eq!(left(&u, out + HOUR), 0);
        assert_eq!(left(&u, JAN_2 + 14 * DAY), DAY, "the 15th's day");
    }

    #[test]
    fn a_day_earned_during_a_vacation_extends_it() {
        let mut u = user();
        u.vacation_budget_since = Some(JAN_2);
        u.vacations.push((JAN_2 + 10 * DAY, None));
        // 7 days from Jan 12: the 15th falls within and adds a day.
        assert_eq!(runs_out(&u), Some(JAN_2 + 18 * DAY));
    }

    /// User records written before budgets (no `vacation_budget_since`) still load.
    #[test]
    fn a_user_record_from_before_budgets_loads() {
        let old = br#"{"format":2,"user":{"id":5,"name":"bob"},"reminder":86400000,"deadline":604800000,"vacations":[[1767312000000,null]]}"#;
        let u = crate::record::decode_user(old).unwrap();
        assert_eq!(u.vacation_budget_since, None);
        assert_eq!(since(&u), Some(JAN_2));
        assert_eq!(runs_out(&u), Some(JAN_2 + 7 * DAY));
    }

    /// Play options written before `vacation` and `bound_to_record` read as every game
    /// was then: vacations allowed, not bound to a record.
    #[test]
    fn play_options_from_before_load_with_vacations() {
        let p: crate::record::PlayOptions =
            serde_json::from_str(r#"{"level":"Normal","hints":true}"#).unwrap();
        assert!(p.vacation && !p.bound_to_record && p.hints);
        let back = serde_json::to_string(&p).unwrap();
        assert_eq!(back, r#"{"level":"Normal","hints":true}"#, "the same shape");
    }

    #[test]
    fn an_open_vacation_from_before_budgets_is_charged_from_its_start() {
        let mut u = user();
        u.vacations.push((JAN_2 + 20 * DAY, Some(JAN_2 + 22 * DAY)));
        u.vacations.push((JAN_2 + 100 * DAY, None));
        assert_eq!(since(&u), Some(JAN_2 + 100 * DAY));
        assert!(close_if_spent(&mut u, JAN_2 + 205 * DAY));
        let (s, e) = *u.vacations.last().unwrap();
        assert!(e.unwrap() - s < 10 * DAY, "{}", e.unwrap() - s);
    }
}
