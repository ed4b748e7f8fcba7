//! The rules for people, by topic (`/rules arachne <topic>`).

use super::layout::{Kind, WebLayout};
use super::{
    CaptureRules, BLADEMASTER_REACH, GRUNT_BONUS, MATRON_REACH, REPETITION_DRAW, SPIDERS_EYES,
    WIZARD_JUMP,
};
use crate::spelling::did_you_mean;

/// Every topic by the name the overview lists it under.
const TOPICS: [&str; 12] = [
    "matron",
    "priestess",
    "wizard",
    "blademaster",
    "grunt",
    "capture",
    "turncoat",
    "punishment",
    "web",
    "strategist",
    "convenient",
    "original",
];

/// The letter of spoke `s` (0 = `a`).
fn spoke(s: u8) -> char {
    (b'a' + s) as char
}

/// "fourth": the occurrence that draws, as the overview says it.
fn ordinal(n: usize) -> String {
    ["first", "second", "third", "fourth", "fifth", "sixth"]
        .get(n.wrapping_sub(1))
        .map(|w| w.to_string())
        .unwrap_or_else(|| format!("{n}th"))
}

/// Black's spokes: White's turned half a revolution (as `WebLayout::setup`).
fn black_spokes(web: &WebLayout) -> Vec<u8> {
    web.zone_spokes
        .iter()
        .map(|&s| (s + web.spokes / 2) % web.spokes)
        .collect()
}

/// The overview. Its numbers come from what the game plays: the web and the
/// zones from [`WebLayout::STANDARD`], the turncoat's throw, the repetition
/// that draws (engine/tests/rule_texts_arachne.rs).
fn overview() -> String {
    let web = WebLayout::STANDARD;
    let first = web.zone_spokes.first().copied().unwrap_or(0);
    let last = web.zone_spokes.last().copied().unwrap_or(0);
    let lo = web.zone_rings.iter().min().copied().unwrap_or(0);
    let hi = web.zone_rings.iter().max().copied().unwrap_or(0);
    let black: Vec<String> = black_spokes(&web)
        .into_iter()
        .map(|s| spoke(s).to_string())
        .collect();
    let [x, y] = SPIDERS_EYES;
    format!(
        "\
**Arachne**: two armies of dark elves on a spider web. Capture the opposing Matron to win.
The web has {spokes} spokes (a-{last_spoke}, a at the top, clockwise) and {rings} rings (1 innermost) around a hub: spaces are named like c3, and hub. \
White starts on spokes {first}-{last}, rings {lo}-{hi}; Black on {black}. White moves first.
Pieces move along a ring (both ways, round and round) or along a spoke (in, through the hub to the opposite spoke, and out). \
Connected spaces are those one strand away: two on the ring, one in and one out on the spoke (the hub is connected to every space of ring 1).
Each turn begins with two dice. On spiders' eyes ({x}+{y}) you may instead move one opposing piece as a *turncoat* and capture with it, but never its Matron.
A piece that ends its move next to a piece straight ahead may capture it and follows up into its space; the Wizard captures around himself. \
You may also capture without moving: any connected piece. Punishment: capture your own piece of lower rank; it always succeeds and counts as lost to the opponent.
The same position (pieces and side to move) for the {nth} time draws.
Notation: e3-e2 (e3e2 and e3 e2 read the same), g5-g2 xg1, e3 xe2, e5-d5-c5-c4 xb4 (Wizard), f3-f2=w (promotion), turncoat d4-d2 xd1, end (Blademaster), pass (only when nothing is possible).
Topics: {topics}.",
        spokes = web.spokes,
        last_spoke = spoke(web.spokes - 1),
        rings = web.rings,
        first = spoke(first),
        last = spoke(last),
        black = black.join(", "),
        nth = ordinal(REPETITION_DRAW),
        topics = TOPICS.join(", "),
    )
}

fn matron() -> String {
    format!(
        "\
**Matron** (rank {}): moves up to {MATRON_REACH} spaces in one direction. She may pass over pieces of her colour but not the opponent's, and ends on an empty space. \
She captures the piece next to her end space in the same direction (or any connected piece without moving). Lose her and you lose the game. \
A turncoat may move her, but she can never be captured by a turncoat.",
        Kind::Matron.rank()
    )
}

fn priestess() -> String {
    format!(
        "\
**Priestess** (rank {}): moves any number of empty spaces in one direction (round a ring, or along a spoke through the hub). \
She captures the piece next to her end space in the same direction, or any connected piece without moving.",
        Kind::Priestess.rank()
    )
}

fn wizard() -> String {
    format!(
        "\
**Wizard** (rank {}): either moves 1 space and may capture a piece on any space connected to where he ends, following up into its space (e5-e4 xf4); \
or moves exactly {WIZARD_JUMP} spaces along strands, turning as he likes and crossing occupied spaces, never visiting a space twice, ending on an empty space, \
and may capture a piece connected to where he ends without following up (e5-d5-c5-c4 xb4). Any path to the same end reads the same.",
        Kind::Wizard.rank()
    )
}

fn blademaster() -> String {
    format!(
        "\
**Blademaster** (rank {}): moves twice in a turn, up to {BLADEMASTER_REACH} empty spaces in one direction each time; he may turn between the moves. \
After each move he may capture the piece next to him in the direction he moved. After the first move you owe a second decision: \
another move from where he stands (c3-c1, c3-c1 xhub) or end. He may not end his turn where he began it.",
        Kind::Blademaster.rank()
    )
}

/// The Grunts' help in defence (R12), as the Grunt's and the dice
/// variants' pages state it.
fn grunt_help() -> String {
    format!(
        "each of the defender's Grunts connected to the attacked piece adds {GRUNT_BONUS} to the defence, not counting the attacker (a Grunt moved as a turncoat)"
    )
}

fn grunt() -> String {
    format!(
        "\
**Grunt** (rank {}): either moves 1 space toward the closest opposing piece (strands counted, pieces in between do not matter; you choose among equally close pieces and equally short ways), \
or captures a connected piece without moving and follows up (e3 xe2). A Grunt that reaches the start space of the opposing Matron, Priestess or a Wizard may be promoted \
to a piece its side has lost: f3-f2=w, e3 xe2=p. In the dice variants, {}.",
        Kind::Grunt.rank(),
        grunt_help()
    )
}

const CAPTURE: &str = "\
**Capturing**: after a straight move, the piece straight ahead of the end space in the same direction (through the hub too); the Wizard any connected piece. \
Without moving, any piece may capture a connected piece instead of moving. The capturing piece follows up into the emptied space (not the Wizard after his three-space move). \
Whether a capture succeeds depends on the variant; a failed capture leaves the attacker where its move ended.";

fn turncoat() -> String {
    let [x, y] = SPIDERS_EYES;
    format!(
        "\
**Turncoat**: when your turn's dice show spiders' eyes ({x}+{y}) you may, instead of moving your own piece, move any one opposing piece by its rules and capture with it \
a piece of its own colour (never the Matron). Type turncoat before the move: turncoat d4-d2 xd1. A Grunt moved this way moves toward your pieces and is not promoted."
    )
}

const PUNISHMENT: &str = "\
**Punishment**: a piece may capture one of your own pieces of lower rank, by the usual capture geometry. It always succeeds, the punisher follows up, \
and the punished piece counts as captured by the opponent (it can come back by your Grunt's promotion).";

/// The web and the armies, from [`WebLayout::STANDARD`].
fn web() -> String {
    let web = WebLayout::STANDARD;
    let board = web.board();
    let mut rings: Vec<u8> = web.zone_rings.to_vec();
    rings.sort_unstable_by(|a, b| b.cmp(a));
    let rows: Vec<String> = rings
        .iter()
        .map(|&r| {
            let kinds: Vec<&str> = web
                .zone_spokes
                .iter()
                .map(|&s| {
                    web.army
                        .iter()
                        .find(|&&(_, ring, sp)| ring == r && sp == s)
                        .map(|&(k, _, _)| k.name())
                        .unwrap_or("empty")
                })
                .collect();
            format!("ring {r}: {}", kinds.join(", "))
        })
        .collect();
    let back = rings.first().copied().unwrap_or(0);
    // The back row as placed: White's zone, and Black's turned half a revolution.
    let line = |turn: u8| -> String {
        web.army
            .iter()
            .filter(|&&(_, ring, _)| ring == back)
            .filter_map(|&(k, ring, s)| {
                let cell = board.ring_spoke(ring, (s + turn) % web.spokes)?;
                Some(format!("{} {}", board.name(cell), k.letter()))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "\
**The web**: {spokes} spokes (a-{last}) and {rings_n} rings around a hub, {spaces} spaces. Each army fills a sector of {sector} spokes on the {zone} outer rings, \
spoke by spoke clockwise, {rows}. White: {white}; Black: {black}. \
The setup zones are shaded red (White) and blue (Black).",
        spokes = web.spokes,
        last = spoke(web.spokes - 1),
        rings_n = web.rings,
        spaces = board.len(),
        sector = web.zone_spokes.len(),
        zone = web.zone_rings.len(),
        rows = rows.join("; "),
        white = line(0),
        black = line(web.spokes / 2),
    )
}

fn strategist() -> String {
    format!(
        "**The strategist**: every capture succeeds. The dice (d{}) only decide spiders' eyes at the start of each turn.",
        CaptureRules::Strategist.sides()
    )
}

fn convenient() -> String {
    let d = CaptureRules::Convenient.sides();
    format!(
        "\
**The convenient**: a capture is an attack. The attacker rolls 1d{d} + the rank of the capturing piece; the defender 1d{d} + the rank of the targeted piece, \
and {}. Equal or higher: the capture succeeds. Punishment needs no roll. Spiders' eyes on 2d{d}.",
        grunt_help()
    )
}

fn original() -> String {
    let d = CaptureRules::Original.sides();
    format!(
        "**The original** (the default): as the convenient, with d{d} dice for the attacks and for spiders' eyes (1+1 on 2d{d})."
    )
}

pub fn rules(topic: Option<&str>) -> Result<String, String> {
    let Some(topic) = topic else {
        return Ok(overview());
    };
    let t = topic.trim().to_ascii_lowercase();
    let t = t.strip_prefix("the ").unwrap_or(&t);
    let text = match t {
        "" | "overview" | "arachne" => overview(),
        "matron" => matron(),
        "priestess" => priestess(),
        "wizard" | "wizards" | "arachne-wizard" => wizard(),
        "blademaster" | "blademasters" => blademaster(),
        "grunt" | "grunts" | "promotion" => grunt(),
        "capture" | "capturing" | "follow-up" => CAPTURE.into(),
        "turncoat" | "spiders' eyes" | "spiders eyes" | "dice" => turncoat(),
        "punishment" => PUNISHMENT.into(),
        "web" | "board" | "setup" => web(),
        "strategist" => strategist(),
        "convenient" => convenient(),
        "original" => original(),
        other => {
            return Err(format!(
                "Arachne has no rules topic '{other}'.{} Topics: {}.",
                did_you_mean(other, TOPICS),
                TOPICS.join(", ")
            ))
        }
    };
    Ok(text)
}
