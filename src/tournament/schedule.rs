//! The tournament's games, worked out from its settings alone: game *i* is always the
//! same pair of engines, opening, symmetry and colours, so that a rerun can play just
//! the games missing from its results and shards can split the work without talking.

use crate::core::zobrist::splitmix64;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every pair of engines.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// How openings are taken from the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    /// A shuffle of the book drawn from this seed (`--srand`).
    Random(u64),
}

#[derive(Clone, Debug)]
pub struct Schedule {
    pub engines: usize,
    pub kind: Kind,
    /// Games per encounter (a pair of engines) per round.
    pub games: usize,
    pub rounds: usize,
    /// Each opening is played twice, colours swapped: a game pair.
    pub repeat: bool,
    /// Openings in the book.
    pub openings: usize,
    pub order: Order,
    /// Symmetries of the board an opening is also played in (1, or 8 for
    /// five-in-a-row's `--transform`): after the book is used up, the next symmetry.
    pub symmetries: usize,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The game's number, 0-based, across the whole tournament.
    pub game: usize,
    /// Its game pair: the games that share an opening (one game when not repeating).
    pub pair: usize,
    pub round: usize,
    /// The engine playing first (black; white in Gana, whose white moves first).
    pub first: usize,
    pub second: usize,
    /// Index into the opening book, and the board symmetry it is played in.
    pub opening: usize,
    pub symmetry: usize,
}

impl Schedule {
    /// The encounters of one round, in order.
    pub fn encounters(&self) -> Vec<(usize, usize)> {
        let n = self.engines;
        match self.kind {
            Kind::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Kind::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }

    pub fn total(&self) -> usize {
        self.encounters().len() * self.games * self.rounds
    }

    /// Every game, in playing order.
    pub fn slots(&self) -> Vec<Slot> {
        let book = self.book_order();
        let mut out = Vec::with_capacity(self.total());
        let per_pair = if self.repeat { 2 } else { 1 };
        let mut pair = 0;
        for round in 0..self.rounds {
            for (a, b) in self.encounters() {
                for k in 0..self.games {
                    if k > 0 && k % per_pair == 0 {
                        pair += 1;
                    }
                    // Colours alternate game by game: within a pair, and from one game
                    // to the next when not repeating.
                    let (first, second) = if k % 2 == 0 { (a, b) } else { (b, a) };
                    let cycle = pair / book.len().max(1);
                    out.push(Slot {
                        game: out.len(),
                        pair,
                        round,
                        first,
                        second,
                        opening: book.get(pair % book.len().max(1)).copied().unwrap_or(0),
                        symmetry: cycle % self.symmetries.max(1),
                    });
                }
                pair += 1;
            }
        }
        out
    }

    fn book_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.openings.max(1)).collect();
        if let Order::Random(seed) = self.order {
            let mut state = seed;
            for i in (1..order.len()).rev() {
                let (s, v) = splitmix64(state);
                state = s;
                order.swap(i, (v % (i as u64 + 1)) as usize);
            }
        }
        order
    }
}

/// A shard `K/N` of the game pairs: shard K plays the pairs whose number is K mod N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or(format!("--shard {text}: expected K/N, e.g. 0/32"))?;
        let (index, count) = match (k.trim().parse::<usize>(), n.trim().parse::<usize>()) {
            (Ok(k), Ok(n)) => (k, n),
            _ => return Err(format!("--shard {text}: K and N are numbers")),
        };
        if count == 0 || index >= count {
            return Err(format!("--shard {text}: K runs from 0 to N-1"));
        }
        Ok(Shard { index, count })
    }

    pub fn holds(&self, s: &Slot) -> bool {
        s.pair % self.count == self.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(engines: usize, kind: Kind, games: usize, repeat: bool) -> Schedule {
        Schedule {
            engines,
            kind,
            games,
            rounds: 2,
            repeat,
            openings: 3,
            order: Order::Sequential,
            symmetries: 1,
        }
    }

    #[test]
    fn a_round_robin_of_four_meets_every_pair() {
        let s = sched(4, Kind::RoundRobin, 2, true);
        assert_eq!(s.encounters().len(), 6);
        assert_eq!(s.slots().len(), 24);
        let g = sched(4, Kind::Gauntlet, 2, true);
        assert_eq!(g.encounters(), vec![(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn a_game_pair_shares_its_opening_with_colours_swapped() {
        let slots = sched(2, Kind::RoundRobin, 4, true).slots();
        for p in slots.chunks(2) {
            assert_eq!(p[0].pair, p[1].pair);
            assert_eq!(p[0].opening, p[1].opening);
            assert_eq!((p[0].first, p[0].second), (p[1].second, p[1].first));
        }
        let openings: Vec<usize> = slots.iter().step_by(2).map(|s| s.opening).collect();
        assert_eq!(openings, vec![0, 1, 2, 0]);
    }

    #[test]
    fn the_same_settings_give_the_same_games_and_shards_split_them() {
        let mut s = sched(3, Kind::RoundRobin, 4, true);
        s.order = Order::Random(7);
        s.symmetries = 8;
        assert_eq!(s.slots(), s.slots());
        let all = s.slots();
        let mut seen = vec![0; all.len()];
        for k in 0..5 {
            let shard = Shard { index: k, count: 5 };
            for g in all.iter().filter(|g| shard.holds(g)) {
                seen[g.game] += 1;
            }
        }
        assert!(
            seen.iter().all(|&n| n == 1),
            "every game in exactly one shard"
        );
    }

    #[test]
    fn shard_text_is_checked() {
        assert_eq!(
            Shard::parse("3/32"),
            Ok(Shard {
                index: 3,
                count: 32
            })
        );
        assert!(Shard::parse("32/32").is_err());
        assert!(Shard::parse("1-2").is_err());
    }
}
