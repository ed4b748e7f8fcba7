//! The spell deck: its make-up (a game option, ruling R5), the deal, drawing,
//! and re-dealing the cards a seat has not seen.

use super::pieces::{seat_name, Spell};
use super::MagicChess;
use crate::catalog::{OptionSpec, Options};
use crate::error::SetupError;
use crate::event::Event;
use crate::rng::{Rng, Seed};
use crate::seat::Seat;
use std::sync::LazyLock;

/// Cards of each spell in the default deck (ruling R5): 30 cards, 12 dealt.
pub const DEFAULT_COPIES: usize = 10;
/// The most copies of one spell a deck may hold.
pub const MAX_COPIES: usize = 40;
/// Cards dealt to each player at the start.
pub const HAND: usize = 3;

/// The options, their help stating the counts [`deck`] accepts (built once:
/// the numbers come from [`DEFAULT_COPIES`] and [`MAX_COPIES`], so the help
/// cannot keep stating old ones).
pub static OPTIONS: LazyLock<[OptionSpec; 4]> = LazyLock::new(|| {
    let cards = |spell: &str| -> &'static str {
        String::leak(format!(
            "{spell} cards in the deck (0-{MAX_COPIES}, default {DEFAULT_COPIES})"
        ))
    };
    [
        OptionSpec {
            name: "freeze-cards",
            help: cards("Freeze"),
            choices: &[],
            per_seat: false,
        },
        OptionSpec {
            name: "slow-cards",
            help: cards("Slow"),
            choices: &[],
            per_seat: false,
        },
        OptionSpec {
            name: "anti-jump-cards",
            help: cards("Anti-Jump"),
            choices: &[],
            per_seat: false,
        },
        OptionSpec {
            name: "partners",
            help: "yes: Red and Yellow play together against Blue and Green (for two players)",
            choices: &["no", "yes"],
            per_seat: false,
        },
    ]
});

fn copies(options: &Options, key: &str) -> Result<usize, SetupError> {
    match options.get(key) {
        None => Ok(DEFAULT_COPIES),
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if n <= MAX_COPIES => Ok(n),
            _ => Err(SetupError(format!(
                "{key} must be a whole number from 0 to {MAX_COPIES}, not '{v}'."
            ))),
        },
    }
}

/// The deck the options ask for, unshuffled.
pub fn deck(options: &Options) -> Result<Vec<Spell>, SetupError> {
    for key in options.keys() {
        let (base, seat) = match key.split_once('.') {
            Some((b, s)) => (b, Some(s)),
            None => (key.as_str(), None),
        };
        if !OPTIONS.iter().any(|o| o.name == base) {
            return Err(SetupError(format!(
                "Magic Chess has no option '{base}'. Options: freeze-cards, slow-cards, anti-jump-cards, partners."
            )));
        }
        if seat.is_some() {
            return Err(SetupError(format!(
                "{base} is set once for the whole game, not per seat."
            )));
        }
    }
    let mut cards = Vec::new();
    for (spell, key) in [
        (Spell::Freeze, "freeze-cards"),
        (Spell::Slow, "slow-cards"),
        (Spell::AntiJump, "anti-jump-cards"),
    ] {
        cards.extend(std::iter::repeat_n(spell, copies(options, key)?));
    }
    Ok(cards)
}

/// Whether the partners option is on.
pub fn partners(options: &Options) -> Result<bool, SetupError> {
    match options
        .get("partners")
        .map(|v| v.trim().to_ascii_lowercase())
    {
        None => Ok(false),
        Some(v) if v == "no" => Ok(false),
        Some(v) if v == "yes" => Ok(true),
        Some(v) => Err(SetupError(format!("partners is yes or no, not '{v}'."))),
    }
}

impl MagicChess {
    /// Shuffles `cards` and deals three to each seat, one at a time in turn
    /// order, while cards last; the rest is the draw pile (its top is last).
    pub(super) fn shuffle_and_deal(&mut self, mut cards: Vec<Spell>) {
        self.rng.shuffle(&mut cards);
        for _ in 0..HAND {
            for s in 0..4 {
                if let Some(c) = cards.pop() {
                    self.hands[s].push(c);
                }
            }
        }
        self.draw_pile = cards;
    }

    /// `seat` draws the top card, if any: the public event names no card.
    pub(super) fn draw(&mut self, seat: Seat) -> Event {
        let who = seat_name(seat);
        match self.draw_pile.pop() {
            Some(card) => {
                self.hands[seat.index()].push(card);
                Event::new(format!(
                    "{who} draws a card ({} left in the draw pile).",
                    self.draw_pile.len()
                ))
                .chance()
                .secret(seat, format!("You drew {}.", card.name()))
            }
            None => Event::new(format!("The draw pile is empty: {who} draws nothing.")),
        }
    }

    /// Replaces the game's chance from here on with `seed`, keeping the
    /// board, the discard pile and every hand's size: every hand and the draw
    /// pile are gathered, shuffled from `seed` and dealt again, and later
    /// draws come from a generator drawn from it (of the seed's kind and width:
    /// [`Rng::fork`]). Used where a game that
    /// replayed a record goes on with a secret seed: the record's seed fixed
    /// the deal, so whoever knew it knew every hand and the pile's order
    /// (the table's ruling T13).
    pub fn reseed(&mut self, seed: impl Into<Seed>) {
        let mut rng = Rng::from_seed(seed);
        let mut pool: Vec<Spell> = self.draw_pile.drain(..).collect();
        let sizes: Vec<usize> = self.hands.iter().map(Vec::len).collect();
        for hand in &mut self.hands {
            pool.append(hand);
        }
        rng.shuffle(&mut pool);
        for (hand, &size) in self.hands.iter_mut().zip(&sizes) {
            *hand = pool.split_off(pool.len() - size);
        }
        self.draw_pile = pool;
        self.rng = rng.fork();
    }

    /// Replaces the generator with one drawn from `seed` in the middle of play
    /// (engine/rules/chance.md): the draw pile, which nobody has seen, is shuffled again from
    /// `seed`, and later shuffles come from a generator drawn from it. The hands stay as
    /// dealt: their holders have seen them.
    pub fn rekey(&mut self, seed: impl Into<Seed>) {
        let mut rng = Rng::from_seed(seed);
        rng.shuffle(&mut self.draw_pile);
        self.rng = rng.fork();
    }

    /// Whether the draw pile's order and later shuffles come from the strong generator.
    pub fn chance_is_strong(&self) -> bool {
        self.rng.is_strong()
    }

    /// A copy in which the other hands and the draw pile are re-dealt at random
    /// from the cards `seat` has not seen, keeping every hand's size.
    pub(super) fn redeal_for(&self, seat: Seat, seed: u64) -> MagicChess {
        let mut copy = self.clone();
        let mut rng = Rng::new(seed);
        let mut pool: Vec<Spell> = copy.draw_pile.drain(..).collect();
        let mut sizes = [0usize; 4];
        for (s, hand) in copy.hands.iter_mut().enumerate() {
            if s != seat.index() {
                sizes[s] = hand.len();
                pool.append(hand);
            }
        }
        rng.shuffle(&mut pool);
        for (s, &size) in sizes.iter().enumerate() {
            if s != seat.index() {
                copy.hands[s] = pool.split_off(pool.len() - size);
            }
        }
        copy.draw_pile = pool;
        copy.rng = Rng::new(rng.next_u64());
        copy
    }
}
