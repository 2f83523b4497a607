"""The games of `tengen tournament --results` files, for the bench scripts.

A results file is JSON lines: a settings header (`settings.game` says the game, its
size or width, komi), then one record a game (`moves`, `black`, `white`, `result`, …).
`games(paths)` yields `(game settings, record)` for every game record, each with the
settings of the header above it. `points(rec, name)` is what one engine of a game scored.
c-gomoku-cli's `-sgf` files (a path ending in `.sgf`) are read too, as the same records
with the fields the scripts share: `game` (from 0, in the runner's order), `opening` (the
book's moves), `black`, `white`, `first`, `second`, `first_points`, `moves`, `result`.
"""
import json
import re


def sgf_games(path):
    """c-gomoku-cli's games: one `(;FF[4]...)` a game, its number in `GN`."""
    with open(path) as f:
        text = f.read()
    for body in re.findall(r"\(;(.*?)\)\s*(?=\(;|$)", text, re.S):
        props = dict(re.findall(r"\b(GN|PB|PW|RE|SZ)\[([^\]]*)\]", body))
        moves = re.findall(r";([BW])\[([a-z]{2})\]C\[([^\]]*)\]", body)
        black, white = props["PB"], props["PW"]
        result = props.get("RE", "0")
        first_points = 1.0 if result.startswith("B+") else 0.0 if result.startswith("W+") else 0.5
        rec = {
            "game": int(props["GN"]) - 1,
            "opening": " ".join(m for _, m, c in moves if c == "opening move"),
            "black": black,
            "white": white,
            "first": black,
            "second": white,
            "first_points": first_points,
            "moves": [m for _, m, _ in moves],
            "result": result,
        }
        yield {"game": "gomoku", "width": int(props.get("SZ", 15))}, rec


def games(paths):
    for path in paths:
        if path.endswith(".sgf"):
            yield from sgf_games(path)
            continue
        game = {}
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                if "settings" in rec:
                    game = rec["settings"].get("game", {})
                elif "moves" in rec:
                    yield game, rec


def points(rec, name):
    """What the engine `name` scored in the game record `rec` (1, 0.5 or 0)."""
    return rec["first_points"] if rec["first"] == name else 1 - rec["first_points"]
