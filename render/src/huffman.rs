//! Deflate's Huffman side (RFC 1951, 3.2): code lengths from symbol counts,
//! limited to 15 bits (7 for the code-length code), canonical codes, the
//! dynamic block header, and a 64-bit bit writer. [`crate::deflate`] finds the
//! matches and hands each block's symbols here.
//!
//! Hand-written because no kept crate exposes this step on its own: libflate
//! takes a match finder of ours, but its symbols and Huffman codes took about
//! 0.9 ms of the 8x8 picture's 1.2 ms target (docs/bench/render.md), and zlib-rs,
//! miniz_oxide and fdeflate keep theirs private.

/// Literal and length symbols (0-255 literals, 256 the end of a block,
/// 257-285 lengths).
pub const LITERALS: usize = 286;
/// Distance symbols.
pub const DISTANCES: usize = 30;
pub const END_OF_BLOCK: usize = 256;
const MAX_BITS: u8 = 15;
const MAX_CODE_LENGTH_BITS: u8 = 7;
/// The order the code-length code's lengths are written in (RFC 1951, 3.2.7).
const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Bits written least significant first, as deflate packs them.
pub struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    bits: u64,
    count: u32,
}

impl<'a> BitWriter<'a> {
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        BitWriter {
            out,
            bits: 0,
            count: 0,
        }
    }

    /// Writes the low `count` bits of `bits` (at most 32).
    #[inline]
    pub fn put(&mut self, bits: u32, count: u32) {
        self.bits |= u64::from(bits) << self.count;
        self.count += count;
        if self.count >= 32 {
            self.out
                .extend_from_slice(&(self.bits as u32).to_le_bytes());
            self.bits >>= 32;
            self.count -= 32;
        }
    }

    /// Writes each (bits, count) of `codes` (at most 48 bits each, about
    /// `total` bits in all): a whole word is stored every time and the position
    /// moves on by the whole bytes in it, so that no branch depends on the
    /// codes.
    pub fn put_all(&mut self, total: u64, codes: impl Iterator<Item = (u64, u32)>) {
        while self.count >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.count -= 8;
        }
        let mut len = self.out.len();
        // Room for every code, and a word past the end.
        self.out.resize(len + (total / 8) as usize + 16, 0);
        let (mut bits, mut count) = (self.bits, self.count);
        for (code, n) in codes {
            bits |= code << count;
            count += n;
            if self.out.len() < len + 8 {
                // `total` was short; never so for deflate's own codes.
                self.out.resize(len + 64, 0);
            }
            self.out[len..len + 8].copy_from_slice(&bits.to_le_bytes());
            // At most 7 + 48 bits, so at most six whole bytes.
            let bytes = count / 8;
            len += bytes as usize;
            bits >>= bytes * 8;
            count -= bytes * 8;
        }
        self.out.truncate(len);
        (self.bits, self.count) = (bits, count);
    }

    /// Writes what is left, padded with zero bits to a whole byte.
    pub fn finish(mut self) {
        while self.count > 0 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.count = self.count.saturating_sub(8);
        }
    }
}

/// A prefix code: per symbol, its length in bits and its code, bit-reversed
/// so that it can be written least significant bit first.
pub struct Code {
    pub lengths: Vec<u8>,
    pub codes: Vec<u16>,
}

impl Code {
    /// The code for `counts` (how often each symbol occurs), no code longer
    /// than `max_bits`. At least two symbols get a code, so that every
    /// decoder accepts the code as complete.
    pub fn from_counts(counts: &[u32], max_bits: u8) -> Code {
        let lengths = lengths(counts, max_bits);
        let codes = canonical(&lengths);
        Code { lengths, codes }
    }

    #[inline]
    pub fn write(&self, w: &mut BitWriter, symbol: usize) {
        w.put(
            u32::from(self.codes[symbol]),
            u32::from(self.lengths[symbol]),
        );
    }

    /// How many symbols to send lengths for: up to the last with a code, at
    /// least `min`.
    fn used(&self, min: usize) -> usize {
        let last = self
            .lengths
            .iter()
            .rposition(|&l| l != 0)
            .map_or(0, |i| i + 1);
        last.max(min)
    }
}

/// Code lengths for `counts`: Huffman's, then the longest shortened to
/// `max_bits` by moving leaves up the tree until the lengths are a complete
/// code again (the Kraft sum exactly one).
fn lengths(counts: &[u32], max_bits: u8) -> Vec<u8> {
    let mut lengths = vec![0u8; counts.len()];
    // Symbols by count, rarest first; at least two of them.
    let mut used: Vec<(u32, usize)> = counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(s, &c)| (c, s))
        .collect();
    let missing = 2usize.saturating_sub(used.len());
    let unused = counts.iter().enumerate().filter(|(_, &c)| c == 0);
    used.extend(unused.take(missing).map(|(s, _)| (1, s)));
    if used.len() < 2 {
        // A code over fewer than two symbols cannot be complete.
        used.iter().for_each(|&(_, s)| lengths[s] = 1);
        return lengths;
    }
    used.sort_unstable();
    // Huffman's tree: leaves 0..n (rarest first), inner nodes after, made
    // in order of weight; so the two lightest nodes are always at the front
    // of the leaves not yet joined or of the inner nodes not yet joined.
    let n = used.len();
    let mut parent = vec![0usize; 2 * n - 1];
    let mut weight: Vec<u64> = used.iter().map(|&(c, _)| u64::from(c)).collect();
    weight.resize(2 * n - 1, 0);
    let (mut leaf, mut inner) = (0, n);
    for next in n..2 * n - 1 {
        for _ in 0..2 {
            let take_leaf = leaf < n && (inner >= next || weight[leaf] <= weight[inner]);
            let node = if take_leaf { leaf } else { inner };
            if take_leaf {
                leaf += 1;
            } else {
                inner += 1;
            }
            parent[node] = next;
            weight[next] += weight[node];
        }
    }
    let next = 2 * n - 1;
    let root = next - 1;
    let mut depth = vec![0u32; 2 * n - 1];
    for node in (0..root).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    // How many leaves at each length, the overlong ones at `max_bits`.
    let max = usize::from(max_bits);
    let mut per_length = vec![0u32; max + 1];
    for leaf in 0..n {
        per_length[(depth[leaf] as usize).min(max)] += 1;
    }
    let kraft = |p: &[u32]| -> u64 { (1..=max).map(|l| u64::from(p[l]) << (max - l)).sum() };
    let mut total = kraft(&per_length);
    while total > 1 << max {
        // One leaf at the longest length goes; one shorter leaf becomes an
        // inner node with two leaves one level down.
        per_length[max] -= 1;
        if let Some(l) = (1..max).rev().find(|&l| per_length[l] > 0) {
            per_length[l] -= 1;
            per_length[l + 1] += 2;
        }
        total -= 1;
    }
    // The rarest symbols get the longest codes.
    let mut leaf = 0;
    for len in (1..=max).rev() {
        for _ in 0..per_length[len] {
            lengths[used[leaf].1] = len as u8;
            leaf += 1;
        }
    }
    lengths
}

/// Canonical codes for `lengths` (RFC 1951, 3.2.2), bit-reversed.
fn canonical(lengths: &[u8]) -> Vec<u16> {
    let mut per_length = [0u16; 16];
    lengths
        .iter()
        .for_each(|&l| per_length[usize::from(l)] += 1);
    per_length[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + per_length[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// Writes a dynamic block's header (RFC 1951, 3.2.7) and returns its two
/// codes: the literal/length code for `literal_counts` and the distance code
/// for `distance_counts`.
pub fn dynamic_header(
    w: &mut BitWriter,
    last: bool,
    literal_counts: &[u32],
    distance_counts: &[u32],
) -> (Code, Code) {
    let literals = Code::from_counts(literal_counts, MAX_BITS);
    let distances = Code::from_counts(distance_counts, MAX_BITS);
    let (hlit, hdist) = (literals.used(257), distances.used(1));
    let all: Vec<u8> = literals.lengths[..hlit]
        .iter()
        .chain(&distances.lengths[..hdist])
        .copied()
        .collect();
    // The lengths, run-length coded: (symbol, extra bits, extra value).
    let mut runs: Vec<(u8, u32, u32)> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let l = all[i];
        let run = all[i..].iter().take_while(|&&x| x == l).count();
        if l == 0 && run >= 11 {
            let n = run.min(138);
            runs.push((18, 7, (n - 11) as u32));
            i += n;
        } else if l == 0 && run >= 3 {
            runs.push((17, 3, (run - 3) as u32));
            i += run;
        } else if l != 0 && run >= 4 {
            runs.push((l, 0, 0));
            let n = (run - 1).min(6);
            runs.push((16, 2, (n - 3) as u32));
            i += 1 + n;
        } else {
            runs.push((l, 0, 0));
            i += 1;
        }
    }
    let mut counts = [0u32; 19];
    runs.iter()
        .for_each(|&(s, _, _)| counts[usize::from(s)] += 1);
    let lengths_code = Code::from_counts(&counts, MAX_CODE_LENGTH_BITS);
    let hclen = CODE_LENGTH_ORDER
        .iter()
        .rposition(|&s| lengths_code.lengths[s] != 0)
        .map_or(4, |i| (i + 1).max(4));
    w.put(u32::from(last), 1);
    w.put(2, 2);
    w.put((hlit - 257) as u32, 5);
    w.put((hdist - 1) as u32, 5);
    w.put((hclen - 4) as u32, 4);
    for &s in &CODE_LENGTH_ORDER[..hclen] {
        w.put(u32::from(lengths_code.lengths[s]), 3);
    }
    for &(s, bits, extra) in &runs {
        lengths_code.write(w, usize::from(s));
        if bits > 0 {
            w.put(extra, bits);
        }
    }
    (literals, distances)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kraft(lengths: &[u8]) -> f64 {
        lengths
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 0.5f64.powi(i32::from(l)))
            .sum()
    }

    #[test]
    fn lengths_are_complete_and_limited() {
        // Counts like Fibonacci's make Huffman's tree as deep as it gets.
        let mut fib = vec![1u32, 1];
        while fib.len() < 30 {
            let n = fib[fib.len() - 1] + fib[fib.len() - 2];
            fib.push(n);
        }
        for (counts, max) in [
            (fib.clone(), 15u8),
            (fib[..19].to_vec(), 7),
            (vec![5, 0, 0, 9, 1], 15),
            (vec![0, 0, 7], 15),
            (vec![0; 30], 15),
            ((1..=286).collect(), 15),
        ] {
            let l = lengths(&counts, max);
            assert!(l.iter().all(|&x| x <= max), "{l:?}");
            assert_eq!(kraft(&l), 1.0, "{counts:?} gave {l:?}");
            assert!(l.iter().filter(|&&x| x > 0).count() >= 2);
            for (s, &c) in counts.iter().enumerate() {
                if c > 0 {
                    assert!(l[s] > 0, "symbol {s} has a code");
                }
            }
        }
    }

    #[test]
    fn unlimited_codes_cost_what_huffman_s_do() {
        // Huffman's cost is the sum of the weights of the inner nodes.
        fn optimal(counts: &[u32]) -> u64 {
            let mut w: Vec<u64> = counts
                .iter()
                .filter(|&&c| c > 0)
                .map(|&c| u64::from(c))
                .collect();
            let mut cost = 0;
            while w.len() > 1 {
                w.sort_unstable_by(|a, b| b.cmp(a));
                let (a, b) = (w.pop().unwrap_or(0), w.pop().unwrap_or(0));
                cost += a + b;
                w.push(a + b);
            }
            cost
        }
        let mut seed = 5u32;
        for _ in 0..200 {
            let counts: Vec<u32> = (0..40)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (seed >> 16) % 50
                })
                .collect();
            if counts.iter().filter(|&&c| c > 0).count() < 2 {
                continue;
            }
            let l = lengths(&counts, 15);
            let cost: u64 = counts
                .iter()
                .zip(&l)
                .map(|(&c, &n)| u64::from(c) * u64::from(n))
                .sum();
            assert_eq!(cost, optimal(&counts), "{counts:?} gave {l:?}");
        }
    }

    #[test]
    fn frequent_symbols_get_short_codes() {
        let l = lengths(&[100, 1, 1, 50, 2], 15);
        assert!(l[0] <= l[3] && l[3] <= l[4] && l[4] <= l[1], "{l:?}");
    }

    #[test]
    fn canonical_codes_match_the_rfc_example() {
        // RFC 1951, 3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give
        // 010 011 100 101 110 00 1110 1111.
        let codes = canonical(&[3, 3, 3, 3, 3, 2, 4, 4]);
        let plain = [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111];
        let lengths = [3, 3, 3, 3, 3, 2, 4, 4];
        for i in 0..8 {
            assert_eq!(codes[i].reverse_bits() >> (16 - lengths[i]), plain[i]);
        }
    }
}
