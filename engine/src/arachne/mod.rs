//! Arachne: two armies of dark elves on the strands of a spider web.
//!
//! The rules are in `/shared/rules/arachne.txt`; every place where that text is
//! silent or the missing pictures had to be replaced is a numbered ruling in
//! `engine/rules/arachne.md`. The web is data ([`layout::WebLayout`]).
//!
//! A turn is one action, except for the Blademaster: after his first move the
//! same seat owes a second decision (another move, or `end`), because his
//! second move depends on whether his first capture succeeded.

mod apply;
mod chance;
mod estimate;
pub mod layout;
mod moves;
mod notation;
mod text;

use crate::board::{Board, Cell};
use crate::catalog::{GameKind, OptionSpec, Options, Variant};
use crate::error::{ActionError, SetupError};
use crate::event::{Event, Mark};
use crate::game::Game;
use crate::rng::{Rng, Seed};
use crate::seat::{Outcome, Seat, Viewer};
use crate::view::{Glyph, PieceView, Roll, RollRole, SeatView, View};
pub use layout::{Kind, Setup, WebLayout};
use moves::Geo;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// How far the Matron moves in one direction (the rule text: "up to 2 spaces").
pub const MATRON_REACH: usize = 2;
/// How far each of the Blademaster's two moves goes ("up to 2 spaces each time").
pub const BLADEMASTER_REACH: usize = 2;
/// The strands of a Wizard's long move ("exactly 3 spaces", R6).
pub const WIZARD_JUMP: usize = 3;
/// The turn's throw that allows a turncoat ("a pair of 1").
pub const SPIDERS_EYES: [u8; 2] = [1, 1];
/// What each of the defender's Grunts connected to the target adds to the
/// defence ("a bonus of 1 for each of his Grunts", R12).
pub const GRUNT_BONUS: u8 = 1;
/// The occurrence of a position that draws the game ("for the 4th time", R16).
pub const REPETITION_DRAW: usize = 4;

/// How captures are decided: the rule book's three variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CaptureRules {
    /// Captures always succeed; d6 for spiders' eyes.
    Strategist,
    /// 1d6 + rank each side, the defender adds its connected Grunts.
    Convenient,
    /// As convenient with d8, also for spiders' eyes.
    Original,
}

impl CaptureRules {
    pub const ALL: [CaptureRules; 3] = [
        CaptureRules::Strategist,
        CaptureRules::Convenient,
        CaptureRules::Original,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            CaptureRules::Strategist => "strategist",
            CaptureRules::Convenient => "convenient",
            CaptureRules::Original => "original",
        }
    }

    pub fn parse(text: &str) -> Option<CaptureRules> {
        let t = text.trim().to_ascii_lowercase();
        let t = t.strip_prefix("the ").unwrap_or(&t);
        CaptureRules::ALL.into_iter().find(|v| v.slug() == t)
    }

    /// Faces of the dice this variant throws (turn dice and capture dice).
    pub fn sides(self) -> u8 {
        match self {
            CaptureRules::Original => 8,
            _ => 6,
        }
    }

    fn rolls_for_captures(self) -> bool {
        self != CaptureRules::Strategist
    }
}

/// One piece on the web.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub seat: Seat,
    pub kind: Kind,
}

/// One decision. A turn is one of these, except that a Blademaster's `Move`
/// leaves a second decision (`Again` or `End`) to the same seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Action {
    /// A move in one straight line (a Wizard's or Grunt's single step included),
    /// then optionally a capture, and a Grunt's promotion on arrival.
    /// Notation `e3-e2`, `g5-g2 xg1`, `f3-f2=w`, prefixed `turncoat ` when
    /// moving an opposing piece after spiders' eyes.
    Move {
        turncoat: bool,
        from: Cell,
        to: Cell,
        capture: Option<Cell>,
        promote: Option<Kind>,
    },
    /// A Wizard's move of exactly three spaces; the capture does not follow up.
    /// Notation `e5-d5-c5-c4 xb4` (any valid path of three spaces reads the same).
    Jump {
        turncoat: bool,
        from: Cell,
        to: Cell,
        capture: Option<Cell>,
    },
    /// A capture without moving: `e3 xe2` (`e3 xe2=p` for a Grunt landing on
    /// a promotion space).
    Strike {
        turncoat: bool,
        from: Cell,
        target: Cell,
        promote: Option<Kind>,
    },
    /// The Blademaster's second move: `c3-c1`, `c3-c1 xhub`.
    Again {
        from: Cell,
        to: Cell,
        capture: Option<Cell>,
    },
    /// The Blademaster stops after his first move.
    End,
    /// Only when nothing else is possible (ruling R14).
    Pass,
}

/// The Blademaster's second move, owed by the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Where the Blademaster stands now.
    pub cell: Cell,
    /// Where he started the turn: he may not end there (ruling R9).
    pub origin: Cell,
    pub turncoat: bool,
}

/// The whole state of a game of Arachne.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Arachne {
    rules: CaptureRules,
    setup: Setup,
    squares: Vec<Option<Piece>>,
    /// Pieces each seat has lost (captured by the opponent or punished).
    lost: [Vec<Kind>; 2],
    to_move: Seat,
    turn: u32,
    /// The two dice thrown at the start of the current turn.
    turn_dice: [u8; 2],
    last_dice: Option<(Seat, Vec<u8>)>,
    /// The same dice by side (an attack's die apart from the defence's), with
    /// the totals compared, for the picture.
    #[serde(default)]
    last_rolls: Vec<Roll>,
    pending: Option<Pending>,
    /// Hashes of the positions since the last capture or promotion (ruling R16).
    history: Vec<u64>,
    outcome: Outcome,
    rng: Rng,
    /// Dice values to use before the generator's (tests and puzzles only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    loaded: Vec<u8>,
    #[serde(skip)]
    geo: OnceLock<Arc<Geo>>,
}

/// The `variant` option, its help stating each variant's dice from
/// [`CaptureRules::sides`] (built once).
static OPTIONS: std::sync::LazyLock<[OptionSpec; 1]> = std::sync::LazyLock::new(|| {
    [OptionSpec {
        name: "variant",
        help: String::leak(format!(
            "How captures are decided: original (d{} rolls, the default), convenient (d{} rolls) or strategist (captures always succeed)",
            CaptureRules::Original.sides(),
            CaptureRules::Convenient.sides()
        )),
        choices: &["original", "convenient", "strategist"],
        per_seat: false,
    }]
});

pub const WHITE: Seat = Seat(0);
pub const BLACK: Seat = Seat(1);

/// A turn's two dice as one throw, for the picture.
fn turn_roll(seat: Seat, dice: [u8; 2]) -> Roll {
    Roll {
        seat,
        role: RollRole::Turn,
        dice: dice.to_vec(),
        total: None,
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

fn colour(seat: Seat) -> &'static str {
    if seat == WHITE {
        "White"
    } else {
        "Black"
    }
}

impl Arachne {
    /// The starting position of `layout` under `rules`, White to move, dice
    /// drawn from `seed`.
    pub fn new(
        rules: CaptureRules,
        layout: &WebLayout,
        seed: impl Into<Seed>,
    ) -> Result<Arachne, SetupError> {
        let setup = layout
            .setup()
            .map_err(|e| SetupError(format!("Bad web: {e}.")))?;
        let mut game = Arachne::empty_with(rules, setup, seed);
        for &(cell, seat, kind) in &game.setup.army.clone() {
            game.squares[cell.index()] = Some(Piece { seat, kind });
        }
        game.start_history();
        game.begin_dice();
        Ok(game)
    }

    fn empty_with(rules: CaptureRules, setup: Setup, seed: impl Into<Seed>) -> Arachne {
        Arachne {
            rules,
            squares: vec![None; setup.board.len()],
            setup,
            lost: [Vec::new(), Vec::new()],
            to_move: WHITE,
            turn: 1,
            turn_dice: [0, 0],
            last_dice: None,
            last_rolls: Vec::new(),
            pending: None,
            history: Vec::new(),
            outcome: Outcome::Ongoing,
            rng: Rng::from_seed(seed),
            loaded: Vec::new(),
            geo: OnceLock::new(),
        }
    }

    /// A position built piece by piece on the standard web (for tests, puzzles
    /// and analysis): `pieces` as (cell name, seat, kind), `lost` as the
    /// pieces each seat has already lost. The dice are thrown from `seed`.
    pub fn position(
        rules: CaptureRules,
        to_move: Seat,
        pieces: &[(&str, Seat, Kind)],
        seed: impl Into<Seed>,
    ) -> Result<Arachne, String> {
        let setup = WebLayout::STANDARD.setup()?;
        let mut game = Arachne::empty_with(rules, setup, seed);
        game.to_move = to_move;
        for &(name, seat, kind) in pieces {
            let cell = game
                .board()
                .parse(name)
                .ok_or_else(|| format!("'{name}' is not a space on the web"))?;
            if game.squares[cell.index()].is_some() {
                return Err(format!("two pieces on {name}"));
            }
            if seat.0 > 1 {
                return Err(format!("{seat} does not exist"));
            }
            game.squares[cell.index()] = Some(Piece { seat, kind });
        }
        for seat in [WHITE, BLACK] {
            if game
                .pieces_of(seat)
                .filter(|p| p.1.kind == Kind::Matron)
                .count()
                != 1
            {
                return Err(format!("{} needs exactly one Matron", colour(seat)));
            }
        }
        game.start_history();
        game.begin_dice();
        Ok(game)
    }

    /// Sets the pieces a seat has lost (for promotions in built positions).
    pub fn set_lost(&mut self, seat: Seat, kinds: &[Kind]) {
        self.lost[seat.index() % 2] = kinds.to_vec();
    }

    /// Replaces the dice of the current turn (tests and puzzles).
    pub fn set_turn_dice(&mut self, dice: [u8; 2]) {
        self.turn_dice = dice;
        self.last_dice = Some((self.to_move, dice.to_vec()));
        self.last_rolls = vec![turn_roll(self.to_move, dice)];
    }

    /// Replaces the game's chance from here on with a generator drawn from
    /// `seed`, keeping the position. The dice of a turn not yet begun (no
    /// decision pending) are thrown again from it: they came from the old
    /// generator, so whoever knew its seed knew them. Used where a game that
    /// replayed a record goes on with a secret seed (the table's ruling T13).
    pub fn reseed(&mut self, seed: impl Into<Seed>) {
        self.rng = Rng::from_seed(seed);
        self.loaded.clear();
        if !self.outcome.is_over() && self.pending.is_none() {
            self.begin_dice();
        }
    }

    /// Replaces the generator with one drawn from `seed` and nothing else: the dice already
    /// thrown (this turn's, shown to everyone) stand, every later throw comes from `seed`.
    /// Used where a game begun with a SplitMix64 seed is given a ChaCha20 key in the middle of
    /// play (engine/rules/chance.md).
    pub fn rekey(&mut self, seed: impl Into<Seed>) {
        self.rng = Rng::from_seed(seed);
    }

    /// Whether the dice to come are drawn from the strong generator.
    pub fn chance_is_strong(&self) -> bool {
        self.rng.is_strong()
    }

    /// Queues dice values to be thrown before the generator's: the next capture
    /// roll takes the attacker's die then the defender's (tests and puzzles).
    pub fn load_dice(&mut self, values: &[u8]) {
        self.loaded.extend_from_slice(values);
    }

    pub fn rules_variant(&self) -> CaptureRules {
        self.rules
    }

    pub fn board(&self) -> Board {
        self.setup.board
    }

    pub fn setup_data(&self) -> &Setup {
        &self.setup
    }

    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    pub fn turn_dice(&self) -> [u8; 2] {
        self.turn_dice
    }

    pub fn pending(&self) -> Option<Pending> {
        self.pending
    }

    pub fn lost(&self, seat: Seat) -> &[Kind] {
        &self.lost[seat.index() % 2]
    }

    /// The piece on a cell named as players type it.
    pub fn piece_at(&self, name: &str) -> Option<Piece> {
        self.board()
            .parse(name)
            .and_then(|c| self.squares[c.index()])
    }

    pub fn piece(&self, cell: Cell) -> Option<Piece> {
        self.squares.get(cell.index()).copied().flatten()
    }

    pub fn pieces_of(&self, seat: Seat) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.squares
            .iter()
            .enumerate()
            .filter_map(move |(i, p)| match p {
                Some(p) if p.seat == seat => Some((Cell(i as u16), *p)),
                _ => None,
            })
    }

    /// How many times the current position has occurred (ruling R16).
    pub fn repetitions(&self) -> usize {
        let h = self.position_hash();
        self.history.iter().filter(|&&x| x == h).count()
    }

    /// Whether spiders' eyes were thrown this turn.
    pub fn spiders_eyes(&self) -> bool {
        self.turn_dice == SPIDERS_EYES
    }

    fn geo(&self) -> &Geo {
        self.geo
            .get_or_init(|| Arc::new(Geo::new(&self.setup.board)))
    }

    fn name(&self, cell: Cell) -> String {
        self.setup.board.name(cell)
    }

    fn die(&mut self) -> u8 {
        let sides = self.rules.sides();
        if !self.loaded.is_empty() {
            return self.loaded.remove(0).clamp(1, sides);
        }
        self.rng.die(sides)
    }

    fn throw_turn_dice(&mut self) -> [u8; 2] {
        [self.die(), self.die()]
    }

    /// Throws the dice that open the turn of the seat to move.
    fn begin_dice(&mut self) {
        self.turn_dice = self.throw_turn_dice();
        self.last_dice = Some((self.to_move, self.turn_dice.to_vec()));
        self.last_rolls = vec![turn_roll(self.to_move, self.turn_dice)];
    }

    /// The position for repetition: the pieces on the web and the side to move
    /// (ruling R16). FNV-1a, written out so stored hashes never change.
    fn position_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        eat(self.to_move.0);
        for sq in &self.squares {
            eat(match sq {
                None => 0,
                Some(p) => 1 + p.seat.0 * 5 + p.kind as u8,
            });
        }
        h
    }

    fn start_history(&mut self) {
        self.history = vec![self.position_hash()];
    }

    fn piece_name(&self, p: Piece) -> String {
        format!("{} {}", colour(p.seat), p.kind.name())
    }

    fn glyph(kind: Kind) -> Glyph {
        Glyph {
            unit: kind.unit().to_string(),
            letter: kind.letter(),
            name: kind.name().to_string(),
        }
    }

    /// Degrees clockwise that bring `seat`'s setup zone to the bottom.
    fn rotation_for(&self, seat: Seat) -> f32 {
        let board = self.setup.board;
        let (mut x, mut y, mut n) = (0.0f32, 0.0f32, 0.0f32);
        for &(c, s) in &self.setup.zones {
            if s == seat {
                let (px, py) = board.position(c);
                x += px - 0.5;
                y += py - 0.5;
                n += 1.0;
            }
        }
        if n == 0.0 {
            return if seat == WHITE { 0.0 } else { 180.0 };
        }
        let angle = x.atan2(-y).to_degrees();
        let r = (180.0 - angle).rem_euclid(360.0);
        (r * 1000.0).round() / 1000.0
    }
}

impl Game for Arachne {
    type Action = Action;

    fn seat_count(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        colour(seat).to_string()
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_over() {
            Vec::new()
        } else {
            vec![self.to_move]
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.outcome.is_over() || seat != self.to_move {
            return Vec::new();
        }
        self.actions()
    }

    fn play(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        self.check_turn(seat)?;
        if !self.is_legal(action) {
            return Err(ActionError::Illegal(self.explain(action)));
        }
        Ok(self.apply(*action))
    }

    fn format(&self, action: &Action) -> String {
        self.format_action(action)
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        self.check_turn(seat)?;
        let action = self.read_action(text)?;
        if !self.is_legal(&action) {
            return Err(ActionError::Illegal(self.explain(&action)));
        }
        Ok(action)
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn move_number(&self) -> u32 {
        self.turn
    }

    fn view(&self, viewer: Viewer) -> View {
        let board = self.setup.board;
        let seats = [WHITE, BLACK]
            .into_iter()
            .map(|s| {
                let mut notes = Vec::new();
                if s == self.to_move && !self.outcome.is_over() {
                    let [a, b] = self.turn_dice;
                    notes.push(if self.spiders_eyes() {
                        format!("Rolled {a}+{b}: spiders' eyes, turncoat allowed")
                    } else {
                        format!("Rolled {a}+{b}")
                    });
                }
                SeatView {
                    name: colour(s).to_string(),
                    colour: s.0,
                    eliminated: false,
                    hand_size: None,
                    lost: self.lost[s.index()]
                        .iter()
                        .map(|&k| Arachne::glyph(k))
                        .collect(),
                    notes,
                }
            })
            .collect();
        let pieces = board
            .cells()
            .filter_map(|c| {
                self.piece(c).map(|p| PieceView {
                    cell: c,
                    seat: p.seat,
                    glyph: Arachne::glyph(p.kind),
                    hp: None,
                    statuses: Vec::new(),
                })
            })
            .collect();
        let pending = self.pending.map(|p| {
            format!(
                "{}: the Blademaster on {} may move again, or end",
                colour(self.to_move),
                self.name(p.cell)
            )
        });
        View {
            title: format!("Arachne ({})", self.rules.slug()),
            board,
            viewer,
            rotation: self.rotation_for(viewer.seat().unwrap_or(WHITE)),
            seats,
            pieces,
            to_act: self.to_act(),
            move_number: self.turn,
            dice: self
                .last_dice
                .clone()
                .or_else(|| Some((self.to_move, self.turn_dice.to_vec()))),
            hand: Vec::new(),
            zones: self.setup.zones.clone(),
            pending,
            outcome: self.outcome.clone(),
            rolls: if self.last_rolls.is_empty() {
                vec![turn_roll(self.to_move, self.turn_dice)]
            } else {
                self.last_rolls.clone()
            },
            check: Vec::new(),
            under: Vec::new(),
        }
    }

    fn concede(&mut self, seat: Seat) -> Vec<Event> {
        if self.outcome.is_over() || seat.0 > 1 {
            return Vec::new();
        }
        self.pending = None;
        self.outcome = Outcome::Won {
            winners: vec![other(seat)],
            reason: format!("{} conceded", colour(seat)),
        };
        vec![Event::new(format!(
            "{} concedes; {} wins.",
            colour(seat),
            colour(other(seat))
        ))]
    }

    /// The chance of capturing the opposing Matron first, else material by
    /// rank cut by the danger to one's own Matron (see `estimate.rs`).
    fn heuristic(&self, seat: Seat) -> f32 {
        self.estimate(seat)
    }

    /// A capture roll's two outcomes, captured and failed, by their exact odds.
    fn chance(&self, seat: Seat, action: &Action) -> Vec<f64> {
        self.capture_odds(seat, action)
    }

    fn play_chance(
        &mut self,
        seat: Seat,
        action: &Action,
        outcome: usize,
    ) -> Result<Vec<Event>, ActionError> {
        self.play_capture_outcome(seat, action, outcome)
    }

    fn redeal(&self, _seat: Seat, seed: u64) -> Arachne {
        // Everything is public except the future dice.
        let mut copy = self.clone();
        copy.rng = Rng::new(seed);
        copy.loaded.clear();
        copy
    }
}

impl Arachne {
    fn check_turn(&self, seat: Seat) -> Result<(), ActionError> {
        if self.outcome.is_over() {
            return Err(ActionError::GameOver);
        }
        if seat != self.to_move {
            return Err(ActionError::NotYourTurn(format!(
                "It is {}'s turn.",
                colour(self.to_move)
            )));
        }
        Ok(())
    }
}

impl Variant for Arachne {
    const KIND: GameKind = GameKind::Arachne;

    fn unit_ids() -> Vec<&'static str> {
        layout::Kind::ALL.iter().map(|k| k.unit()).collect()
    }

    fn options() -> &'static [OptionSpec] {
        &*OPTIONS
    }

    fn seating(players: usize) -> Result<Vec<Vec<Seat>>, SetupError> {
        match players {
            1 => Ok(vec![vec![WHITE, BLACK]]),
            2 => Ok(vec![vec![WHITE], vec![BLACK]]),
            n => Err(SetupError(format!(
                "Arachne is a game for two players, not {n}."
            ))),
        }
    }

    fn setup(options: &Options, seed: impl Into<Seed>) -> Result<Arachne, SetupError> {
        let rules = match options.get("variant") {
            None => CaptureRules::Original,
            Some(v) => CaptureRules::parse(v).ok_or_else(|| {
                SetupError(format!(
                    "Arachne has no variant '{v}': choose original, convenient or strategist."
                ))
            })?,
        };
        Arachne::new(rules, &WebLayout::STANDARD, seed)
    }

    fn rules(topic: Option<&str>) -> Result<String, String> {
        text::rules(topic)
    }
}
