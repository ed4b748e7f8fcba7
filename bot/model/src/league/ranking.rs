//! The order of a league's entrants: points, then the league's tie-break
//! list applied in turn to each group still level, then lots (T43).
//!
//! Direct encounter is applied as FIDE's Handbook C.07 says for round robins:
//! among the entrants level on points, the points each scored in the games
//! among them alone; when that splits the group but leaves smaller groups
//! level, it is applied again inside each of them (the games among the
//! members of that smaller group only), until it separates nobody more. Only
//! then does the next tie-break of the list speak, for that group. It is used
//! only when every pair of the group has played all its games together
//! (while a league is being played, some have not met yet; then the group
//! goes on to the next tie-break).

use super::rules::TieBreak;
use super::scores::Scores;

/// The entrants `active` from first to last, and whether each one's place
/// was decided by lot (level on everything before).
pub fn rank(s: &Scores, list: &[TieBreak], active: &[usize]) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    for group in split_by(active, |e| s.points[e] as u64) {
        for class in order(s, list, group, 0) {
            let by_lot = class.len() > 1;
            let mut class = class;
            class.sort_by_key(|&e| s.lot[e]);
            out.extend(class.into_iter().map(|e| (e, by_lot)));
        }
    }
    out
}

/// The classes of `group` (entrants level on points and on the tie-breaks
/// before `at`), in order, after the tie-breaks from `at` on.
fn order(s: &Scores, list: &[TieBreak], group: Vec<usize>, at: usize) -> Vec<Vec<usize>> {
    if group.len() < 2 || at == list.len() {
        return vec![group];
    }
    if list[at] == TieBreak::Direct {
        if !s.all_met(&group) {
            return order(s, list, group, at + 1);
        }
        let parts = split_by(&group, |e| s.direct(e, &group) as u64);
        if parts.len() == 1 {
            return order(s, list, group, at + 1);
        }
        // Re-applied inside each smaller group it leaves level.
        return parts
            .into_iter()
            .flat_map(|p| order(s, list, p, at))
            .collect();
    }
    let value = |e: usize| match list[at] {
        TieBreak::Wins => s.wins[e] as u64,
        TieBreak::Sonneborn => s.sb[e] as u64,
        TieBreak::Koya => s.koya[e] as u64,
        // Applied above; never reached here.
        TieBreak::Direct => 0,
    };
    split_by(&group, value)
        .into_iter()
        .flat_map(|p| order(s, list, p, at + 1))
        .collect()
}

/// `group` split into runs of equal `key`, the highest first (each run in
/// the order it had in `group`).
fn split_by(group: &[usize], key: impl Fn(usize) -> u64) -> Vec<Vec<usize>> {
    let mut keys: Vec<u64> = group.iter().map(|&e| key(e)).collect();
    keys.sort_unstable_by(|a, b| b.cmp(a));
    keys.dedup();
    keys.into_iter()
        .map(|k| group.iter().copied().filter(|&e| key(e) == k).collect())
        .collect()
}
