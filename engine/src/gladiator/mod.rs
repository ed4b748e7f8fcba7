//! Gladiator Chess: a 10x12 board, two teams of four commanders who move in a
//! fixed order, dice combat against hit points, and a Queen who freezes
//! pieces and can be captured and held. The rulings where the text is silent
//! are numbered in `engine/rules/gladiator.md` (R1, R2, ...).
//!
//! * [`piece`]: kinds, teams, commanders and their numbers;
//! * [`moves`]: where pieces go, what a move onto a square means, check;
//! * [`play`]: applying a move: combat, freezing, the captive Queen, the turn order;
//! * [`notation`]: `e2-e4`, `e4xe5`, `king: c3-c4`, `a11-a12=W`;
//! * [`show`]: the view for each seat;
//! * [`rules`]: the rules for people, by topic.

mod chance;
mod estimate;
pub mod moves;
pub mod notation;
pub mod piece;
pub mod play;
pub mod rules;
pub mod show;

pub use piece::{
    Commander, Kind, Piece, Team, ATTACK_DICE, CHAMPION_STEPS, DIE_SIDES, FOOTMAN_BECOMES,
    FROZEN_DICE,
};

use crate::board::{Board, Cell};
use crate::catalog::{GameKind, OptionSpec, Options, Variant};
use crate::error::{ActionError, SetupError};
use crate::event::Event;
use crate::game::Game;
use crate::rng::{Rng, Seed};
use crate::seat::{Outcome, Seat, Viewer};
use crate::view::View;
use serde::{Deserialize, Serialize};

/// The board: ten files (a-j) and twelve ranks.
pub const BOARD: Board = Board::grid(10, 12);
/// A captured Queen held this many of her team's turns wins the game (R9).
pub const HOLD_TURNS: u8 = 5;

/// The back row, files a to j, for both teams (the table at the end of the
/// rule text; its "Mounted Lancer" is the King's Knight, R1).
pub const BACK_ROW: [Kind; 10] = [
    Kind::Warrior,
    Kind::MountedKnight,
    Kind::Scout,
    Kind::Champion,
    Kind::Queen,
    Kind::King,
    Kind::BlackKnight,
    Kind::Scout,
    Kind::KingsKnight,
    Kind::Warrior,
];

/// One move: a piece from `from` to `to`. `by_king` marks the King overriding
/// another commander's move; `promote` names the captured piece that replaces
/// a Footman or Squire reaching the far side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    pub from: Cell,
    pub to: Cell,
    pub promote: Option<Kind>,
    pub by_king: bool,
}

/// A piece frozen by a Queen: off the board (on the tally) while she stands on `cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frozen {
    pub cell: Cell,
    pub piece: Piece,
}

/// A captured Queen, held by the piece `captor` for `held` of her team's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Captive {
    pub queen: Piece,
    pub captor: u16,
    pub held: u8,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Gladiator {
    cells: Vec<Option<Piece>>,
    /// By the team of the Queen that holds the piece frozen.
    frozen: [Option<Frozen>; 2],
    /// By the team whose Queen is held.
    captive: [Option<Captive>; 2],
    /// Pieces each team lost (killed), which a pawn on the far side may bring back.
    lost: [Vec<Kind>; 2],
    /// The team whose turn it is, and which of its four commanders moves now.
    team: Team,
    slot: u8,
    /// Pieces of the team to move that already moved (or attacked) this turn.
    moved: Vec<u16>,
    /// Team turns so far, counting from 1.
    turn: u32,
    rng: Rng,
    last_dice: Option<(Seat, Vec<u8>)>,
    /// The same dice split into the attacker's and the defender's, with
    /// their totals, for the picture.
    #[serde(default)]
    last_rolls: Vec<crate::view::Roll>,
    outcome: Outcome,
    next_id: u16,
    /// Battle dice to use before the generator's: the search's copies only
    /// ([`Game::play_chance`]), never stored.
    #[serde(skip)]
    loaded: Vec<u8>,
}

impl Gladiator {
    /// The starting position of the rule text's table.
    pub fn new(seed: impl Into<Seed>) -> Gladiator {
        let mut g = Gladiator::empty(seed);
        for (file, &kind) in BACK_ROW.iter().enumerate() {
            let f = file as i32;
            g.place(cell_at(f, 0), Team::White, kind);
            g.place(cell_at(f, 11), Team::Black, kind);
            // Each file has a White Squire facing a Black Footman or the reverse.
            let (white_pawn, black_pawn) = if file % 2 == 0 {
                (Kind::Squire, Kind::Footman)
            } else {
                (Kind::Footman, Kind::Squire)
            };
            g.place(cell_at(f, 1), Team::White, white_pawn);
            g.place(cell_at(f, 10), Team::Black, black_pawn);
        }
        g
    }

    /// An empty board, White's King to move: the start of a test position.
    pub fn empty(seed: impl Into<Seed>) -> Gladiator {
        Gladiator {
            cells: vec![None; BOARD.len()],
            frozen: [None, None],
            captive: [None, None],
            lost: [Vec::new(), Vec::new()],
            team: Team::White,
            slot: 0,
            moved: Vec::new(),
            turn: 1,
            rng: Rng::from_seed(seed),
            last_dice: None,
            last_rolls: Vec::new(),
            loaded: Vec::new(),
            outcome: Outcome::Ongoing,
            next_id: 1,
        }
    }

    fn place(&mut self, cell: Cell, team: Team, kind: Kind) {
        let id = self.next_id;
        self.next_id += 1;
        self.cells[cell.index()] = Some(Piece {
            id,
            kind,
            team,
            hp: kind.max_hp(),
        });
    }

    // ---- position builder (tests and puzzles) ----

    /// Puts a fresh piece on `square` (replacing what was there).
    pub fn put(&mut self, square: &str, team: Team, kind: Kind) -> &mut Gladiator {
        self.place(sq(square), team, kind);
        self
    }

    pub fn set_hp(&mut self, square: &str, hp: i32) -> &mut Gladiator {
        if let Some(p) = self.cells[sq(square).index()].as_mut() {
            p.hp = hp;
        }
        self
    }

    /// Replaces the game's chance from here on with a generator drawn from
    /// `seed`, keeping the position: nothing else was decided by chance
    /// ahead of time (battle dice are thrown when a battle happens). Used
    /// where a game that replayed a record goes on with a secret seed (the
    /// table's ruling T13).
    pub fn reseed(&mut self, seed: impl Into<Seed>) {
        self.rng = Rng::from_seed(seed);
    }

    /// Replaces the generator with one drawn from `seed` (engine/rules/chance.md): as
    /// [`Gladiator::reseed`], for nothing is thrown ahead of time.
    pub fn rekey(&mut self, seed: impl Into<Seed>) {
        self.reseed(seed);
    }

    /// Whether the battle dice to come are drawn from the strong generator.
    pub fn chance_is_strong(&self) -> bool {
        self.rng.is_strong()
    }

    /// Replaces the dice: the next rolls come from `rng`.
    pub fn set_rng(&mut self, rng: Rng) -> &mut Gladiator {
        self.rng = rng;
        self
    }

    /// Makes it `commander`'s move for `team`, with nothing moved yet this turn.
    pub fn set_turn(&mut self, team: Team, commander: Commander) -> &mut Gladiator {
        self.team = team;
        self.slot = commander as u8;
        self.moved.clear();
        self
    }

    /// Records the piece on `square` as having moved this turn.
    pub fn set_moved(&mut self, square: &str) -> &mut Gladiator {
        if let Some(p) = self.cells[sq(square).index()] {
            self.moved.push(p.id);
        }
        self
    }

    /// Sets the pieces `team` has lost (what its pawns may bring back).
    pub fn set_lost(&mut self, team: Team, kinds: &[Kind]) -> &mut Gladiator {
        self.lost[team.index()] = kinds.to_vec();
        self
    }

    // ---- reading the state ----

    pub fn piece_at(&self, square: &str) -> Option<Piece> {
        BOARD.parse(square).and_then(|c| self.cells[c.index()])
    }

    pub fn at(&self, cell: Cell) -> Option<Piece> {
        self.cells[cell.index()]
    }

    /// The piece held frozen by `team`'s Queen, and where.
    pub fn frozen_by(&self, team: Team) -> Option<Frozen> {
        self.frozen[team.index()]
    }

    /// `team`'s Queen, if she is held captive.
    pub fn captive(&self, team: Team) -> Option<Captive> {
        self.captive[team.index()]
    }

    pub fn lost(&self, team: Team) -> &[Kind] {
        &self.lost[team.index()]
    }

    pub fn team_to_move(&self) -> Team {
        self.team
    }

    pub fn commander_to_move(&self) -> Commander {
        Commander::ORDER[self.slot as usize % 4]
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// Where `kind` of `team` stands (the first found), for tests.
    pub fn find(&self, team: Team, kind: Kind) -> Option<Cell> {
        self.cells
            .iter()
            .position(|p| matches!(p, Some(p) if p.team == team && p.kind == kind))
            .map(|i| Cell(i as u16))
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Cell(i as u16), p)))
    }
}

/// The seat of `team`'s `commander`: White 0-3, Black 4-7, in moving order.
pub fn seat_of(team: Team, commander: Commander) -> Seat {
    Seat(team.index() as u8 * 4 + commander as u8)
}

pub fn team_of(seat: Seat) -> Team {
    Team::from_index(seat.index() / 4)
}

pub fn team_seats(team: Team) -> Vec<Seat> {
    (0..4).map(|i| Seat(team.index() as u8 * 4 + i)).collect()
}

pub(crate) fn cell_at(file: i32, rank: i32) -> Cell {
    BOARD.at(file, rank).expect("on the board")
}

/// A square by name; for the builder, which tests call with fixed names.
fn sq(square: &str) -> Cell {
    BOARD
        .parse(square)
        .unwrap_or_else(|| panic!("no square {square}"))
}

pub(crate) fn name(cell: Cell) -> String {
    BOARD.name(cell)
}

impl Game for Gladiator {
    type Action = Action;

    fn seat_count(&self) -> usize {
        8
    }

    fn seat_name(&self, seat: Seat) -> String {
        let team = team_of(seat);
        let commander = Commander::ORDER[seat.index() % 4];
        format!("{} {}", team.name(), commander.name())
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_over() {
            return Vec::new();
        }
        let king = seat_of(self.team, Commander::King);
        if self.slot == 0 {
            return vec![king];
        }
        let commander = seat_of(self.team, self.commander_to_move());
        if self.has_legal(commander) {
            vec![commander, king]
        } else {
            vec![king]
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn play(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        let effect = self.check_action(seat, action)?;
        Ok(self.apply(seat, action, effect))
    }

    fn format(&self, action: &Action) -> String {
        notation::format(self, action)
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        notation::parse(self, seat, text)
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn move_number(&self) -> u32 {
        self.turn
    }

    fn view(&self, viewer: Viewer) -> View {
        show::view(self, viewer)
    }

    fn concede(&mut self, seat: Seat) -> Vec<Event> {
        if self.outcome.is_over() || seat.index() >= 8 {
            return Vec::new();
        }
        let loser = team_of(seat);
        let text = format!(
            "The {} {} concedes: {} wins.",
            loser.name(),
            Commander::ORDER[seat.index() % 4].name(),
            loser.other().name()
        );
        self.outcome = Outcome::Won {
            winners: team_seats(loser.other()),
            reason: format!("{} conceded", loser.name()),
        };
        vec![Event::new(text)]
    }

    /// A commander whose player is away past the deadline loses that move,
    /// as if overridden (R25); the King's move can be passed over too.
    fn skip(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        if self.outcome.is_over() {
            return Err(ActionError::GameOver);
        }
        if seat != self.seat_to_move() {
            return Err(ActionError::NotYourTurn(format!(
                "Only the commander to move can be passed over; it is the {}'s move.",
                self.seat_name(self.seat_to_move())
            )));
        }
        let mut events = vec![Event::new(format!(
            "The {}'s move is passed over.",
            self.seat_name(seat)
        ))];
        self.slot += 1;
        self.begin_slot(&mut events);
        Ok(events)
    }

    /// Material by hit points, the Queens free, threatened or held, the
    /// Kings' safety (see `estimate.rs`).
    fn heuristic(&self, seat: Seat) -> f32 {
        self.estimate(seat)
    }

    /// A battle's distinct results by their exact odds.
    fn chance(&self, seat: Seat, action: &Action) -> Vec<f64> {
        self.battle_odds(seat, action)
    }

    fn play_chance(
        &mut self,
        seat: Seat,
        action: &Action,
        outcome: usize,
    ) -> Result<Vec<Event>, ActionError> {
        self.play_battle_outcome(seat, action, outcome)
    }

    /// Nothing is hidden but the future dice: a fresh generator is the whole guess.
    fn redeal(&self, _seat: Seat, seed: u64) -> Gladiator {
        let mut copy = self.clone();
        copy.rng = Rng::new(seed);
        copy.loaded.clear();
        copy
    }
}

impl Variant for Gladiator {
    const KIND: GameKind = GameKind::Gladiator;

    fn unit_ids() -> Vec<&'static str> {
        piece::Kind::ALL.iter().map(|k| k.unit_id()).collect()
    }

    fn options() -> &'static [OptionSpec] {
        &[]
    }

    /// Seats go to players in joining order (the creator first); one player
    /// always holds seats of one team only. See R14 in the rules page.
    fn seating(players: usize) -> Result<Vec<Vec<Seat>>, SetupError> {
        let s = |v: &[u8]| v.iter().map(|&i| Seat(i)).collect::<Vec<_>>();
        let plan: Vec<Vec<Seat>> = match players {
            2 => vec![s(&[0, 1, 2, 3]), s(&[4, 5, 6, 7])],
            3 => vec![s(&[0, 1, 2, 3]), s(&[4, 5]), s(&[6, 7])],
            4 => vec![s(&[0, 1]), s(&[4, 5]), s(&[2, 3]), s(&[6, 7])],
            5 => vec![s(&[0, 1]), s(&[4, 5]), s(&[2, 3]), s(&[6]), s(&[7])],
            6 => vec![s(&[0, 1]), s(&[4, 5]), s(&[2]), s(&[6]), s(&[3]), s(&[7])],
            7 => vec![
                s(&[0, 1]),
                s(&[4]),
                s(&[2]),
                s(&[5]),
                s(&[3]),
                s(&[6]),
                s(&[7]),
            ],
            8 => vec![
                s(&[0]),
                s(&[4]),
                s(&[1]),
                s(&[5]),
                s(&[2]),
                s(&[6]),
                s(&[3]),
                s(&[7]),
            ],
            n => {
                return Err(SetupError(format!(
                    "Gladiator Chess is for 2 to 8 players (two teams of four commanders), not {n}."
                )))
            }
        };
        Ok(plan)
    }

    fn setup(_options: &Options, seed: impl Into<Seed>) -> Result<Gladiator, SetupError> {
        Ok(Gladiator::new(seed))
    }

    fn rules(topic: Option<&str>) -> Result<String, String> {
        rules::rules(topic)
    }
}
