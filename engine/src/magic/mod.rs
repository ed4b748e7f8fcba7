//! Magic Chess: four armies in the corners of an 8x8 board and a deck of
//! spell cards (Freeze, Slow, Anti-Jump). The rules and every ruling are in
//! `engine/rules/magic-chess.md`; rulings are cited here as R1, R2...

mod deck;
mod moves;
mod notation;
mod pieces;
mod position;
mod rules;

pub use deck::{DEFAULT_COPIES, HAND, MAX_COPIES};
pub use moves::{forward, on_far_edge, Move, FROG_REACH};
pub use notation::Action;
pub use pieces::{seat_name, Kind, Piece, Spell, SEAT_NAMES};
pub use position::Position;

use crate::board::{Board, Cell};
use crate::catalog::{GameKind, OptionSpec, Options, Variant};
use crate::error::{ActionError, SetupError};
use crate::event::{Event, Mark};
use crate::game::Game;
use crate::rng::{Rng, Seed};
use crate::seat::{Outcome, Seat, Viewer};
use crate::view::{PieceView, SeatView, StatusView, View};
use moves::name;
use serde::{Deserialize, Serialize};

/// Turns of each remaining player without a capture or a pawn move after
/// which the game is drawn (ruling R13).
pub const QUIET_ROUNDS: u32 = 50;

/// Why a seat left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exit {
    /// Its King was captured by this seat.
    KingCaptured {
        by: Seat,
    },
    Conceded,
}

/// A game of Magic Chess: the whole state, hidden cards included.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MagicChess {
    /// The 64 squares, `Cell` order (a1, b1, ... h8).
    cells: Vec<Option<Piece>>,
    /// Each seat's hidden hand.
    hands: Vec<Vec<Spell>>,
    /// Face down; the top card is the last.
    draw_pile: Vec<Spell>,
    /// Face up, never reshuffled.
    discard: Vec<Spell>,
    turn: Seat,
    out: Vec<Option<Exit>>,
    /// The pieces each seat lost, in order.
    lost: Vec<Vec<Kind>>,
    /// Red and Yellow against Blue and Green (option `partners`, ruling R14).
    partners: bool,
    /// Turns since the last capture or pawn move (ruling R13).
    quiet: u32,
    /// Turns played so far.
    turns: u32,
    rng: Rng,
    outcome: Outcome,
}

/// Red's army, from its left to its right, and its pawns: the other armies are
/// this layout turned a quarter turn per seat (ruling R1).
pub(crate) const BACK_ROW: [Kind; 4] = [Kind::King, Kind::Wizard, Kind::Fairy, Kind::Frog];

/// The square of `seat`'s army at position (`along` from the corner, `depth`
/// rows in front of its edge).
pub(crate) fn home(seat: Seat, along: i32, depth: i32) -> Cell {
    let (f, r) = match seat.0 {
        0 => (along, depth),
        1 => (depth, 7 - along),
        2 => (7 - along, 7 - depth),
        _ => (7 - depth, along),
    };
    moves::at(f, r).expect("home squares are on the board")
}

impl MagicChess {
    /// An empty board, no cards, Red to move: the start of [`Position`] and of `setup`.
    fn bare(seed: Seed) -> MagicChess {
        MagicChess {
            cells: vec![None; 64],
            hands: vec![Vec::new(); 4],
            draw_pile: Vec::new(),
            discard: Vec::new(),
            turn: Seat(0),
            out: vec![None; 4],
            lost: vec![Vec::new(); 4],
            partners: false,
            quiet: 0,
            turns: 0,
            rng: Rng::from_seed(seed),
            outcome: Outcome::Ongoing,
        }
    }

    /// The starting position with the given deck, before shuffling.
    fn start(cards: Vec<Spell>, partners: bool, seed: Seed) -> MagicChess {
        let mut g = MagicChess::bare(seed);
        g.partners = partners;
        for s in 0..4u8 {
            let seat = Seat(s);
            for (i, &k) in BACK_ROW.iter().enumerate() {
                g.cells[home(seat, i as i32, 0).index()] = Some(Piece::new(seat, k));
                g.cells[home(seat, i as i32, 1).index()] = Some(Piece::new(seat, Kind::Pawn));
            }
        }
        g.shuffle_and_deal(cards);
        g
    }

    pub fn is_out(&self, seat: Seat) -> bool {
        self.out.get(seat.index()).is_some_and(|o| o.is_some())
    }

    /// The seat whose turn it is (also after the game ended).
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// `seat`'s hand (hidden from the others: for tests and the seat's own view).
    pub fn hand(&self, seat: Seat) -> &[Spell] {
        self.hands
            .get(seat.index())
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn draw_pile_len(&self) -> usize {
        self.draw_pile.len()
    }

    /// The draw pile, its top card last (hidden from every seat: for tests).
    pub fn draw_pile(&self) -> &[Spell] {
        &self.draw_pile
    }

    /// The face-up discard pile, oldest first.
    pub fn discard_pile(&self) -> &[Spell] {
        &self.discard
    }

    /// Every card of the game, wherever it is: hands, draw pile, discard pile
    /// and under pieces (the deck is never added to or taken from).
    pub fn card_count(&self) -> usize {
        self.hands.iter().map(Vec::len).sum::<usize>()
            + self.draw_pile.len()
            + self.discard.len()
            + self
                .cells
                .iter()
                .flatten()
                .map(|p| p.spells.iter().map(|&n| n as usize).sum::<usize>())
                .sum::<usize>()
    }

    /// Seats still playing.
    fn alive(&self) -> Vec<Seat> {
        (0..4).map(Seat).filter(|&s| !self.is_out(s)).collect()
    }

    /// Why `seat` may not take `action` now, as the error `play` returns.
    fn check(&self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        if self.outcome.is_over() {
            return Err(ActionError::GameOver);
        }
        if seat.index() >= 4 {
            return Err(ActionError::NotYourTurn(format!(
                "{seat} does not play Magic Chess."
            )));
        }
        if seat != self.turn {
            return Err(ActionError::NotYourTurn(format!(
                "It is {}'s turn.",
                seat_name(self.turn)
            )));
        }
        let reason = match action {
            Action::Pass => None,
            Action::Move(m) => self.refuse_move(seat, m),
            Action::Cast { spell, target } => self.refuse_cast(seat, *spell, *target),
        };
        match reason {
            Some(r) => Err(ActionError::Illegal(r)),
            None => Ok(()),
        }
    }

    fn refuse_cast(&self, seat: Seat, spell: Spell, target: Cell) -> Option<String> {
        if !self.hands[seat.index()].contains(&spell) {
            return Some(format!("You hold no {} card.", spell.name()));
        }
        let Some(p) = self.piece_at(target) else {
            return Some(format!("There is no piece on {}.", name(target)));
        };
        if p.seat == seat {
            return Some(format!(
                "Spells are played under enemy pieces; the {} on {} is yours.",
                p.kind.name(),
                name(target)
            ));
        }
        if self.friend(seat, p.seat) {
            return Some(format!(
                "Spells are played under enemy pieces; the {} on {} is your partner's.",
                p.describe(),
                name(target)
            ));
        }
        if self.is_out(p.seat) {
            return Some(format!(
                "{} is out of the game: spells cannot be played under its pieces.",
                seat_name(p.seat)
            ));
        }
        if !spell.may_target(p.kind) {
            return Some(format!(
                "{} may be played only under {}; {} holds the {}.",
                spell.name(),
                spell.targets(),
                name(target),
                p.describe()
            ));
        }
        None
    }

    fn legal(&self, seat: Seat) -> Vec<Action> {
        if self.outcome.is_over() || seat != self.turn {
            return Vec::new();
        }
        let mut moves = Vec::with_capacity(64);
        self.moves(seat, &mut moves);
        let mut out: Vec<Action> = moves.into_iter().map(Action::Move).collect();
        for spell in Spell::ALL {
            if !self.hands[seat.index()].contains(&spell) {
                continue;
            }
            for (i, p) in self.cells.iter().enumerate() {
                if let Some(p) = p {
                    if !self.friend(seat, p.seat)
                        && !self.is_out(p.seat)
                        && spell.may_target(p.kind)
                    {
                        out.push(Action::Cast {
                            spell,
                            target: Cell(i as u16),
                        });
                    }
                }
            }
        }
        out.push(Action::Pass);
        out
    }

    /// Applies a checked action and ends the turn.
    fn apply(&mut self, seat: Seat, action: &Action) -> Vec<Event> {
        let who = seat_name(seat);
        let mut events = Vec::new();
        let mut progress = false;
        match *action {
            Action::Pass => events.push(Event::new(format!("{who} passes."))),
            Action::Move(m) => {
                let mut piece = self.cells[m.from.index()]
                    .take()
                    .expect("a checked move has a piece");
                let captured = self.cells[m.to.index()].take();
                progress = piece.kind == Kind::Pawn || captured.is_some();
                let mut text = format!("{} {}-{}", piece.describe(), name(m.from), name(m.to));
                let mut ev = Event::new(String::new())
                    .mark(m.from, Mark::From)
                    .mark(m.to, Mark::To);
                if let Some(mut c) = captured {
                    text += &format!(" captures the {}", self.describe_on_board(&c));
                    self.discard.extend(c.take_spells());
                    self.lost[c.seat.index()].push(c.kind);
                    ev = ev.mark(m.to, Mark::Hit);
                }
                if let Some(k) = m.promote {
                    piece.kind = k;
                    text += &format!(" and promotes to a {}", k.name());
                    ev = ev.mark(m.to, Mark::Placed);
                }
                ev.text = text + ".";
                self.cells[m.to.index()] = Some(piece);
                events.push(ev);
                if let Some(c) = captured {
                    if c.kind == Kind::King && !self.is_out(c.seat) {
                        // R9: the King's capture eliminates; the capturer draws.
                        events.push(
                            Event::new(format!(
                                "{} is eliminated: its King fell to {who}. Its pieces stay on the board.",
                                seat_name(c.seat)
                            ))
                            .mark(m.to, Mark::Hit),
                        );
                        events.extend(self.eliminate(c.seat, Exit::KingCaptured { by: seat }));
                        events.push(self.draw(seat));
                    }
                }
            }
            Action::Cast { spell, target } => {
                let hand = &mut self.hands[seat.index()];
                let i = hand
                    .iter()
                    .position(|&c| c == spell)
                    .expect("a checked cast holds the card");
                hand.remove(i);
                let p = self.cells[target.index()]
                    .as_mut()
                    .expect("a checked cast has a target");
                p.spells[spell.index()] += 1;
                let p = *p;
                events.push(
                    Event::new(format!(
                        "{who} casts {} on the {} on {}.",
                        spell.name(),
                        p.describe(),
                        name(target)
                    ))
                    .mark(target, Mark::Affected),
                );
                events.push(self.draw(seat));
            }
        }
        self.end_turn(seat, progress, &mut events);
        events
    }

    /// The end of every turn: the cards under the player's own pieces go to
    /// the discard pile, then the game is checked and the turn passes on.
    fn end_turn(&mut self, seat: Seat, progress: bool, events: &mut Vec<Event>) {
        if let Some(e) = self.discard_under(seat) {
            events.push(e);
        }
        self.turns += 1;
        self.quiet = if progress { 0 } else { self.quiet + 1 };
        self.settle(events);
        if !self.outcome.is_over() {
            self.advance();
        }
    }

    /// Moves every card under `seat`'s pieces to the discard pile.
    fn discard_under(&mut self, seat: Seat) -> Option<Event> {
        let mut cards = Vec::new();
        let mut marks = Vec::new();
        for (i, p) in self.cells.iter_mut().enumerate() {
            if let Some(p) = p {
                if p.seat == seat && p.spells != [0; 3] {
                    cards.extend(p.take_spells());
                    marks.push(Cell(i as u16));
                }
            }
        }
        if cards.is_empty() {
            return None;
        }
        let names: Vec<&str> = cards.iter().map(|c| c.name()).collect();
        self.discard.extend(cards);
        let mut e = Event::new(format!(
            "The cards under {}'s pieces go to the discard pile: {}.",
            seat_name(seat),
            names.join(", ")
        ));
        for c in marks {
            e = e.mark(c, Mark::Affected);
        }
        Some(e)
    }

    /// Takes `seat` out of the game; its pieces stay (R9) and the cards under
    /// them are discarded (R11). Its hand stays set aside, unseen (R12).
    fn eliminate(&mut self, seat: Seat, why: Exit) -> Vec<Event> {
        self.out[seat.index()] = Some(why);
        self.discard_under(seat).into_iter().collect()
    }

    /// Ends the game when one player (or one partnership) is left, or after
    /// the quiet rounds (R13).
    fn settle(&mut self, events: &mut Vec<Event>) {
        let alive = self.alive();
        let mut sides: Vec<u8> = alive
            .iter()
            .map(|s| if self.partners { s.0 % 2 } else { s.0 })
            .collect();
        sides.sort();
        sides.dedup();
        if sides.len() == 1 {
            let winners: Vec<Seat> = if self.partners {
                vec![Seat(sides[0]), Seat(sides[0] + 2)]
            } else {
                alive.clone()
            };
            let names: Vec<&str> = winners.iter().map(|&s| seat_name(s)).collect();
            let reason = if self.partners {
                format!("{} are the last partners standing.", names.join(" and "))
            } else {
                format!("{} is the last player standing.", names[0])
            };
            events.push(Event::new(format!(
                "{} win{}: {reason}",
                names.join(" and "),
                if winners.len() == 1 { "s" } else { "" }
            )));
            self.outcome = Outcome::Won { winners, reason };
        } else if sides.is_empty() {
            let reason = "Every player has left the game.".to_string();
            events.push(Event::new(format!("The game is drawn: {reason}")));
            self.outcome = Outcome::Drawn { reason };
        } else if self.quiet >= QUIET_ROUNDS * alive.len() as u32 {
            let reason = format!("{QUIET_ROUNDS} rounds passed without a capture or a pawn move.");
            events.push(Event::new(format!("The game is drawn: {reason}")));
            self.outcome = Outcome::Drawn { reason };
        }
    }

    /// Passes the turn to the next seat clockwise still in the game.
    fn advance(&mut self) {
        for k in 1..=4u8 {
            let s = Seat((self.turn.0 + k) % 4);
            if !self.is_out(s) {
                self.turn = s;
                return;
            }
        }
    }

    fn seat_view(&self, s: usize) -> SeatView {
        let seat = Seat(s as u8);
        let mut notes = Vec::new();
        match self.out[s] {
            Some(Exit::KingCaptured { by }) => {
                notes.push(format!("King captured by {}", seat_name(by)))
            }
            Some(Exit::Conceded) => notes.push("Conceded".into()),
            None => {}
        }
        if self.partners {
            notes.push(format!("Partner: {}", seat_name(Seat((s as u8 + 2) % 4))));
        }
        if s == self.turn.index() && !self.outcome.is_over() {
            notes.push(format!(
                "Draw pile: {} cards, discard pile: {}",
                self.draw_pile.len(),
                self.discard.len()
            ));
        }
        SeatView {
            name: seat_name(seat).into(),
            colour: s as u8,
            eliminated: self.is_out(seat),
            hand_size: Some(self.hands[s].len()),
            lost: self.lost[s].iter().map(|k| k.glyph()).collect(),
            notes,
        }
    }
}

/// The quarter turns (in degrees clockwise) that put `seat`'s army at the bottom.
pub fn rotation(seat: Seat) -> f32 {
    match seat.0 {
        0 => 0.0,
        1 => 270.0,
        2 => 180.0,
        _ => 90.0,
    }
}

impl Game for MagicChess {
    type Action = Action;

    fn seat_count(&self) -> usize {
        4
    }

    fn seat_name(&self, seat: Seat) -> String {
        seat_name(seat).into()
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_over() {
            Vec::new()
        } else {
            vec![self.turn]
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn play(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        self.check(seat, action)?;
        Ok(self.apply(seat, action))
    }

    fn format(&self, action: &Action) -> String {
        self.format_action(action)
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        self.parse_action(seat, text)
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn move_number(&self) -> u32 {
        self.turns + 1
    }

    fn view(&self, viewer: Viewer) -> View {
        let own = viewer.seat().filter(|s| s.index() < 4);
        let mut hand: Vec<Spell> = own
            .map(|s| self.hands[s.index()].clone())
            .unwrap_or_default();
        hand.sort();
        let pieces = self
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let p = p.as_ref()?;
                Some(PieceView {
                    cell: Cell(i as u16),
                    seat: p.seat,
                    glyph: p.kind.glyph(),
                    hp: None,
                    statuses: Spell::ALL
                        .iter()
                        .filter(|s| p.has(**s))
                        .map(|s| StatusView {
                            kind: s.status(),
                            count: None,
                        })
                        .collect(),
                })
            })
            .collect();
        View {
            title: "Magic Chess".into(),
            board: Board::grid(8, 8),
            viewer,
            rotation: own.map(rotation).unwrap_or(0.0),
            seats: (0..4).map(|s| self.seat_view(s)).collect(),
            pieces,
            to_act: self.to_act(),
            move_number: self.move_number(),
            dice: None,
            hand: hand.iter().map(|c| c.name().to_string()).collect(),
            zones: Vec::new(),
            pending: None,
            outcome: self.outcome.clone(),
            rolls: Vec::new(),
            check: Vec::new(),
            // Played cards are public (R19): each card under each piece.
            under: self
                .cells
                .iter()
                .enumerate()
                .filter_map(|(i, p)| Some((Cell(i as u16), p.as_ref()?)))
                .flat_map(|(cell, p)| {
                    Spell::ALL.into_iter().flat_map(move |s| {
                        (0..p.spells[s.index()]).map(move |_| (cell, s.name().to_string()))
                    })
                })
                .collect(),
        }
    }

    fn concede(&mut self, seat: Seat) -> Vec<Event> {
        if self.outcome.is_over() || seat.index() >= 4 || self.is_out(seat) {
            return Vec::new();
        }
        let mut events = vec![Event::new(format!(
            "{} concedes and leaves the game; its pieces stay on the board.",
            seat_name(seat)
        ))];
        events.extend(self.eliminate(seat, Exit::Conceded));
        self.settle(&mut events);
        if !self.outcome.is_over() && self.turn == seat {
            self.advance();
        }
        events
    }

    fn skip(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        self.check(seat, &Action::Pass)?;
        let mut events = vec![Event::new(format!(
            "{}'s turn is skipped: the move deadline passed.",
            seat_name(seat)
        ))];
        self.end_turn(seat, false, &mut events);
        Ok(events)
    }

    fn redeal(&self, seat: Seat, seed: u64) -> Self {
        self.redeal_for(seat, seed)
    }

    /// `seat`'s side's share of the weighted material of the sides still in
    /// the game (cubed, as the generic estimate does). Computed from the board
    /// and the hand sizes, which everybody sees; partners count as one side,
    /// which the generic estimate (by seat colour) cannot know.
    fn heuristic(&self, seat: Seat) -> f32 {
        match &self.outcome {
            Outcome::Won { winners, .. } => return f32::from(u8::from(winners.contains(&seat))),
            Outcome::Drawn { .. } => return 0.5,
            Outcome::Ongoing => {}
        }
        // An eliminated partner still wins with its partner (R14).
        if seat.index() >= 4 || (self.is_out(seat) && !self.partners) {
            return 0.0;
        }
        let side = |s: Seat| {
            if self.partners {
                s.index() % 2
            } else {
                s.index()
            }
        };
        let mut material = [0.0f64; 4];
        for p in self.cells.iter().flatten() {
            if !self.is_out(p.seat) {
                material[side(p.seat)] += piece_value(p.kind);
            }
        }
        for s in self.alive() {
            material[side(s)] += 0.5 * self.hands[s.index()].len() as f64;
        }
        let total: f64 = material.iter().map(|m| m.powi(3)).sum();
        if total <= 0.0 {
            return 0.5;
        }
        (material[side(seat)].powi(3) / total) as f32
    }
}

/// A rough worth of each piece for the computer opponent's estimate: the
/// King counts most because losing it loses everything.
fn piece_value(kind: Kind) -> f64 {
    match kind {
        Kind::King => 4.0,
        Kind::Wizard => 5.0,
        Kind::Fairy => 5.0,
        Kind::Frog => 3.0,
        Kind::Pawn => 1.0,
    }
}

impl Variant for MagicChess {
    /// The rule text has each player set up one army in a corner of the board: four players.
    /// Two players holding two opposite armies each is what a creator asks for with `players:2`.
    const PLAYERS: usize = 4;

    const KIND: GameKind = GameKind::MagicChess;

    fn unit_ids() -> Vec<&'static str> {
        pieces::Kind::ALL.iter().map(|k| k.unit()).collect()
    }

    fn options() -> &'static [OptionSpec] {
        &*deck::OPTIONS
    }

    /// Four players hold one seat each; two players hold opposite seats
    /// (Red and Yellow, Blue and Green) and should set `partners` (R15).
    fn seating(players: usize) -> Result<Vec<Vec<Seat>>, SetupError> {
        match players {
            4 => Ok((0..4).map(|s| vec![Seat(s)]).collect()),
            2 => Ok(vec![vec![Seat(0), Seat(2)], vec![Seat(1), Seat(3)]]),
            n => Err(SetupError(format!(
                "Magic Chess is played by four players (one army each) or two (two opposite armies each), not {n}."
            ))),
        }
    }

    fn setup(options: &Options, seed: impl Into<Seed>) -> Result<Self, SetupError> {
        let seed = seed.into();
        let cards = deck::deck(options)?;
        let partners = deck::partners(options)?;
        Ok(MagicChess::start(cards, partners, seed))
    }

    fn rules(topic: Option<&str>) -> Result<String, String> {
        rules::rules(topic)
    }

    /// Two players hold two opposite armies each and play as partners unless they say
    /// otherwise (R15): without it, one player's last army would play on against the other's.
    fn stamp(options: &mut Options, players: usize) {
        if players == 2 {
            options
                .entry("partners".to_string())
                .or_insert_with(|| "yes".to_string());
        }
    }
}
