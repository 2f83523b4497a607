"""The games of `tengen tournament --results` files, for the bench scripts.

A results file is JSON lines: a settings header (`settings.game` says the game, its
size or width, komi), then one record a game (`moves`, `black`, `white`, `result`, …).
`games(paths)` yields `(game settings, record)` for every game record, each with the
settings of the header above it. `points(rec, name)` is what one engine of a game scored.
"""
import json


def games(paths):
    for path in paths:
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
