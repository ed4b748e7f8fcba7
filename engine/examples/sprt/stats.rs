//! The statistics of a paired match: the pentanomial counts of the pairs, the
//! score and its Elo with a 95% interval, and the generalized sequential
//! probability ratio test (GSPRT) that decides between two Elo hypotheses.
//!
//! The formulas are those of fishtest's `stat_util.py` / `LLRcalc.py`
//! (`LLR_logistic`, `MLE_expected`, `secular`, `get_elo`), from Michel Van
//! den Bergh's notes "Computing the GSPRT" / "support_MLE_multinomial.pdf":
//! the log-likelihood ratio of the pentanomial pair outcomes between the
//! maximum-likelihood distributions whose expected score is `s0` and `s1`,
//! with `s = 1 / (1 + 10^(-elo / 400))` (logistic Elo, the scale the targets
//! of issue #37 are written in: 65% is about +110).
//!
//! Written here rather than taken from a crate: no maintained Rust crate
//! implements the pentanomial GSPRT (the SPRT crates on crates.io test a
//! Bernoulli or a normal mean, which treats the two games of a pair as
//! independent and over-counts the evidence, the reason fishtest moved to
//! pairs), and the maths is one page: a one-dimensional root by bisection.

/// The outcomes of game pairs, by the pair's total for player A in half
/// points: `[LL, LD, LW+DD, DW, WW]`, i.e. index `k` means A scored `k / 2`
/// of the pair's 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts one pair whose total for A is `half_points / 2` (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The counts as a distribution over the per-game score `i / 4`, with
    /// an empty cell replaced by 1e-3 pairs as fishtest's `regularize` does
    /// (so that no cell has probability 0 and the logarithms exist).
    /// Returns the number of (regularized) pairs and the probabilities.
    fn pdf(&self) -> (f64, [f64; 5]) {
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
        let n: f64 = counts.iter().sum();
        (n, counts.map(|c| c / n))
    }
}

/// The score of a per-game value distribution: its mean and variance.
fn mean_var(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = (0..5).map(|i| p[i] * value(i)).sum();
    let var = (0..5).map(|i| p[i] * (value(i) - mean).powi(2)).sum();
    (mean, var)
}

/// A pair cell's per-game score: 0, 0.25, 0.5, 0.75, 1.
fn value(i: usize) -> f64 {
    i as f64 / 4.0
}

/// The expected score against an opponent `elo` points weaker (logistic).
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score; infinite at 0 and 1.
pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The maximum-likelihood distribution with expected score `s`, given the
/// observed distribution `p` (Van den Bergh, support_MLE_multinomial.pdf,
/// Proposition 1.1): `p_i / (1 + x (a_i - s))`, where `x` solves the
/// "secular equation" `sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0`.
/// The left side falls strictly with `x` on the interval where every
/// denominator is positive, `(-1 / max d, -1 / min d)`, so bisection finds
/// the root; `s` must lie strictly between 0 and 1.
fn mle_with_mean(p: &[f64; 5], s: f64) -> [f64; 5] {
    let d: [f64; 5] = std::array::from_fn(|i| value(i) - s);
    let f = |x: f64| -> f64 { (0..5).map(|i| p[i] * d[i] / (1.0 + x * d[i])).sum() };
    // d[0] = -s < 0 < 1 - s = d[4]: the ends of the interval.
    let eps = 1e-12;
    let (mut lo, mut hi) = (-1.0 / d[4] + eps, -1.0 / d[0] - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 {
            break;
        }
    }
    let x = 0.5 * (lo + hi);
    std::array::from_fn(|i| p[i] / (1.0 + x * d[i]))
}

/// The test: H0 "A is `elo0` stronger", H1 "A is `elo1` stronger", with
/// error rates `alpha` (accepting H1 when H0 holds) and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR fell to the lower bound: A is not `elo1` stronger.
    H0,
    /// The LLR rose to the upper bound: A is at least about `elo1` stronger.
    H1,
}

impl Sprt {
    /// Wald's bounds on the LLR: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)` (±2.944 at 0.05 each).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of the pairs so far (fishtest's
    /// `LLR_logistic` on the five pentanomial counts); 0 with no pair.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (n, p) = pairs.pdf();
        let p0 = mle_with_mean(&p, score_of(self.elo0));
        let p1 = mle_with_mean(&p, score_of(self.elo1));
        n * (0..5)
            .map(|i| p[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
    }

    /// H0 or H1 once the LLR leaves its bounds, `None` while it is between.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// The score and Elo of A with their 95% intervals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// A's mean score per game, 0..1.
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// Half the interval's width in Elo, as fishtest prints "Elo x ± y".
    pub elo_pm: f64,
}

/// The normal quantile of 0.975.
const Z975: f64 = 1.959_963_984_540_054;

/// A's score and Elo as fishtest's `get_elo` gives them for pentanomial
/// results: the mean per-game score over the (regularized) pairs, and the
/// interval `mean ± 1.96 sd / sqrt(pairs)` with the pair as the unit, each
/// end mapped to Elo. `None` with no pair.
pub fn estimate(pairs: &Pentanomial) -> Option<Estimate> {
    if pairs.pairs() == 0 {
        return None;
    }
    let (n, p) = pairs.pdf();
    let (mean, var) = mean_var(&p);
    let half = Z975 * (var / n).sqrt();
    let (low, high) = (mean - half, mean + half);
    let (elo_low, elo_high) = (elo_of(low), elo_of(high));
    Some(Estimate {
        score: mean,
        score_low: low,
        score_high: high,
        elo: elo_of(mean),
        elo_low,
        elo_high,
        elo_pm: (elo_high - elo_low) / 2.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// The numbers below were computed independently in Python (3.12, no
    /// libraries), following fishtest's LLRcalc.py but with the root found
    /// by another method (Newton's iteration from x = 0, its step halved
    /// while it would leave the interval, instead of bisection); the MLEs
    /// were checked to sum to 1 and to have mean s:
    ///
    /// ```text
    /// import math
    /// def L(e): return 1/(1+10**(-e/400))
    /// def llr(res, e0, e1):
    ///     res = [r if r else 1e-3 for r in res]; N = sum(res)
    ///     pdf = [(i/4, r/N) for i, r in enumerate(res)]
    ///     def mle(s):
    ///         x = 0.0
    ///         lo, hi = -1/max(a-s for a,_ in pdf), -1/min(a-s for a,_ in pdf)
    ///         for _ in range(100):
    ///             f = sum(p*(a-s)/(1+x*(a-s)) for a, p in pdf)
    ///             df = -sum(p*(a-s)**2/(1+x*(a-s))**2 for a, p in pdf)
    ///             step = f/df
    ///             while not (lo < x-step < hi): step /= 2
    ///             x -= step
    ///         return [p/(1+x*(a-s)) for a, p in pdf]
    ///     p0, p1 = mle(L(e0)), mle(L(e1))
    ///     return N*sum(p*(math.log(q1)-math.log(q0))
    ///                  for (a, p), q0, q1 in zip(pdf, p0, p1))
    /// llr([10, 20, 40, 25, 15], 0, 10)   # 0.5181282454682579
    /// llr([10, 20, 40, 25, 15], 0, 50)   # -0.17034205567784477
    /// llr([3, 10, 30, 40, 17], 0, 50)    # 9.52556439867501
    /// llr([25, 30, 30, 10, 5], -10, 10)  # -4.134429662975875
    /// llr([0, 0, 5, 10, 20], 0, 100)     # 8.643296701619358 (empty cells)
    /// ```
    #[test]
    fn the_llr_matches_an_independent_computation() {
        let cases: [([u32; 5], f64, f64, f64); 5] = [
            ([10, 20, 40, 25, 15], 0.0, 10.0, 0.518_128_245_468_257_9),
            ([10, 20, 40, 25, 15], 0.0, 50.0, -0.170_342_055_677_844_77),
            ([3, 10, 30, 40, 17], 0.0, 50.0, 9.525_564_398_675_01),
            ([25, 30, 30, 10, 5], -10.0, 10.0, -4.134_429_662_975_875),
            ([0, 0, 5, 10, 20], 0.0, 100.0, 8.643_296_701_619_358),
        ];
        for (counts, elo0, elo1, want) in cases {
            let sprt = Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            };
            let got = sprt.llr(&Pentanomial(counts));
            assert!(close(got, want, 1e-9), "{counts:?}: {got} != {want}");
        }
    }

    /// The exact LLR and fishtest's normal approximation (`LLR_alt2`) agree
    /// closely when elo0 and elo1 are near: for [10, 20, 40, 25, 15],
    /// mu = 0.534091, var = 0.081224, elo 0..10 (s0 = 0.5, s1 = 0.514387):
    /// 110 * 0.014387 * (1.068182 - 1.014387) / (2 * 0.081224) = 0.524073
    /// (python: 0.524073437840428), 1.2% from the exact 0.518128.
    #[test]
    fn the_llr_is_near_the_normal_approximation() {
        let pairs = Pentanomial([10, 20, 40, 25, 15]);
        let (n, p) = pairs.pdf();
        let (mu, var) = mean_var(&p);
        let (s0, s1) = (score_of(0.0), score_of(10.0));
        let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / var / 2.0;
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let exact = sprt.llr(&pairs);
        assert!(close(approx, 0.524_073_437_840_428, 1e-9), "{approx}");
        assert!(
            (exact - approx).abs() < 0.02 * exact.abs(),
            "{exact} {approx}"
        );
    }

    /// Symmetric results carry no evidence either way between -e and +e.
    #[test]
    fn symmetric_results_give_an_llr_of_zero() {
        let sprt = Sprt {
            elo0: -20.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(close(sprt.llr(&Pentanomial([5, 12, 30, 12, 5])), 0.0, 1e-9));
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
    }

    /// Wald's bounds at alpha = beta = 0.05: ln(0.05 / 0.95) = -2.944439.
    #[test]
    fn bounds_and_verdicts() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979, 1e-8));
        assert!(close(upper, 2.944_438_979, 1e-8));
        assert_eq!(sprt.verdict(3.0), Some(Verdict::H1));
        assert_eq!(sprt.verdict(-3.0), Some(Verdict::H0));
        assert_eq!(sprt.verdict(2.9), None);
    }

    /// By hand: [10, 20, 40, 25, 15] over 110 pairs has mean
    /// (20 * 0.25 + 40 * 0.5 + 25 * 0.75 + 15) / 110 = 58.75 / 110 = 0.534091,
    /// E[x^2] = (20 / 16 + 40 / 4 + 25 * 9 / 16 + 15) / 110 = 40.3125 / 110,
    /// var = 0.366477 - 0.285253 = 0.081224, sd/sqrt(110) = 0.027174,
    /// interval 0.534091 ± 0.053260 = 0.480831 .. 0.587351;
    /// Elo = -400 log10(1 / 0.534091 - 1) = +23.73, ends -13.33 and +61.33,
    /// ± 37.33 (python: 23.7256, -13.3260, 61.3261, 37.3261).
    #[test]
    fn the_estimate_matches_a_computation_by_hand() {
        let e = estimate(&Pentanomial([10, 20, 40, 25, 15])).unwrap();
        assert!(close(e.score, 0.534_091, 1e-6), "{e:?}");
        assert!(close(e.score_low, 0.480_831, 1e-5), "{e:?}");
        assert!(close(e.score_high, 0.587_351, 1e-5), "{e:?}");
        assert!(close(e.elo, 23.7256, 1e-3), "{e:?}");
        assert!(close(e.elo_low, -13.3260, 1e-3), "{e:?}");
        assert!(close(e.elo_high, 61.3261, 1e-3), "{e:?}");
        assert!(close(e.elo_pm, 37.3261, 1e-3), "{e:?}");
        assert_eq!(estimate(&Pentanomial::default()), None);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(score_of(0.0), 0.5, 1e-12));
        assert!(close(elo_of(0.65), 107.54, 0.01));
        for elo in [-300.0, -35.5, 0.0, 12.0, 400.0] {
            assert!(close(elo_of(score_of(elo)), elo, 1e-9));
        }
        assert_eq!(elo_of(1.0), f64::INFINITY);
        assert_eq!(elo_of(0.0), f64::NEG_INFINITY);
    }
}
