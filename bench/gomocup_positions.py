"""Positions files of the bench scripts, and the Gomocup BOARD block that sets one up.

A positions file holds one position a line, `SIZE | x,y x,y …` (the moves from the empty
board, black first); `#` starts a comment.
"""


def read_positions(path):
    """The (size, moves) of every position of a positions file."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                size, moves = line.split("|")
                out.append((int(size), moves.split()))
    return out


def board_block(moves):
    """The lines of a Gomocup BOARD block for the position after `moves`: the side to
    move's stones as 1, the other side's as 2."""
    n = len(moves)
    return ["BOARD"] + [f"{m},{1 if (n - i) % 2 == 0 else 2}" for i, m in enumerate(moves)] + ["DONE"]
