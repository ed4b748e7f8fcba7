//! Interaction claims: each Discord interaction is run by one process only.
//!
//! "You can establish multiple sessions with the same `[shard_id,
//! num_shards]`, or sessions with different `num_shards` values ... to
//! orchestrate "zero-downtime" scaling/updating" ("Sharding",
//! developers/events/gateway.mdx). The docs do not say which of those sessions
//! an event goes to; Tokar assumes every one of them may receive it. So two
//! Tokar processes with overlapping `TOKAR_SHARD_RANGE`s, or the old and the
//! new process of a blue/green deploy, may both receive one slash command or
//! button click. Before it runs one, a process claims the interaction's id
//! here; the process that finds it claimed does nothing with it (the claimant
//! answers it).
//!
//! A claim is an insert-if-absent in one transaction: sled's and PostgreSQL's
//! (`SERIALIZABLE`) transactions both refuse one of two that read the key
//! absent and write it, and the refused one, run again, finds it present. The
//! transaction is flushed before it returns, as every write: a claim that did
//! not reach the disk could be lost with the process while the command it
//! guards went on being answered by another.
//!
//! Claims are kept a day, then pruned: an interaction's token lives 15 minutes
//! ("Interaction tokens are valid for 15 minutes",
//! developers/interactions/receiving-and-responding.mdx), after which Discord
//! no longer sends or accepts anything about it, so a day is far past the last
//! moment a second session could still receive it.
//!
//! | key | value |
//! | --- | --- |
//! | `i` interaction id | version 1, claimed at (8 bytes, ms), owner (8 bytes) |
//! | `I` claimed at, interaction id | nothing: the claims in the order they were made, for pruning |

use super::kv::{transaction, MAIN};
use super::{key, tail_u64, Store, StoreError};
use tokar_model::clock::Millis;

/// How long a claim is kept: a day, far past an interaction token's 15 minutes.
pub const CLAIM_KEPT: Millis = 24 * 60 * 60 * 1000;

/// The format of a claim's value.
const VERSION: u8 = 1;

/// A stored claim, as read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// When it was made (the claimant's table clock).
    pub at: Millis,
    /// The claimant (a number each process draws at its start).
    pub owner: u64,
}

fn claim_key(id: u64) -> Vec<u8> {
    key(b'i', &[id])
}

fn order_key(at: Millis, id: u64) -> Vec<u8> {
    key(b'I', &[at, id])
}

/// A claim's value. Any value, in this format or a later one, means the id is
/// claimed; the fields are read only to tell the operator who claimed it.
fn decode(bytes: &[u8]) -> Option<Claim> {
    if bytes.first() != Some(&VERSION) {
        return None;
    }
    let at = u64::from_be_bytes(bytes.get(1..9)?.try_into().ok()?);
    let owner = u64::from_be_bytes(bytes.get(9..17)?.try_into().ok()?);
    Some(Claim { at, owner })
}

impl Store {
    /// Claims interaction `id` for `owner` at `now`: true when this call
    /// claimed it, false when it was claimed before (by anyone, this owner
    /// too: an interaction runs once). Durable when it returns.
    pub fn claim_interaction(&self, id: u64, owner: u64, now: Millis) -> Result<bool, StoreError> {
        let k = claim_key(id);
        let mut value = vec![VERSION];
        value.extend_from_slice(&now.to_be_bytes());
        value.extend_from_slice(&owner.to_be_bytes());
        let order = order_key(now, id);
        transaction(self.kv(), |tx| {
            if tx.get(MAIN, &k)?.is_some() {
                return Ok(false);
            }
            tx.insert(MAIN, &k, &value)?;
            tx.insert(MAIN, &order, &[])?;
            Ok(true)
        })
    }

    /// The claim on interaction `id`, if any. A claim whose value this
    /// version cannot read (a later format) is reported with `at` and `owner`
    /// zero: it still holds.
    pub fn interaction_claim(&self, id: u64) -> Result<Option<Claim>, StoreError> {
        Ok(self
            .kv()
            .get(MAIN, &claim_key(id))?
            .map(|v| decode(&v).unwrap_or(Claim { at: 0, owner: 0 })))
    }

    /// Removes at most `limit` claims made before `before`, oldest first, and
    /// says how many it removed. Each claim's key goes before its order key,
    /// so a stop midway leaves at worst an order key without its claim, which
    /// the next pruning removes; never a claim that nothing would prune.
    pub fn prune_claims(&self, before: Millis, limit: usize) -> Result<usize, StoreError> {
        let start = [b'I'];
        let end = key(b'I', &[before]);
        let old = self.kv().range_keys(MAIN, &start, Some(&end), limit)?;
        let mut keys = Vec::with_capacity(old.len() * 2);
        for k in &old {
            if k.len() != 17 {
                // Not an order key of this format; left alone.
                continue;
            }
            keys.push(claim_key(tail_u64(k)));
            keys.push(k.clone());
        }
        let n = keys.len() / 2;
        if !keys.is_empty() {
            self.kv().remove_each(MAIN, &keys)?;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_reads_back_and_an_unknown_format_still_counts() {
        let mut v = vec![VERSION];
        v.extend_from_slice(&5u64.to_be_bytes());
        v.extend_from_slice(&7u64.to_be_bytes());
        assert_eq!(decode(&v), Some(Claim { at: 5, owner: 7 }));
        assert_eq!(decode(&[2, 0]), None);
        assert_eq!(decode(&[]), None);
        assert_eq!(decode(&v[..10]), None);
    }

    #[test]
    fn order_keys_sort_by_time_then_id() {
        assert!(order_key(1, 9) < order_key(2, 0));
        assert!(order_key(2, 0) < order_key(2, 1));
        assert!(order_key(u64::MAX - 1, 0) < key(b'I', &[u64::MAX]));
    }
}
