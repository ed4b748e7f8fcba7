//! The players a match may pit against each other: the search at a level
//! (with the level's settings for the game, as the bot plays it, and
//! optional overrides), the one-ply greedy and random players, and the
//! seer, a search that reads the true future dice (and every hidden card):
//! the ceiling that luck leaves to a player of a dice game.

use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::search::{self, Budget, Level, Playout, Prior, Settings};
use tokar_engine::{ActionError, Event, Game, Outcome, Seat, View, Viewer};

/// Who plays, and within what budget.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub kind: Kind,
    /// The search's settings (unused by greedy and random).
    pub settings: Settings,
    /// Iterations per move: the count played (it lifts the level's own cap,
    /// as in the strength example); `None` keeps the level's cap.
    pub iterations: Option<u32>,
    /// Wall time per move, as the bot's deadline (`None`: no clock).
    pub time: Option<Duration>,
    /// The spec as given, for the report.
    pub spec: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Search(Level),
    /// The search over the true state (see [`Truth`]), normal's settings.
    Seer,
    /// The greedy player over the true state: one ply that knows the dice.
    SeerGreedy,
    Greedy,
    /// Greedy by the material share of the public view only.
    Material,
    Random,
}

impl Player {
    /// Reads a player spec: a level (`easy`, `normal`, `hard`, `greedy`,
    /// `material`, `random`, `seer`, `seer-greedy`) then comma-separated overrides
    /// `key=value`: `iterations`, `time` (`2s`, `500ms`), and the strength
    /// example's setting flags without their dashes (`plies`, `playout`,
    /// `prior`, `c`, `prior-weight`, `widening`, `win-check`, `first-play`, `chance`, `guard`).
    /// The settings start from the level's for `game` (`search::settings_for`:
    /// first-play urgency in Gladiator and Arachne, as the bot plays).
    pub fn parse(spec: &str, game: GameKind, defaults: &Defaults) -> Result<Player, String> {
        let mut parts = spec.split(',').map(str::trim);
        let level = parts.next().unwrap_or_default().to_ascii_lowercase();
        let kind = match level.as_str() {
            "greedy" => Kind::Greedy,
            "material" => Kind::Material,
            "random" => Kind::Random,
            "seer" => Kind::Seer,
            "seer-greedy" => Kind::SeerGreedy,
            other => Kind::Search(Level::parse(other).ok_or(format!(
                "no player '{other}' (easy, normal, hard, greedy, material, random, seer, seer-greedy)"
            ))?),
        };
        let level = match kind {
            Kind::Search(level) => level,
            _ => Level::Normal,
        };
        let any = AnyGame::setup(game, &Options::new(), 0).map_err(|e| e.to_string())?;
        let mut player = Player {
            kind,
            settings: search::settings_for(&any, level),
            iterations: defaults.iterations,
            time: defaults.time,
            spec: spec.to_string(),
        };
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or(format!("'{part}' is not key=value"))?;
            player.set(key, value)?;
        }
        if let Some(n) = player.iterations {
            player.settings.max_iterations = player.settings.max_iterations.max(n);
        }
        Ok(player)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let number = |v: &str| v.parse::<f32>().map_err(|_| format!("not a number: {v}"));
        let whole = |v: &str| v.parse::<u32>().map_err(|_| format!("not a count: {v}"));
        let on = |v: &str| match v {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(format!("{key} is on or off, not {v}")),
        };
        let s = &mut self.settings;
        match key {
            "iterations" => self.iterations = Some(whole(value)?.max(1)),
            "time" => self.time = Some(duration(value)?),
            "plies" => s.playout_plies = whole(value)?.min(u16::MAX.into()) as u16,
            "playout" => {
                s.playout = match value.strip_prefix("best:") {
                    Some(n) => Playout::BestOf(whole(n)?.min(255) as u8),
                    None if value == "random" => Playout::Random,
                    None => return Err(format!("no playout '{value}'")),
                }
            }
            "prior" => {
                s.prior = match value {
                    "none" => Prior::None,
                    "events" => Prior::Events,
                    "heuristic" => Prior::Heuristic,
                    v => return Err(format!("no prior '{v}'")),
                }
            }
            "c" => s.exploration = number(value)?,
            "prior-weight" => s.prior_weight = number(value)?,
            "widening" => s.widening = number(value)?,
            "win-check" => s.win_check = on(value)?,
            "first-play" => s.first_play = on(value)?,
            "chance" => s.chance = on(value)?,
            "guard" => s.guard = on(value)?,
            "alpha-beta" => s.alpha_beta = on(value)?,
            other => return Err(format!("unknown setting '{other}'")),
        }
        Ok(())
    }

    /// `seat`'s action in `game`, with the move's `seed`.
    pub fn choose<G: Game>(&self, game: &G, seat: Seat, seed: u64) -> Option<G::Action> {
        match self.kind {
            Kind::Search(_) => self.search(game, seat, seed),
            Kind::Seer => self.search(&Truth(game.clone()), seat, seed),
            Kind::SeerGreedy => search::greedy(&Truth(game.clone()), seat, seed),
            Kind::Greedy => search::greedy(game, seat, seed),
            Kind::Material => search::greedy_by(game, seat, seed, |g, seat| {
                search::material_share(&g.view(Viewer::Spectator), seat)
            }),
            Kind::Random => search::random(game, seat, seed),
        }
    }

    fn search<G: Game>(&self, game: &G, seat: Seat, seed: u64) -> Option<G::Action> {
        let deadline = self.time.map(|t| Instant::now() + t);
        let stop = move || deadline.is_some_and(|d| Instant::now() >= d);
        let budget = Budget {
            max_iterations: self.iterations.unwrap_or(u32::MAX),
            should_stop: &stop,
        };
        search::choose_with(game, seat, &self.settings, &budget, seed).map(|c| c.action)
    }

    /// Whether the player's moves depend on the clock.
    pub fn timed(&self) -> bool {
        self.time.is_some() && matches!(self.kind, Kind::Search(_) | Kind::Seer)
    }
}

/// Budgets that apply to both players unless a spec sets its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct Defaults {
    pub iterations: Option<u32>,
    pub time: Option<Duration>,
}

/// `2s`, `1.5s`, `500ms`.
pub fn duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("not a time: {text} (write 2s or 500ms)");
    let (number, scale) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 0.001)
    } else if let Some(s) = text.strip_suffix('s') {
        (s, 1.0)
    } else {
        return Err(bad());
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    if !(value > 0.0 && value < 3600.0) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(value * scale))
}

/// A game whose `redeal` is the true state itself: the search over it knows
/// the future dice, the deck order and every hand, as no player may.
///
/// It lives in this example only, so the bot cannot reach it: the bot plays
/// through `tokar_engine::search`, whose only way to look at a position is
/// [`Game::redeal`] of the real game's own type (engine/rules/search.md,
/// "What it may know"). Every other method is the game's own.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Truth<G>(pub G);

impl<G: Game> Game for Truth<G> {
    type Action = G::Action;

    fn seat_count(&self) -> usize {
        self.0.seat_count()
    }
    fn seat_name(&self, seat: Seat) -> String {
        self.0.seat_name(seat)
    }
    fn to_act(&self) -> Vec<Seat> {
        self.0.to_act()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<G::Action> {
        self.0.legal_actions(seat)
    }
    fn play(&mut self, seat: Seat, action: &G::Action) -> Result<Vec<Event>, ActionError> {
        self.0.play(seat, action)
    }
    fn format(&self, action: &G::Action) -> String {
        self.0.format(action)
    }
    fn parse(&self, seat: Seat, text: &str) -> Result<G::Action, ActionError> {
        self.0.parse(seat, text)
    }
    fn outcome(&self) -> Outcome {
        self.0.outcome()
    }
    fn move_number(&self) -> u32 {
        self.0.move_number()
    }
    fn view(&self, viewer: Viewer) -> View {
        self.0.view(viewer)
    }
    fn concede(&mut self, seat: Seat) -> Vec<Event> {
        self.0.concede(seat)
    }
    fn skip(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        self.0.skip(seat)
    }
    /// The true state, unchanged: no guess.
    fn redeal(&self, _seat: Seat, _seed: u64) -> Truth<G> {
        self.clone()
    }
    fn heuristic(&self, seat: Seat) -> f32 {
        self.0.heuristic(seat)
    }
}
