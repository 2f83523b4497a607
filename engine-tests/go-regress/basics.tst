# Tengen's Go regression suite, in GNU Go's .tst format: numbered commands are checked
# against the `#?` line after them ([A|B] alternatives, [!A] anything but A; a trailing
# * marks a known failure). Positions are in engine-tests/data/go/.

# Two chains of five in atari against each other: whoever moves captures (black on
# G6, white on G5) and wins. Known failure (issue 16): A4, which takes one stone and
# saves black's five, wins its first playouts too, and which of the two the search
# settles on follows the seed, with the old constants as with Go's own (A4 on three
# seeds of four at 2,000 playouts before them; 65-69% against G6's 62-64% at 30,000,
# two seeds of three, after): the playouts undervalue the five-stone capture.
loadsgf engine-tests/data/go/capture.sgf
1 reg_genmove black
#? [G6]*
12 reg_genmove white
#? [G5]

# A straight three in the corner decides the game: black kills on the vital point,
# white lives on it.
loadsgf engine-tests/data/go/nakade.sgf
2 reg_genmove black
#? [B1]
3 reg_genmove white
#? [B1]

# A finished game with a dead stone on each side: 45 to 36 + 7 komi. Known failures
# (2026-12-02): the judgement's playouts keep black's lone H3 alive in white's 36-point
# area about half the time at 5,000 playouts, and at 20,000 they read it alive every
# time (five seeds); the expected answers came by the seed's luck. Judging needs
# reading, not random playouts (issue 16).
loadsgf engine-tests/data/go/finished.sgf
4 final_score
#? [W+16]*
5 final_status_list dead
#? [B7 H3]*
6 final_status_list seki
#? []

# A seki: each inner chain has one eye and shares D7 with the other; whoever fills D7
# is captured through its own eye. Nothing is dead, both inner chains are in seki.
loadsgf engine-tests/data/go/seki.sgf
7 final_status_list dead
#? []
8 final_status_list seki
#? [A7 C7 E7 G7 A6 B6 C6 D6 E6 F6 G6]
9 reg_genmove black
#? [!D7]
10 reg_genmove white
#? [!D7]
11 final_score
#? [W+4.5]
