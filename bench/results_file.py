"""The games of `tengen tournament --results` files, for the bench scripts.

A results file is JSON lines: a settings header (`settings.game` says the game, its
size or width, komi), then one record a game (`moves`, `black`, `white`, `result`, …).
`games(paths)` yields `(game settings, record)` for every game record, each with the
settings of the header above it.
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
