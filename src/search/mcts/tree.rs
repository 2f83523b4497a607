//! The shared search tree: nodes in one preallocated arena with atomic statistics, so
//! every thread descends, expands and backs up without locks. A node is expanded once,
//! by the thread that wins a compare-exchange on its state; the others keep selecting
//! among the nodes already there, or play out from it meanwhile.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

use crate::core::memory;

/// The bytes one node takes in the arena.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
// Two nodes to a cache line: `select` reads every child of every node on its path.
const _: () = assert!(NODE_BYTES == 32);

/// Index of a node in the arena.
pub type NodeId = u32;
pub const NO_NODE: NodeId = u32::MAX;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// What one playout's result adds to `wins`: a win [`UNIT`], a draw half of it. Results
/// are kept in these integer units so that they add up atomically; sixteenths leave room
/// for results between a draw and a win (a draw one side values less).
pub const UNIT: f32 = 16.0;

/// One move's statistics. Values are from the view of the side that played `mv`, in
/// [`UNIT`]s.
pub struct Node {
    pub(crate) mv: AtomicU32,
    /// The policy's opinion of the move, 0..=1 (a win rate it is worth before any visit).
    pub(crate) prior: AtomicU32,
    pub(crate) visits: AtomicU32,
    pub(crate) wins: AtomicU32,
    /// AMAF visits (high half) and wins (low half, in [`UNIT`]s): one word, so that a
    /// reader sees the two agree and a playout updates them with one store.
    amaf: AtomicU64,
    first_child: AtomicU32,
    /// At most [`MAX_CHILDREN`]: with `state`, the node fits 32 bytes.
    children: AtomicU16,
    state: AtomicU8,
}

/// The most children a node can have (Go's 25x25 has 626 moves, Gana's fewer).
pub const MAX_CHILDREN: usize = u16::MAX as usize;

impl Node {
    fn reset(&self, mv: u32, prior: f32) {
        self.mv.store(mv, Relaxed);
        self.prior.store(prior.to_bits(), Relaxed);
        self.visits.store(0, Relaxed);
        self.wins.store(0, Relaxed);
        self.amaf.store(0, Relaxed);
        self.first_child.store(NO_NODE, Relaxed);
        self.children.store(0, Relaxed);
        self.state.store(LEAF, Release);
    }

    #[inline]
    pub fn mv(&self) -> u32 {
        self.mv.load(Relaxed)
    }

    #[inline]
    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Relaxed))
    }

    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Win rate of the move for the side that played it, or `None` before any visit.
    pub fn win_rate(&self) -> Option<f32> {
        let n = self.visits();
        (n > 0).then(|| self.wins.load(Relaxed) as f32 / (UNIT * n as f32))
    }

    pub fn is_expanded(&self) -> bool {
        self.state.load(Acquire) == EXPANDED
    }

    /// AMAF visits and wins (in [`UNIT`]s).
    #[inline]
    pub fn amaf(&self) -> (u32, u32) {
        let a = self.amaf.load(Relaxed);
        ((a >> 32) as u32, a as u32)
    }

    /// Adds one AMAF visit worth `wins` [`UNIT`]s. Not a read-modify-write: two threads
    /// updating the same node at once may lose one of the updates. Every playout updates
    /// the AMAF statistics of about half the siblings along its path (thousands of nodes
    /// on 19x19), and the locked adds took a sixth of the search's time; a lost update
    /// now and then is noise in an estimate made of thousands.
    #[inline]
    pub fn add_amaf(&self, wins: u32) {
        let a = self.amaf.load(Relaxed);
        self.amaf
            .store(a.wrapping_add((1 << 32) | wins as u64), Relaxed);
    }
}

/// The arena. Nodes are handed out by bumping a counter and never freed one by one:
/// when it fills, [`Tree::collect`] keeps the well-visited part of the tree and packs it
/// at the front; a new search that cannot reuse the old tree empties it.
pub struct Tree {
    nodes: Box<[Node]>,
    used: AtomicUsize,
    root: AtomicU32,
}

impl Tree {
    /// An arena of `capacity` nodes ([`NODE_BYTES`] each), in zeroed memory that the
    /// system maps only as the search reaches it; a smaller one (down to 1024 nodes) if
    /// the allocator refuses that much.
    pub fn new(capacity: usize) -> Tree {
        let mut capacity = capacity.clamp(1024, u32::MAX as usize - 1);
        let nodes = loop {
            // SAFETY: a node is atomics only; all zero is a leaf of move 0 (every field
            // is written by `reset` before the node is used).
            if let Some(n) = unsafe { memory::zeroed_slice::<Node>(capacity) } {
                break n;
            }
            if capacity == 1024 {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Node; 1024]>());
            }
            capacity = (capacity / 2).max(1024);
        };
        let t = Tree {
            nodes,
            used: AtomicUsize::new(1),
            root: AtomicU32::new(0),
        };
        t.nodes[0].reset(0, 0.5);
        t
    }

    /// The arena a memory budget allows: each node, plus the scratch of moving a kept
    /// subtree to the front ([`Tree::reroot`], up to 40 bytes a kept node), within
    /// `bytes`.
    pub fn nodes_for(bytes: usize) -> usize {
        bytes / (NODE_BYTES + 40)
    }

    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    pub fn used(&self) -> usize {
        self.used.load(Relaxed).min(self.nodes.len())
    }

    #[inline]
    pub fn root(&self) -> NodeId {
        self.root.load(Relaxed)
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Forgets everything: one fresh root.
    pub fn clear(&mut self) {
        self.used.store(1, Relaxed);
        self.root.store(0, Relaxed);
        self.nodes[0].reset(0, 0.5);
    }

    /// Makes `child` (a node of this tree) the root, keeping its subtree; `None` clears.
    /// While less than half the arena is in use the subtree stays where it is; beyond
    /// that it is moved to the front of the arena and the rest is freed, so that a long
    /// game (or a long ponder) keeps its tree. Returns whether the subtree was kept.
    pub fn reroot(&mut self, child: Option<NodeId>) -> bool {
        let Some(c) = child else {
            self.clear();
            return false;
        };
        if self.used() < self.capacity() / 2 {
            self.root.store(c, Relaxed);
            return true;
        }
        self.pack(c, 0);
        true
    }

    /// Frees the least visited part of the tree when the arena fills: the children of
    /// every node with fewer than some number of visits are dropped (the node becomes a
    /// leaf again, to be expanded afresh if the search comes back), the number chosen so
    /// that at most `keep` nodes remain, and the rest is packed at the front. The root's
    /// children always stay. Returns the visits a node needed to keep its children.
    ///
    /// No thread may descend the tree meanwhile (the search pauses its threads).
    pub fn collect(&self, keep: usize) -> u32 {
        // Visits decrease down the tree, so "every expanded node with at least t visits"
        // is a subtree hanging from the root, whose size is one plus those nodes'
        // children: sort the expanded nodes by visits and take them while they fit.
        let root = self.root();
        let mut expanded: Vec<(u32, u32)> = Vec::new();
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            let kids = self.children(id);
            if !kids.is_empty() {
                let v = if id == root {
                    u32::MAX
                } else {
                    self.node(id).visits()
                };
                expanded.push((v, kids.len() as u32));
                stack.extend(kids);
            }
        }
        expanded.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
        let mut kept = 1usize;
        let mut threshold = u32::MAX;
        for (i, &(v, n)) in expanded.iter().enumerate() {
            if kept + n as usize > keep && i > 0 {
                // Nodes with equal visits go together or not at all.
                threshold = v.saturating_add(1);
                break;
            }
            kept += n as usize;
            threshold = v;
        }
        drop(expanded);
        self.pack(root, threshold);
        threshold
    }

    /// Moves the subtree of `top` to the front of the arena (`top` becomes the root),
    /// keeping the children only of `top` and of the nodes with at least `min_visits`
    /// visits, and frees the rest.
    fn pack(&self, top: NodeId, min_visits: u32) {
        // The kept nodes in breadth-first order, each expanded node's children one block
        // after the nodes placed before them; copied out before any is written over.
        let mut order = vec![top];
        let mut first_new = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let id = order[i];
            let kids = if id == top || self.node(id).visits() >= min_visits {
                self.children(id)
            } else {
                0..0
            };
            first_new.push(if kids.is_empty() {
                NO_NODE
            } else {
                order.len() as NodeId
            });
            order.extend(kids);
            i += 1;
        }
        let copies: Vec<([u32; 5], u64, u16)> = order
            .iter()
            .zip(&first_new)
            .map(|(&old, &first)| {
                let n = self.node(old);
                let kids = if first == NO_NODE {
                    0
                } else {
                    n.children.load(Relaxed)
                };
                (
                    [
                        n.mv.load(Relaxed),
                        n.prior.load(Relaxed),
                        n.visits.load(Relaxed),
                        n.wins.load(Relaxed),
                        first,
                    ],
                    n.amaf.load(Relaxed),
                    kids,
                )
            })
            .collect();
        drop(order);
        drop(first_new);
        for (n, (c, amaf, kids)) in self.nodes.iter().zip(&copies) {
            n.mv.store(c[0], Relaxed);
            n.prior.store(c[1], Relaxed);
            n.visits.store(c[2], Relaxed);
            n.wins.store(c[3], Relaxed);
            n.amaf.store(*amaf, Relaxed);
            n.first_child.store(c[4], Relaxed);
            n.children.store(*kids, Relaxed);
            n.state
                .store(if c[4] == NO_NODE { LEAF } else { EXPANDED }, Release);
        }
        self.used.store(copies.len(), Relaxed);
        self.root.store(0, Relaxed);
    }

    /// The children of `id` (empty before expansion).
    pub fn children(&self, id: NodeId) -> std::ops::Range<NodeId> {
        let n = self.node(id);
        if !n.is_expanded() {
            return 0..0;
        }
        let first = n.first_child.load(Relaxed);
        first..first + n.children.load(Relaxed) as u32
    }

    /// Expands `id` with `moves` (move, prior) unless another thread does or did; false
    /// when the arena is full, the node is taken or there are more than
    /// [`MAX_CHILDREN`] moves.
    pub fn expand(&self, id: NodeId, moves: &[(u32, f32)]) -> bool {
        let n = self.node(id);
        if moves.len() > MAX_CHILDREN {
            return false;
        }
        if n.state
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_err()
        {
            return false;
        }
        let first = self.used.fetch_add(moves.len(), Relaxed);
        if first + moves.len() > self.nodes.len() {
            // Full: leave the node a leaf for good (playouts still run from it).
            n.state.store(LEAF, Release);
            return false;
        }
        for (i, &(mv, prior)) in moves.iter().enumerate() {
            self.nodes[first + i].reset(mv, prior);
        }
        n.first_child.store(first as u32, Relaxed);
        n.children.store(moves.len() as u16, Relaxed);
        n.state.store(EXPANDED, Release);
        true
    }

    /// The child of `id` that plays `mv`.
    pub fn find_child(&self, id: NodeId, mv: u32) -> Option<NodeId> {
        self.children(id).find(|&c| self.node(c).mv() == mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rerooted_subtree_keeps_its_statistics_when_moved_to_the_front() {
        let mut t = Tree::new(1024);
        let root = t.root();
        assert!(t.expand(root, &[(10, 0.5), (11, 0.6), (12, 0.7)]));
        let kept = t.find_child(root, 11).unwrap();
        assert!(t.expand(kept, &[(20, 0.1), (21, 0.2)]));
        let grandchild = t.find_child(kept, 21).unwrap();
        t.node(kept).visits.store(40, Relaxed);
        t.node(grandchild).visits.store(7, Relaxed);
        t.node(grandchild).wins.store(9 * UNIT as u32 / 2, Relaxed);
        // Fill the arena past half with a sibling's subtree, then keep the middle child.
        let other = t.find_child(root, 12).unwrap();
        assert!(t.expand(other, &vec![(30, 0.5); 600]));
        assert!(t.used() > t.capacity() / 2);
        assert!(t.reroot(Some(kept)));
        assert_eq!(t.used(), 3, "only the kept subtree is left");
        let r = t.root();
        assert_eq!((t.node(r).mv(), t.node(r).visits()), (11, 40));
        let moves: Vec<u32> = t.children(r).map(|c| t.node(c).mv()).collect();
        assert_eq!(moves, [20, 21]);
        let g = t.find_child(r, 21).unwrap();
        assert_eq!(
            (t.node(g).visits(), t.node(g).win_rate()),
            (7, Some(9.0 / 14.0))
        );
        assert!((t.node(g).prior() - 0.2).abs() < 1e-6);
        // The freed space is handed out again.
        assert!(t.expand(g, &[(40, 0.5)]));
        assert_eq!(t.used(), 4);
        // Below half the arena nothing moves.
        assert!(t.reroot(Some(g)));
        assert_eq!(t.root(), g);
        assert!(!t.reroot(None));
        assert_eq!(t.used(), 1);
    }

    #[test]
    fn collecting_keeps_the_well_visited_nodes_children_and_packs_them() {
        let t = Tree::new(1024);
        let root = t.root();
        t.node(root).visits.store(100, Relaxed);
        assert!(t.expand(root, &[(1, 0.5), (2, 0.5), (3, 0.5)]));
        let (a, b, c) = (
            t.find_child(root, 1).unwrap(),
            t.find_child(root, 2).unwrap(),
            t.find_child(root, 3).unwrap(),
        );
        // a: well visited, its children kept; b and c: a few visits, theirs dropped.
        t.node(a).visits.store(80, Relaxed);
        t.node(a).wins.store(30 * UNIT as u32, Relaxed);
        t.node(b).visits.store(15, Relaxed);
        t.node(c).visits.store(5, Relaxed);
        assert!(t.expand(a, &vec![(10, 0.4); 100]));
        assert!(t.expand(b, &vec![(20, 0.4); 300]));
        assert!(t.expand(c, &vec![(30, 0.4); 300]));
        let grandchild = t.find_child(a, 10).unwrap();
        assert!(t.expand(grandchild, &vec![(40, 0.4); 50]));
        t.node(grandchild).visits.store(60, Relaxed);
        assert_eq!(t.used(), 1 + 3 + 100 + 300 + 300 + 50);
        // Room for the root's three, a's hundred and the grandchild's fifty: b (15
        // visits) and c lose theirs.
        let threshold = t.collect(200);
        assert_eq!(
            threshold, 16,
            "nodes with 16 visits or more keep their children"
        );
        assert_eq!(t.used(), 1 + 3 + 100 + 50);
        let r = t.root();
        assert_eq!(r, 0);
        let moves: Vec<u32> = t.children(r).map(|k| t.node(k).mv()).collect();
        assert_eq!(moves, [1, 2, 3], "the root keeps all its children");
        let a = t.find_child(r, 1).unwrap();
        assert_eq!(
            (t.node(a).visits(), t.node(a).win_rate()),
            (80, Some(30.0 / 80.0))
        );
        assert_eq!(t.children(a).len(), 100);
        let g = t.find_child(a, 10).unwrap();
        assert_eq!(t.children(g).len(), 50);
        let b = t.find_child(r, 2).unwrap();
        assert!(!t.node(b).is_expanded(), "a dropped node is a leaf again");
        assert_eq!(t.node(b).visits(), 15, "and keeps its own statistics");
        // It can be expanded again in the freed space.
        assert!(t.expand(b, &vec![(20, 0.4); 300]));
        // Everything fits: nothing is dropped.
        let used = t.used();
        t.collect(1024);
        assert_eq!(t.used(), used);
    }
}
