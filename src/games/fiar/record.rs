//! Five-in-a-row records: move lists, Piskvork PSQ and SGF (GM[4]).
