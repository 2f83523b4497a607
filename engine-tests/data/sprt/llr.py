#!/usr/bin/env python3
"""Reference LLRs for the pentanomial GSPRT, written apart from Tengen's Rust code.

From Michel Van den Bergh, "Comments on normalized Elo" (2020): the LLR is
N * sum_i f_i * log(p1_i / p0_i), where f is the observed frequency of each pair score
a_i in {0, 1/4, 1/2, 3/4, 1} (an empty cell counts 1/1000 of a pair) and p0, p1 are the
maximum-likelihood distributions under H0 and H1:
  logistic: mean = 1 / (1 + 10^(-elo/400))          (proposition 1.1)
  normalized: (mean - 1/2) / sd = sqrt(2) * elo * ln(10) / 800   (section 4.1)
Run: python3 llr.py > llr.txt (plain Python 3, no module needed).
"""
import math

A = [0.0, 0.25, 0.5, 0.75, 1.0]


def solve(f, lo, hi):
    # f decreasing on (lo, hi); plain bisection in exact-enough floats.
    for _ in range(300):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_mean(f, s):
    d = [a - s for a in A]
    th = solve(lambda t: sum(fi * di / (1 + t * di) for fi, di in zip(f, d)), -1 / d[-1], -1 / d[0])
    return [fi / (1 + th * di) for fi, di in zip(f, d)]


def mle_t(f, t):
    p = [0.2] * 5
    for _ in range(100000):
        mu = sum(pi * a for pi, a in zip(p, A))
        sd = math.sqrt(sum(pi * (a - mu) ** 2 for pi, a in zip(p, A)))
        phi = [a - 0.5 - 0.5 * t * sd * (1 + ((a - mu) / sd) ** 2) for a in A]
        th = solve(lambda x: sum(fi * ph / (1 + x * ph) for fi, ph in zip(f, phi)),
                   -1 / max(phi), -1 / min(phi))
        q = [fi / (1 + th * ph) for fi, ph in zip(f, phi)]
        done = max(abs(x - y) for x, y in zip(p, q)) < 1e-13
        p = q
        if done:
            break
    return p


def llr(counts, model, elo0, elo1):
    c = [n if n else 1e-3 for n in counts]
    n = sum(c)
    f = [x / n for x in c]
    if model == "logistic":
        s = lambda e: 1 / (1 + 10 ** (-e / 400))
        p0, p1 = mle_mean(f, s(elo0)), mle_mean(f, s(elo1))
    else:
        k = math.sqrt(2) * math.log(10) / 800
        p0, p1 = mle_t(f, k * elo0), mle_t(f, k * elo1)
    return n * sum(fi * (math.log(b) - math.log(a)) for fi, a, b in zip(f, p0, p1))


CASES = [
    ([10, 40, 100, 60, 20], 0, 5),
    ([10, 40, 100, 60, 20], 0, 10),
    ([3, 21, 60, 22, 4], 0, 5),
    ([0, 12, 80, 30, 2], -3, 1),
    ([150, 0, 20, 0, 170], 0, 5),
    ([5, 0, 0, 0, 9], 0, 20),
    ([1000, 3000, 8000, 3500, 1100], 0, 2),
]

print("# LL LD DD+WL WD WW  model  elo0 elo1  llr   (from llr.py)")
for counts, e0, e1 in CASES:
    for model in ("logistic", "normalized"):
        print(" ".join(map(str, counts)), model, e0, e1, "%.9f" % llr(counts, model, e0, e1))
