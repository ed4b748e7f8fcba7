//! Tokar's Arcana: the Human army against the Undead army on an 8x8 board
//! (rules: `shared/rules/tokars-arcana.txt`; rulings: `engine/rules/arcana.md`).
//!
//! The module is built for the whole Arcana family: an army is a list of
//! units per starting square ([`Army`]), any two armies may meet, and the
//! unit enum is where Undead Arcana's units join.

mod action;
mod apply;
mod army;
mod cards;
mod explain;
mod moves;
mod notation;
mod position;
mod rules;
mod ruleset;
mod state;
mod trapped;
mod undead;
mod unit;
mod view;
mod zombie;

pub use action::Action;
pub use army::Army;
pub use cards::{card_page, card_under, rulesets_of};
pub use ruleset::{Ruleset, Variation};
pub use state::{Arcana, Pending, Piece, BOARD, BREW_TOKENS, QUIET_TURNS, RULINGS, TURN_LIMIT};
pub use unit::{Family, Rank, Unit};

use crate::catalog::{GameKind, OptionSpec, Options, Variant};
use crate::error::{ActionError, SetupError};
use crate::event::Event;
use crate::game::Game;
use crate::rng::{Rng, Seed};
use crate::seat::{Outcome, Seat, Viewer};
use crate::view::View;
use std::collections::VecDeque;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "army",
        help: "Your army: human, undead (Tokar's Arcana), undead-arcana, alternate (all Undead Arcana alternatives), or Undead Arcana picks such as ghoul/ghost/cultist/wraith/vampire/lich or pawn:ghoul*4+skeleton*4/lich (seat 0, the creator, sits at ranks 1-2; by default the second player takes the other army).",
        choices: &[],
        per_seat: true,
    },
    OptionSpec {
        name: "first",
        help: "Who moves first: random (from the game's seed), creator or opponent.",
        choices: &["random", "creator", "opponent"],
        per_seat: false,
    },
    OptionSpec {
        name: "check",
        help: "The optional \"Check\" rule: announce when a General may be killed next turn (on or off).",
        choices: &["on", "off"],
        per_seat: false,
    },
];

/// The option the table writes into every new game (not one players type):
/// the edition of the rulings the game plays by ([`RULINGS`]).
const RULINGS_KEY: &str = "rulings";

impl Arcana {
    /// A new game: `armies[0]` at ranks 1-2, `armies[1]` at ranks 7-8, each
    /// laid out from its owner's side of the table (Figure 1-1).
    pub fn new(armies: [Army; 2], first: Seat, check: bool) -> Arcana {
        let mut board = vec![None; BOARD.len()];
        for (s, army) in armies.iter().enumerate() {
            let seat = Seat(s as u8);
            for i in 0..8 {
                // The owner's left-to-right: a..h for seat 0, h..a for seat 1.
                let file = if s == 0 { i as i32 } else { 7 - i as i32 };
                let (back, front) = if s == 0 { (0, 1) } else { (7, 6) };
                let b = BOARD.at(file, back).expect("on board");
                let f = BOARD.at(file, front).expect("on board");
                board[b.index()] = Some(Piece::new(army.back[i], seat));
                board[f.index()] = Some(Piece::new(army.front[i], seat));
            }
        }
        let mut g = Arcana {
            armies,
            board,
            graves: [Vec::new(), Vec::new()],
            turn: first,
            turn_number: 1,
            pending: VecDeque::new(),
            ending: false,
            quiet: 0,
            check,
            outcome: Outcome::Ongoing,
            buried: [Vec::new(), Vec::new()],
            vampire_acted: None,
            extra_taken: false,
            rulings: RULINGS,
        };
        g.update_paralysis();
        g
    }

    /// The name of a seat: its army's name, told apart by its side of the
    /// board when both sides field the same army.
    pub(crate) fn seat_name_of(&self, seat: Seat) -> String {
        let mine = &self.armies[seat.index()].name;
        let theirs = &self.armies[1 - seat.index()].name;
        if mine == theirs {
            format!("{mine} {}", if seat.0 == 0 { "(south)" } else { "(north)" })
        } else {
            mine.clone()
        }
    }

    fn check_seat(&self, seat: Seat) -> Result<(), ActionError> {
        if self.outcome.is_over() {
            return Err(ActionError::GameOver);
        }
        if seat.index() > 1 {
            return Err(ActionError::NotYourTurn(format!(
                "There is no {seat} in Arcana."
            )));
        }
        let waiting = self.to_act();
        if !waiting.contains(&seat) {
            let who = waiting
                .first()
                .map(|&s| self.seat_name_of(s))
                .unwrap_or_default();
            return Err(ActionError::NotYourTurn(match self.pending.front() {
                Some(p) => format!("Waiting for {who}: {}.", self.pending_text(p)),
                None => format!("It is {who}'s turn."),
            }));
        }
        Ok(())
    }

    /// Checks a parsed action: legal for `seat` now, or why not.
    fn validate(&self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        self.check_seat(seat)?;
        if self.candidates(seat, action).contains(action) {
            Ok(())
        } else {
            Err(ActionError::Illegal(self.explain(seat, action)))
        }
    }
}

impl Arcana {
    /// Replaces the game's chance from here on: there is none. Only the
    /// setup draws on chance (who moves first, option `first:random`), and a
    /// game that goes on from a position has had its setup. Kept so that every
    /// game answers the table's re-seed (ruling T13) in its own words.
    pub fn reseed(&mut self, _seed: impl Into<Seed>) {}

    /// As [`Arcana::reseed`]: there is no generator to replace.
    pub fn rekey(&mut self, _seed: impl Into<Seed>) {}

    /// Always: after its setup Arcana has no chance to protect.
    pub fn chance_is_strong(&self) -> bool {
        true
    }
}

fn setup_error(msg: impl Into<String>) -> SetupError {
    SetupError(msg.into())
}

impl Game for Arcana {
    type Action = Action;

    fn seat_count(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        if seat.index() > 1 {
            return seat.to_string();
        }
        self.seat_name_of(seat)
    }

    fn to_act(&self) -> Vec<Seat> {
        if self.outcome.is_over() {
            return Vec::new();
        }
        match self.pending.front() {
            Some(p) => vec![p.seat()],
            None => vec![self.turn],
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.outcome.is_over() || !self.to_act().contains(&seat) {
            return Vec::new();
        }
        if self.pending.front().is_some() {
            return self.pending_actions();
        }
        let mut out = self.command_actions(seat);
        if out.is_empty() {
            out.push(Action::Pass);
        }
        out
    }

    fn play(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        self.validate(seat, action)?;
        Ok(self.apply(seat, action))
    }

    fn format(&self, action: &Action) -> String {
        self.notation(action)
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let action = self.read(seat, text)?;
        self.validate(seat, &action)?;
        Ok(action)
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn move_number(&self) -> u32 {
        self.turn_number
    }

    fn view(&self, viewer: Viewer) -> View {
        self.build_view(viewer)
    }

    fn concede(&mut self, seat: Seat) -> Vec<Event> {
        if self.outcome.is_over() || seat.index() > 1 {
            return Vec::new();
        }
        let winner = Arcana::other(seat);
        let reason = format!("{} resigned.", self.seat_name_of(seat));
        self.outcome = Outcome::Won {
            winners: vec![winner],
            reason: reason.clone(),
        };
        self.pending.clear();
        vec![Event::new(format!("Game over: {reason}"))]
    }

    fn redeal(&self, _seat: Seat, _seed: u64) -> Self {
        // Arcana hides nothing: every seat sees the whole position.
        self.clone()
    }

    /// Rank-weighted material rather than a head count: a Duelist is worth far
    /// more than an Imperial Warrior, a burning model is nearly lost, a gassed
    /// one is hampered; and a General under threat while his side is not to
    /// move is close to lost.
    fn heuristic(&self, seat: Seat) -> f32 {
        match &self.outcome {
            Outcome::Won { winners, .. } => return if winners.contains(&seat) { 1.0 } else { 0.0 },
            Outcome::Drawn { .. } => return 0.5,
            Outcome::Ongoing => {}
        }
        let mut material = [0.0f64; 2];
        for (_, p) in self.pieces() {
            let mut w = match p.rank() {
                Rank::Soldier => 1.0,
                Rank::Sergeant | Rank::Lieutenant => 3.0,
                Rank::Captain => 4.0,
                Rank::Chief => 6.0,
                Rank::General => 0.0,
            };
            if p.tokens > 0 {
                w *= 0.1 * p.tokens as f64;
            }
            if p.paralysed {
                w *= 0.8;
            }
            material[p.owner.index()] += w;
        }
        let (me, them) = (material[seat.index()], material[1 - seat.index()]);
        let total = me.powi(3) + them.powi(3);
        let share = if total <= 0.0 {
            0.5
        } else {
            me.powi(3) / total
        };
        // The side to move can strike first: a General it threatens is in peril.
        let mover = self.turn;
        let peril = if self.pending.is_empty() && self.threatens_general(mover) {
            if mover == seat {
                0.25
            } else {
                -0.25
            }
        } else {
            0.0
        };
        (share + peril).clamp(0.02, 0.98) as f32
    }
}

impl Variant for Arcana {
    const KIND: GameKind = GameKind::Arcana;

    fn unit_ids() -> Vec<&'static str> {
        unit::Unit::ALL.iter().map(|u| u.id()).collect()
    }

    fn options() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn seating(players: usize) -> Result<Vec<Vec<Seat>>, SetupError> {
        if players == 2 {
            Ok(vec![vec![Seat(0)], vec![Seat(1)]])
        } else {
            Err(setup_error(format!(
                "Arcana is played by exactly 2 players, not {players}."
            )))
        }
    }

    fn setup(options: &Options, seed: impl Into<Seed>) -> Result<Self, SetupError> {
        let seed = seed.into();
        for key in options.keys() {
            let (base, suffix) = match key.split_once('.') {
                Some((b, s)) => (b, Some(s)),
                None => (key.as_str(), None),
            };
            if key == RULINGS_KEY {
                continue;
            }
            let spec = OPTIONS.iter().find(|o| o.name == base);
            let seat_ok = match (spec, suffix) {
                (Some(o), Some(s)) => o.per_seat && (s == "0" || s == "1"),
                (Some(_), None) => true,
                (None, _) => false,
            };
            if !seat_ok {
                return Err(setup_error(format!(
                    "Arcana has no option '{key}' (options: army, first, check)."
                )));
            }
        }
        let pick = |text: &str| {
            Army::parse(text).map_err(|e| setup_error(format!("Army '{}': {e}", text.trim())))
        };
        let army0 = match options.get("army.0").or_else(|| options.get("army")) {
            Some(t) => pick(t)?,
            None => Army::human(),
        };
        let army1 = match options.get("army.1") {
            Some(t) => pick(t)?,
            None if army0.name == Army::human().name => Army::undead(),
            None => Army::human(),
        };
        let first = match options.get("first").map(|s| s.trim().to_ascii_lowercase()) {
            None => Seat(Rng::from_seed(seed).below(2) as u8),
            Some(s) if s == "random" => Seat(Rng::from_seed(seed).below(2) as u8),
            Some(s) if s == "creator" => Seat(0),
            Some(s) if s == "opponent" => Seat(1),
            Some(s) => {
                return Err(setup_error(format!(
                    "Unknown value '{s}' for first: choose random, creator or opponent."
                )))
            }
        };
        let check = match options.get("check").map(|s| s.trim().to_ascii_lowercase()) {
            None => true,
            Some(s) if s == "on" => true,
            Some(s) if s == "off" => false,
            Some(s) => {
                return Err(setup_error(format!(
                    "Unknown value '{s}' for check: choose on or off."
                )))
            }
        };
        let rulings = match options.get(RULINGS_KEY).map(|s| s.trim()) {
            // Stored before editions existed: the first rulings.
            None => 1,
            Some(v) => v
                .parse::<u8>()
                .ok()
                .filter(|r| (1..=RULINGS).contains(r))
                .ok_or_else(|| {
                    setup_error(format!(
                        "Unknown edition '{v}' of the Arcana rulings (1 to {RULINGS})."
                    ))
                })?,
        };
        let mut g = Arcana::new([army0, army1], first, check);
        g.rulings = rulings;
        Ok(g)
    }

    /// New games play by the current rulings; a game stored without the
    /// mark began before editions existed and replays by the first.
    fn stamp(options: &mut Options, _players: usize) {
        options
            .entry(RULINGS_KEY.to_string())
            .or_insert_with(|| RULINGS.to_string());
    }

    fn rules(topic: Option<&str>) -> Result<String, String> {
        rules::rules(topic)
    }

    /// The army is free text (presets or Undead Arcana picks, U11): refused
    /// at `/new` and `/accept` when it does not read.
    fn check_option(name: &str, value: &str) -> Result<(), String> {
        if name == "army" {
            Army::parse(value)
                .map_err(|e| format!("Option army cannot be '{}': {e}", value.trim()))?;
        }
        Ok(())
    }

    fn named_values(name: &str) -> Vec<&'static str> {
        rules::named_values(name)
    }
}
