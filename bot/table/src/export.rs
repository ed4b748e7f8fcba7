//! The game record players export and create new games from: one line,
//!
//! `tokar1|arcana|army.0=human,army.1=undead|seed=123|0:b1-c3|1:e7-e6|0:!concede`
//!
//! the format tag, the game, its options, the seed (`?` while the game is
//! being played: the seed would reveal the future dice), then each action as
//! seat:notation (`!concede` and `!skip` for a seat leaving or being skipped).
//!
//! A game that went on from a record changed its seed after the record's
//! actions (ruling T13); its finished record says where and to what, after
//! the seed: `seed=123+4:987` (after 4 actions, seed 987). A game begun before
//! ChaCha20 was given a new key at its first later action (engine/rules/chance.md),
//! written with `~`: `seed=123+40~chacha20:…` (after 40 actions, only the generator
//! replaced).
//!
//! A seed is written as the game's record holds it ([`Seed`]'s text): a number for
//! games stored before ChaCha20 (SplitMix64, replayed as they always were), and
//! `chacha20:` with 64 hex digits, the game's 256-bit key, for every game since:
//! `seed=chacha20:9f0c…+4:chacha20:31aa…`. Either replays the finished game exactly.

use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::{Seat, Seed, Viewer};
use tokar_model::quote::excerpt;
use tokar_model::record::{LogAction, Reseed, ReseedKind};

pub const TAG: &str = "tokar1";

pub struct GameExport {
    pub kind: GameKind,
    pub options: Options,
    pub seed: Option<Seed>,
    /// Where the seed changed (written only with the seed).
    pub reseeds: Vec<Reseed>,
    pub actions: Vec<(u8, LogAction)>,
}

pub fn write(e: &GameExport) -> String {
    let options = e
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",");
    let seed = e.seed.map_or("?".to_string(), |s| {
        let mut t = s.to_string();
        for r in &e.reseeds {
            let mark = match r.kind {
                ReseedKind::Redraw => ':',
                ReseedKind::Rekey => '~',
            };
            t.push_str(&format!("+{}{mark}{}", r.after, r.seed));
        }
        t
    });
    let mut out = format!("{TAG}|{}|{options}|seed={seed}", e.kind.slug());
    for (seat, a) in &e.actions {
        out.push_str(&format!("|{seat}:{}", notation(a)));
    }
    out
}

/// `4:seed` (a redraw, T13) or `4~seed` (a rekey), as [`write`] writes them.
fn change_of_seed(text: &str) -> Option<Reseed> {
    let digits = text.find(|c: char| !c.is_ascii_digit())?;
    let (after, rest) = text.split_at(digits);
    let kind = match rest.chars().next()? {
        ':' => ReseedKind::Redraw,
        '~' => ReseedKind::Rekey,
        _ => return None,
    };
    Some(Reseed {
        after: after.parse().ok()?,
        seed: rest[1..].parse().ok()?,
        kind,
    })
}

pub fn read(text: &str) -> Result<GameExport, String> {
    let bad = |why: &str| format!("Cannot read the game record: {why}.");
    // As pasted: from a code span, or quoted whole as /export writes it for the console.
    let text = text
        .trim()
        .trim_matches('`')
        .trim_matches(|c| c == '"' || c == '\'');
    let mut parts = text.split('|');
    if parts.next().map(str::trim) != Some(TAG) {
        return Err(bad(&format!(
            "it must start with '{TAG}|' (copy it whole from /export)"
        )));
    }
    let kind_text = parts.next().ok_or_else(|| bad("the game is missing"))?;
    let kind = GameKind::parse(kind_text)
        .ok_or_else(|| bad(&format!("no game called '{}'", excerpt(kind_text))))?;
    let mut options = Options::new();
    for kv in parts
        .next()
        .ok_or_else(|| bad("the options are missing"))?
        .split(',')
    {
        if kv.trim().is_empty() {
            continue;
        }
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| bad(&format!("option '{}' has no '='", excerpt(kv))))?;
        options.insert(k.trim().to_string(), v.trim().to_string());
    }
    let seed_text = parts.next().ok_or_else(|| bad("the seed is missing"))?;
    let mut reseeds = Vec::new();
    let seed = match seed_text.trim().strip_prefix("seed=") {
        Some("?") => None,
        Some(text) => {
            let mut pieces = text.split('+');
            let n = pieces.next().unwrap_or_default();
            let seed = n
                .parse::<Seed>()
                .map_err(|_| bad(&format!("'{}' is not a seed", excerpt(n))))?;
            for p in pieces {
                let r = change_of_seed(p).ok_or_else(|| {
                    bad(&format!(
                        "'+{}' is not a change of seed (+after:seed or +after~seed)",
                        excerpt(p)
                    ))
                })?;
                reseeds.push(r);
            }
            Some(seed)
        }
        None => return Err(bad("the seed must be written seed=N or seed=?")),
    };
    let mut actions = Vec::new();
    for (i, a) in parts.enumerate() {
        let (seat, t) = a
            .split_once(':')
            .ok_or_else(|| bad(&format!("action {} ('{}') has no seat", i + 1, excerpt(a))))?;
        let seat: u8 = seat
            .trim()
            .parse()
            .map_err(|_| bad(&format!("action {} has no seat number", i + 1)))?;
        let action = match t.trim() {
            "!concede" => LogAction::Concede,
            "!skip" => LogAction::Skip,
            n => LogAction::Play(n.to_string()),
        };
        actions.push((seat, action));
    }
    if reseeds.windows(2).any(|w| w[0].after > w[1].after)
        || reseeds.iter().any(|r| r.after > actions.len() as u64)
    {
        return Err(bad(
            "its changes of seed must come in order, each after at most all its actions",
        ));
    }
    Ok(GameExport {
        kind,
        options,
        seed,
        reseeds,
        actions,
    })
}

/// Replays a record's actions as the game created from it will, so that a record that cannot
/// be replayed is refused at /new, when its creator can still fix it, and not when the last
/// player joins.
///
/// A record exported from a game in play carries no seed (`seed=?`). Its actions can be
/// replayed only if chance decided nothing in them: the record is replayed under two
/// different seeds side by side, and if any seat would see anything differently (a die, a
/// card, an action that applies under one seed only), the record is refused.
pub fn check(e: &GameExport) -> Result<(), String> {
    if e.actions.is_empty() {
        return Ok(());
    }
    let seeds: Vec<Seed> = match &e.seed {
        Some(s) => vec![*s],
        None => vec![Seed::SplitMix64(0x5EED_0001), Seed::SplitMix64(0x5EED_0002)],
    };
    let mut games = seeds
        .iter()
        .map(|&s| AnyGame::setup(e.kind, &e.options, s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| format!("The record cannot be replayed: {err}."))?;
    let secret = || {
        "The record was exported while its game was being played, and chance (who moves \
         first, dice, cards) shaped its actions; the game's seed stays secret until it ends, \
         so the record cannot be replayed. Export it again once the game is over."
            .to_string()
    };
    for (i, (seat, action)) in e.actions.iter().enumerate() {
        for g in games.iter_mut() {
            for r in e.reseeds.iter().filter(|r| r.after == i as u64) {
                r.apply(g);
            }
        }
        if games.len() > 1 && !same_views(&games) {
            return Err(secret());
        }
        let results: Vec<Result<(), String>> =
            games.iter_mut().map(|g| apply(g, *seat, action)).collect();
        match results.iter().find_map(|r| r.as_ref().err()) {
            None => {}
            Some(_) if results.iter().any(Result::is_ok) => return Err(secret()),
            Some(why) => {
                return Err(format!(
                    "The record cannot be replayed: action {} ({seat}:{}) does not apply: {}",
                    i + 1,
                    excerpt(notation(action)),
                    // The engine's reason may quote the action's words.
                    excerpt_words(why.trim_end_matches('.'), notation(action))
                ));
            }
        }
    }
    if games.len() > 1 && !same_views(&games) {
        return Err(secret());
    }
    Ok(())
}

/// Whether every seat (and a spectator) sees the same in each of `games`.
fn same_views(games: &[AnyGame]) -> bool {
    let first = &games[0];
    let viewers = (0..first.seat_count())
        .map(|s| Viewer::Seat(Seat(s as u8)))
        .chain([Viewer::Spectator]);
    viewers
        .into_iter()
        .all(|v| games[1..].iter().all(|g| g.view(v) == first.view(v)))
}

fn apply(game: &mut AnyGame, seat: u8, action: &LogAction) -> Result<(), String> {
    if usize::from(seat) >= game.seat_count() {
        return Err(format!(
            "the game has no seat {seat} (seats 0 to {})",
            game.seat_count().saturating_sub(1)
        ));
    }
    let seat = Seat(seat);
    match action {
        LogAction::Play(n) => game.play(seat, n).map(drop).map_err(|e| e.to_string()),
        LogAction::Concede => {
            game.concede(seat);
            Ok(())
        }
        LogAction::Skip => game.skip(seat).map(drop).map_err(|e| e.to_string()),
    }
}

/// `why` with the long words of `action` it quotes cut to their excerpts.
fn excerpt_words(why: &str, action: &str) -> String {
    tokar_model::quote::bound_quotes(why.to_string(), "", &[(String::new(), action.to_string())])
}

fn notation(a: &LogAction) -> &str {
    match a {
        LogAction::Play(n) => n,
        LogAction::Concede => "!concede",
        LogAction::Skip => "!skip",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back() {
        let mut options = Options::new();
        options.insert("army.0".into(), "human".into());
        let e = GameExport {
            kind: GameKind::Arcana,
            options,
            seed: Some(Seed::SplitMix64(42)),
            reseeds: Vec::new(),
            actions: vec![
                (0, LogAction::Play("b1-c3".into())),
                (1, LogAction::Concede),
            ],
        };
        let text = write(&e);
        assert_eq!(
            text,
            "tokar1|arcana|army.0=human|seed=42|0:b1-c3|1:!concede"
        );
        let back = read(&text).unwrap();
        assert_eq!(back.kind, GameKind::Arcana);
        assert_eq!(back.seed, Some(Seed::SplitMix64(42)));
        assert_eq!(back.actions, e.actions);
        assert!(read("tokar1|chess||seed=?").is_err());
        assert!(read("hello").is_err());
        assert!(read("tokar1|arcana||seed=x").is_err());
        assert!(read("tokar1|arcana||seed=?").unwrap().seed.is_none());
        let e = GameExport {
            reseeds: vec![Reseed::redraw(1, Seed::SplitMix64(9))],
            ..e
        };
        let text = write(&e);
        assert_eq!(
            text,
            "tokar1|arcana|army.0=human|seed=42+1:9|0:b1-c3|1:!concede"
        );
        assert_eq!(read(&text).unwrap().reseeds, e.reseeds);
        assert!(
            read("tokar1|arcana||seed=4+1:2").is_err(),
            "after its actions"
        );
        assert!(read("tokar1|arcana||seed=4+x|0:b1-c3").is_err());
        // A ChaCha20 game's seed and re-seed, as every game since format 2 has them.
        let key = |b: u8| Seed::ChaCha20([b; 32]);
        let e = GameExport {
            seed: Some(key(0xab)),
            reseeds: vec![
                Reseed::redraw(1, key(0x01)),
                Reseed {
                    after: 2,
                    seed: key(0x02),
                    kind: ReseedKind::Rekey,
                },
            ],
            ..e
        };
        let text = write(&e);
        assert!(
            text.starts_with(&format!(
                "tokar1|arcana|army.0=human|seed=chacha20:{}+1:chacha20:{}+2~chacha20:{}|0:b1-c3",
                "ab".repeat(32),
                "01".repeat(32),
                "02".repeat(32)
            )),
            "{text}"
        );
        let back = read(&text).unwrap();
        assert_eq!((back.seed, back.reseeds), (e.seed, e.reseeds));
        let bad = read(&format!(
            "tokar1|arcana||seed=chacha20:{}|0:b1-c3",
            "g".repeat(64)
        ));
        assert!(
            bad.err().unwrap().len() < 120,
            "a refusal quotes a short excerpt"
        );
        assert!(read("tokar1|arcana||seed=chacha20:abc|0:b1-c3").is_err());
    }
}
