use std::time::Instant;
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::search::{self, Budget, Level};
use tokar_engine::{Game, Rng};
fn main() {
    let mut g = tokar_engine::arcana::Arcana::setup(&Options::new(), 1).unwrap();
    let mut rng = Rng::new(1);
    for ply in 0..30 {
        if g.outcome().is_over() { break; }
        let seat = g.to_act()[0];
        let n = g.legal_actions(seat).len();
        let t = Instant::now();
        let c = search::choose(&g, seat, Level::Normal, &Budget::iterations(20), rng.next_u64()).unwrap();
        println!("ply {ply} {seat} legal {n} iters {} {:?} {}", c.iterations, t.elapsed(), c.why);
        g.play(seat, &c.action).unwrap();
    }
}
