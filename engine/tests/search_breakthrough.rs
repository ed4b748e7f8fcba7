//! The search on a small capture game, Breakthrough on 5x5: each side has two
//! rows of pawns that step straight or diagonally forward and capture only
//! diagonally; reaching the far row or capturing every enemy pawn wins. Like
//! the chess variants, material matters and a one-ply player hangs pieces.

use serde::{Deserialize, Serialize};
use tokar_engine::search::{self, choose, choose_with, Budget, Level, Settings};
use tokar_engine::{
    ActionError, Board, Cell, Event, Game, Glyph, Mark, Outcome, PieceView, Rng, Seat, SeatView,
    View, Viewer,
};

const N: i32 = 5;

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Breakthrough {
    /// 0 empty, 1 seat 0 (moves up), 2 seat 1 (moves down); index rank * N + file.
    cells: Vec<u8>,
    turn: u8,
    winner: Option<u8>,
    plies: u32,
}

impl Breakthrough {
    fn new() -> Breakthrough {
        let mut cells = vec![0; (N * N) as usize];
        for f in 0..N {
            for r in 0..2 {
                cells[(r * N + f) as usize] = 1;
                cells[((N - 1 - r) * N + f) as usize] = 2;
            }
        }
        Breakthrough {
            cells,
            turn: 0,
            winner: None,
            plies: 0,
        }
    }

    fn moves(&self) -> Vec<(u8, u8)> {
        let me = self.turn + 1;
        let dr = if self.turn == 0 { 1 } else { -1 };
        let mut out = Vec::new();
        for i in 0..N * N {
            if self.cells[i as usize] != me {
                continue;
            }
            let (f, r) = (i % N, i / N);
            for df in [-1, 0, 1] {
                let (nf, nr) = (f + df, r + dr);
                if !(0..N).contains(&nf) || !(0..N).contains(&nr) {
                    continue;
                }
                let j = nr * N + nf;
                let there = self.cells[j as usize];
                if there == me || (df == 0 && there != 0) {
                    continue;
                }
                out.push((i as u8, j as u8));
            }
        }
        out
    }
}

impl Game for Breakthrough {
    type Action = (u8, u8);
    fn seat_count(&self) -> usize {
        2
    }
    fn seat_name(&self, seat: Seat) -> String {
        ["White", "Black"][seat.index()].into()
    }
    fn to_act(&self) -> Vec<Seat> {
        if self.winner.is_some() {
            vec![]
        } else {
            vec![Seat(self.turn)]
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<(u8, u8)> {
        if !self.to_act().contains(&seat) {
            return vec![];
        }
        self.moves()
    }
    fn play(&mut self, seat: Seat, action: &(u8, u8)) -> Result<Vec<Event>, ActionError> {
        if self.winner.is_some() {
            return Err(ActionError::GameOver);
        }
        if seat != Seat(self.turn) {
            return Err(ActionError::NotYourTurn("not your turn".into()));
        }
        if !self.moves().contains(action) {
            return Err(ActionError::Illegal("no such move".into()));
        }
        let (from, to) = (action.0 as usize, action.1 as usize);
        let mut event = Event::new("moved")
            .mark(Cell(from as u16), Mark::From)
            .mark(Cell(to as u16), Mark::To);
        if self.cells[to] != 0 {
            event = event.mark(Cell(to as u16), Mark::Hit);
        }
        self.cells[to] = self.cells[from];
        self.cells[from] = 0;
        let rank = to as i32 / N;
        let enemy = 2 - self.turn;
        if rank == if self.turn == 0 { N - 1 } else { 0 } || !self.cells.contains(&enemy) {
            self.winner = Some(self.turn);
        }
        self.turn = 1 - self.turn;
        self.plies += 1;
        Ok(vec![event])
    }
    fn format(&self, action: &(u8, u8)) -> String {
        format!("{}-{}", action.0, action.1)
    }
    fn parse(&self, _seat: Seat, _text: &str) -> Result<(u8, u8), ActionError> {
        Err(ActionError::Syntax("no notation".into()))
    }
    fn outcome(&self) -> Outcome {
        match self.winner {
            Some(w) => Outcome::Won {
                winners: vec![Seat(w)],
                reason: "broke through".into(),
            },
            None => Outcome::Ongoing,
        }
    }
    fn move_number(&self) -> u32 {
        self.plies
    }
    fn view(&self, viewer: Viewer) -> View {
        let seat = |name: &str, colour| SeatView {
            name: name.into(),
            colour,
            eliminated: false,
            hand_size: None,
            lost: vec![],
            notes: vec![],
        };
        View {
            title: "Breakthrough".into(),
            board: Board::grid(N as u8, N as u8),
            viewer,
            rotation: 0.0,
            seats: vec![seat("White", 0), seat("Black", 1)],
            pieces: (0..N * N)
                .filter(|&i| self.cells[i as usize] != 0)
                .map(|i| PieceView {
                    cell: Cell(i as u16),
                    seat: Seat(self.cells[i as usize] - 1),
                    glyph: Glyph {
                        unit: "pawn".into(),
                        letter: 'P',
                        name: "Pawn".into(),
                    },
                    hp: None,
                    statuses: vec![],
                })
                .collect(),
            to_act: self.to_act(),
            move_number: self.plies,
            dice: None,
            hand: vec![],
            zones: vec![],
            pending: None,
            outcome: self.outcome(),
            rolls: vec![],
            check: vec![],
            under: vec![],
        }
    }
    fn concede(&mut self, seat: Seat) -> Vec<Event> {
        self.winner = Some(1 - seat.0);
        vec![]
    }
    fn redeal(&self, _seat: Seat, _seed: u64) -> Self {
        self.clone()
    }
}

#[derive(Clone, Copy)]
enum Player {
    Search(Settings, u32),
    Greedy,
    Random,
}

/// Plays one game; returns whether `me` won. Every action must be legal.
fn duel(me: Seat, mine: Player, other: Player, seed: u64) -> bool {
    let mut g = Breakthrough::new();
    let mut rng = Rng::new(seed);
    while !g.outcome().is_over() {
        let seat = g.to_act()[0];
        let player = if seat == me { mine } else { other };
        let s = rng.next_u64();
        let action = match player {
            Player::Search(settings, n) => {
                choose_with(&g, seat, &settings, &Budget::iterations(n), s)
                    .unwrap()
                    .action
            }
            Player::Greedy => search::greedy(&g, seat, s).unwrap(),
            Player::Random => search::random(&g, seat, s).unwrap(),
        };
        assert!(g.legal_actions(seat).contains(&action));
        g.play(seat, &action).unwrap();
    }
    matches!(g.outcome(), Outcome::Won { winners, .. } if winners == vec![me])
}

fn score(mine: Player, other: Player, games: u64) -> u64 {
    (0..games)
        .map(|n| duel(Seat((n % 2) as u8), mine, other, 900 + n) as u64)
        .sum()
}

#[test]
fn normal_beats_random_and_greedy_at_breakthrough() {
    let normal = Player::Search(Level::Normal.settings(), 300);
    let vs_random = score(normal, Player::Random, 20);
    assert!(vs_random >= 19, "won {vs_random} of 20 against random");
    let vs_greedy = score(normal, Player::Greedy, 20);
    assert!(vs_greedy >= 14, "won {vs_greedy} of 20 against greedy");
}

#[test]
fn finds_the_winning_step() {
    // White pawn on rank 4 (index 3*5+2 = 17) steps to the last rank.
    let mut g = Breakthrough::new();
    g.cells = vec![0; 25];
    g.cells[17] = 1;
    g.cells[0] = 1;
    g.cells[24] = 2;
    g.cells[20] = 2;
    let c = choose(&g, Seat(0), Level::Normal, &Budget::iterations(200), 3).unwrap();
    assert_eq!(c.action.0, 17, "{}", c.why);
    assert!(c.expected > 0.9, "{}", c.why);
}

/// S14: alpha-beta takes a win at once and, when the other side threatens to
/// win on its next step, the one capture that stops it.
#[test]
fn s14_alpha_beta_wins_at_once_and_stops_the_other() {
    let ab = Settings {
        alpha_beta: true,
        ..Level::Normal.settings()
    };
    let mut g = Breakthrough::new();
    g.cells = vec![0; 25];
    g.cells[17] = 1;
    g.cells[0] = 1;
    g.cells[24] = 2;
    g.cells[20] = 2;
    let c = choose_with(&g, Seat(0), &ab, &Budget::iterations(2000), 3).unwrap();
    assert_eq!(c.action.0, 17, "{}", c.why);
    assert!(c.action.1 >= 20, "a step to the last rank: {}", c.why);
    assert!(c.expected > 0.99, "{}", c.why);
    // Black's pawn on c2 (index 7) steps to the first rank next unless taken
    // from b1 (index 1); White's pawn on a3 (index 10) is two steps from winning.
    let mut g = Breakthrough::new();
    g.cells = vec![0; 25];
    g.cells[1] = 1;
    g.cells[10] = 1;
    g.cells[7] = 2;
    g.cells[24] = 2;
    let c = choose_with(&g, Seat(0), &ab, &Budget::iterations(2000), 3).unwrap();
    assert_eq!(c.action, (1, 7), "{}", c.why);
    // The same position, budget and seed give the same choice.
    let again = choose_with(&g, Seat(0), &ab, &Budget::iterations(2000), 99).unwrap();
    assert_eq!(again.action, c.action);
}

/// S14: alpha-beta at 2,000 positions a move beats the one-ply greedy player.
#[test]
fn s14_alpha_beta_beats_greedy_at_breakthrough() {
    let ab = Settings {
        alpha_beta: true,
        ..Level::Normal.settings()
    };
    let won = score(Player::Search(ab, 2000), Player::Greedy, 20);
    assert!(won >= 16, "won {won} of 20 against greedy");
}

/// The evidence behind the levels' settings (slow in a debug build, hence
/// ignored): prints the win rates of a few variants against greedy and checks
/// that the normal level wins three games in four and easy at most half.
/// `cargo test --release -p tokar-engine --test search_breakthrough -- --ignored --nocapture`
#[test]
#[ignore]
fn the_normal_settings_beat_the_alternatives() {
    use tokar_engine::search::{Playout, Prior};
    let base = Level::Normal.settings();
    let variants = [
        ("normal", base),
        (
            "4 random plies",
            Settings {
                playout_plies: 4,
                ..base
            },
        ),
        (
            "best-of-3, 2 plies",
            Settings {
                playout_plies: 2,
                playout: Playout::BestOf(3),
                ..base
            },
        ),
        (
            "no prior",
            Settings {
                prior: Prior::None,
                ..base
            },
        ),
        (
            "heuristic prior",
            Settings {
                prior: Prior::Heuristic,
                ..base
            },
        ),
        (
            "prior weight 1",
            Settings {
                prior_weight: 1.0,
                ..base
            },
        ),
        (
            "c=0.5",
            Settings {
                exploration: 0.5,
                ..base
            },
        ),
        ("easy", Level::Easy.settings()),
        (
            "no win check",
            Settings {
                win_check: false,
                ..base
            },
        ),
        (
            "widening 1",
            Settings {
                widening: 1.0,
                ..base
            },
        ),
    ];
    let mut won = Vec::new();
    for (name, s) in variants {
        let t = std::time::Instant::now();
        won.push(score(Player::Search(s, 300), Player::Greedy, 40));
        println!(
            "{name:18} {}/40 vs greedy  {:?}",
            won.last().unwrap(),
            t.elapsed()
        );
    }
    assert!(won[0] >= 30, "normal won {} of 40", won[0]);
    assert!(won[7] <= 20, "easy won {} of 40", won[7]);
}
