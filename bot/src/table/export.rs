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
//! the seed: `seed=123+4:987` (after 4 actions, seed 987).

use crate::record::{LogAction, Reseed};
use tokar_engine::catalog::{GameKind, Options};

pub const TAG: &str = "tokar1";

pub struct GameExport {
    pub kind: GameKind,
    pub options: Options,
    pub seed: Option<u64>,
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
            t.push_str(&format!("+{}:{}", r.after, r.seed));
        }
        t
    });
    let mut out = format!("{TAG}|{}|{options}|seed={seed}", e.kind.slug());
    for (seat, a) in &e.actions {
        let text = match a {
            LogAction::Play(n) => n.clone(),
            LogAction::Concede => "!concede".into(),
            LogAction::Skip => "!skip".into(),
        };
        out.push_str(&format!("|{seat}:{text}"));
    }
    out
}

pub fn read(text: &str) -> Result<GameExport, String> {
    let bad = |why: &str| format!("Cannot read the game record: {why}.");
    let text = text.trim().trim_matches('`');
    let mut parts = text.split('|');
    if parts.next().map(str::trim) != Some(TAG) {
        return Err(bad(&format!(
            "it must start with '{TAG}|' (copy it whole from /export)"
        )));
    }
    let kind_text = parts.next().ok_or_else(|| bad("the game is missing"))?;
    let kind =
        GameKind::parse(kind_text).ok_or_else(|| bad(&format!("no game called '{kind_text}'")))?;
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
            .ok_or_else(|| bad(&format!("option '{kv}' has no '='")))?;
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
                .parse::<u64>()
                .map_err(|_| bad(&format!("'{n}' is not a seed")))?;
            for p in pieces {
                let r = p
                    .split_once(':')
                    .and_then(|(a, s)| Some((a.parse::<u64>().ok()?, s.parse::<u64>().ok()?)))
                    .ok_or_else(|| bad(&format!("'+{p}' is not a change of seed (+after:seed)")))?;
                reseeds.push(Reseed {
                    after: r.0,
                    seed: r.1,
                });
            }
            Some(seed)
        }
        None => return Err(bad("the seed must be written seed=N or seed=?")),
    };
    let mut actions = Vec::new();
    for (i, a) in parts.enumerate() {
        let (seat, t) = a
            .split_once(':')
            .ok_or_else(|| bad(&format!("action {} ('{a}') has no seat", i + 1)))?;
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
            seed: Some(42),
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
        assert_eq!(back.seed, Some(42));
        assert_eq!(back.actions, e.actions);
        assert!(read("tokar1|chess||seed=?").is_err());
        assert!(read("hello").is_err());
        assert!(read("tokar1|arcana||seed=x").is_err());
        assert!(read("tokar1|arcana||seed=?").unwrap().seed.is_none());
        let e = GameExport {
            reseeds: vec![Reseed { after: 1, seed: 9 }],
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
    }
}
