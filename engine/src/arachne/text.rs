//! The rules for people, by topic (`/rules arachne <topic>`).

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

const OVERVIEW: &str = "\
**Arachne**: two armies of dark elves on a spider web. Capture the opposing Matron to win.
The web has 12 spokes (a-l, a at the top, clockwise) and 5 rings (1 innermost) around a hub: spaces are named like c3, and hub. \
White starts on spokes e-h, rings 3-5; Black on k, l, a, b. White moves first.
Pieces move along a ring (both ways, round and round) or along a spoke (in, through the hub to the opposite spoke, and out). \
Connected spaces are those one strand away: two on the ring, one in and one out on the spoke (the hub is connected to every space of ring 1).
Each turn begins with two dice. On spiders' eyes (1+1) you may instead move one opposing piece as a *turncoat* and capture with it, but never its Matron.
A piece that ends its move next to a piece straight ahead may capture it and follows up into its space; the Wizard captures around himself. \
You may also capture without moving: any connected piece. Punishment: capture your own piece of lower rank; it always succeeds and counts as lost to the opponent.
The same position (pieces and side to move) for the fourth time draws.
Notation: e3-e2 (e3e2 and e3 e2 read the same), g5-g2 xg1, e3 xe2, e5-d5-c5-c4 xb4 (Wizard), f3-f2=w (promotion), turncoat d4-d2 xd1, end (Blademaster), pass (only when nothing is possible).
Topics: matron, priestess, wizard, blademaster, grunt, capture, turncoat, punishment, web, strategist, convenient, original.";

const MATRON: &str = "\
**Matron** (rank 5): moves up to 2 spaces in one direction. She may pass over pieces of her colour but not the opponent's, and ends on an empty space. \
She captures the piece next to her end space in the same direction (or any connected piece without moving). Lose her and you lose the game. \
A turncoat may move her, but she can never be captured by a turncoat.";

const PRIESTESS: &str = "\
**Priestess** (rank 4): moves any number of empty spaces in one direction (round a ring, or along a spoke through the hub). \
She captures the piece next to her end space in the same direction, or any connected piece without moving.";

const WIZARD: &str = "\
**Wizard** (rank 3): either moves 1 space and may capture a piece on any space connected to where he ends, following up into its space (e5-e4 xf4); \
or moves exactly 3 spaces along strands, turning as he likes and crossing occupied spaces, never visiting a space twice, ending on an empty space, \
and may capture a piece connected to where he ends without following up (e5-d5-c5-c4 xb4). Any path to the same end reads the same.";

const BLADEMASTER: &str = "\
**Blademaster** (rank 2): moves twice in a turn, up to 2 empty spaces in one direction each time; he may turn between the moves. \
After each move he may capture the piece next to him in the direction he moved. After the first move you owe a second decision: \
another move from where he stands (c3-c1, c3-c1 xhub) or end. He may not end his turn where he began it.";

const GRUNT: &str = "\
**Grunt** (rank 0): either moves 1 space toward the closest opposing piece (strands counted, pieces in between do not matter; you choose among equally close pieces and equally short ways), \
or captures a connected piece without moving and follows up (e3 xe2). A Grunt that reaches the start space of the opposing Matron, Priestess or a Wizard may be promoted \
to a piece its side has lost: f3-f2=w, e3 xe2=p. In the dice variants, each of the defender's Grunts connected to the attacked piece adds 1 to the defence.";

const CAPTURE: &str = "\
**Capturing**: after a straight move, the piece straight ahead of the end space in the same direction (through the hub too); the Wizard any connected piece. \
Without moving, any piece may capture a connected piece instead of moving. The capturing piece follows up into the emptied space (not the Wizard after his three-space move). \
Whether a capture succeeds depends on the variant; a failed capture leaves the attacker where its move ended.";

const TURNCOAT: &str = "\
**Turncoat**: when your turn's dice show spiders' eyes (1+1) you may, instead of moving your own piece, move any one opposing piece by its rules and capture with it \
a piece of its own colour (never the Matron). Type turncoat before the move: turncoat d4-d2 xd1. A Grunt moved this way moves toward your pieces and is not promoted.";

const PUNISHMENT: &str = "\
**Punishment**: a piece may capture one of your own pieces of lower rank, by the usual capture geometry. It always succeeds, the punisher follows up, \
and the punished piece counts as captured by the opponent (it can come back by your Grunt's promotion).";

const WEB: &str = "\
**The web**: 12 spokes (a-l) and 5 rings around a hub, 61 spaces. Each army fills a sector of four spokes on the three outer rings: \
Wizards, Matron and Priestess on ring 5, Grunt, two Blademasters, Grunt on ring 4, four Grunts on ring 3. White: e5 W, f5 M, g5 P, h5 W; Black: k5 W, l5 M, a5 P, b5 W. \
The setup zones are shaded red (White) and blue (Black).";

const STRATEGIST: &str = "\
**The strategist**: every capture succeeds. The dice (d6) only decide spiders' eyes at the start of each turn.";

const CONVENIENT: &str = "\
**The convenient**: a capture is an attack. The attacker rolls 1d6 + the rank of the capturing piece; the defender 1d6 + the rank of the targeted piece \
+ 1 for each of the defender's Grunts on a space connected to the target. Equal or higher: the capture succeeds. Punishment needs no roll. Spiders' eyes on 2d6.";

const ORIGINAL: &str = "\
**The original** (the default): as the convenient, with eight-sided dice for the attacks and for spiders' eyes (1+1 on 2d8).";

pub fn rules(topic: Option<&str>) -> Result<String, String> {
    let Some(topic) = topic else {
        return Ok(OVERVIEW.to_string());
    };
    let t = topic.trim().to_ascii_lowercase();
    let t = t.strip_prefix("the ").unwrap_or(&t);
    let text = match t {
        "" | "overview" | "arachne" => OVERVIEW,
        "matron" => MATRON,
        "priestess" => PRIESTESS,
        "wizard" | "wizards" | "arachne-wizard" => WIZARD,
        "blademaster" | "blademasters" => BLADEMASTER,
        "grunt" | "grunts" | "promotion" => GRUNT,
        "capture" | "capturing" | "follow-up" => CAPTURE,
        "turncoat" | "spiders' eyes" | "spiders eyes" | "dice" => TURNCOAT,
        "punishment" => PUNISHMENT,
        "web" | "board" | "setup" => WEB,
        "strategist" => STRATEGIST,
        "convenient" => CONVENIENT,
        "original" => ORIGINAL,
        other => {
            return Err(format!(
                "Arachne has no rules topic '{other}'.{} Topics: {}.",
                did_you_mean(other, TOPICS),
                TOPICS.join(", ")
            ))
        }
    };
    Ok(text.to_string())
}
