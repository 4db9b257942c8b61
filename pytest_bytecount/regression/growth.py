"""The order of growth of exact counts: which of 1, log n, n, n log n, n^2, n^3 and 2^n a series of counts
measured at several input sizes follows, and whether a series grows worse than its baseline.

Counts of executed bytecode are exact and deterministic: no noise blurs them, so a rule made for timings
(fit each curve ``a + b*f(n)`` alone, call the best one the order, and fail only when the old order no longer
fits within 2x) throws away what exact counts can say. Real code is a *sum* of parts that grow differently:
``15 n log n + 25 n + 70`` for n inserts into a tree, ``n^2/2 + 30 n`` for removing from the front of an
array list. Fitted one term at a time, such a sum looks like its largest term only at sizes far beyond the
measured ones. The rule here:

- **sums of terms.** The counts are fitted as ``a + b log n + c n + d n log n + e n^2 + f n^3``, every subset
  of the growing terms tried (up to 31 fits, each with one degree of freedom left at least: 4 sizes allow the
  constant and two terms). The growing terms' coefficients must be positive (an exhaustive non-negative
  least squares): work does not shrink as n grows. The constant may be negative (``5n - 2``: the set-up
  that runs once is often less than one step of a loop), but not below half the value at the largest size:
  a large negative intercept is one curve bent to imitate another (``log n`` minus a constant mimics ``n``
  over a short range). A fit of ``n log n`` or lower whose negative constant is beyond ``MIN_CONSTANT_FIRST`` of its value
  at the smallest fitted size counts only when it fits exactly (``3 (n - 8)``): real code saves a few turns
  of a loop, and a line minus 4% of its largest value (38% of its smallest) imitates ``n log n`` over 8x, while
  hash tables and arrays that grow by doubling bend a line by 6% to 8% of its smallest value at most (a table's
  chains lengthen a little as it fills, a staircase's steps fall between the sizes), and are linear. Higher orders may bend:
  there is no ``n^2 log n`` among the orders, and ``n^2`` with a negative constant is how it reads. Errors
  are relative (each size weighted by ``1/value^2``), so each size counts alike;
- **the named order is the highest term of the simplest good fit.** A fit's order is its highest term; the
  best fit of each order is kept, and the order named is the lowest one whose fit is within a tolerance of
  the best fit over all orders *plus* the rounding floor (counts are integers: ``0.5/value`` of relative
  error at each size is all an exact formula leaves), and at most ``ABS`` worse than the best. The
  tolerance is an F ratio of squared errors, ``1 + F_LIMIT * (extra parameters) / (degrees of freedom
  left)``: 4 times the best error with 4 sizes, 2 times with 8, since more sizes are more evidence. For an exact
  formula the true order fits at the rounding floor and every simpler order fits thousands of times worse,
  so however small the extra term (``n log n`` beside ``10 n``) it is named. The highest term must also
  carry ``MIN_SHARE`` of the growth at the largest size, unless the fit is exact: a sliver of ``n^2`` that
  only bends ``n log n`` (merge sort's exact ``n log n - n + 1``, whose ``-n`` the non-negative fit cannot
  write) is not an order, while ``n log n + 200 n``, fitted exactly, is ``n log n``;
- **steps are not growth.** Arrays that grow by a factor (1.5 for ArrayList, 2 for HashMap) copy their
  elements at sizes that form a geometric series: the count is linear on average but a staircase. No sum
  of smooth terms fits a staircase exactly, so its best fit stays well above the rounding floor, and within
  the tolerance of that best a simpler order wins: the steps' irregularity is the tolerance. The fitted sizes
  are the larger ones (:func:`upper`: the largest half, at least 4; small inputs take fast paths),
  extended down to span at least ``SPAN`` (8x) when the sizes are denser than doublings: over
  5,000..8,000 a table that doubles is one step, which any order fits alike;
- **exponentials.** ``a + b c^n`` is fitted too (``c`` by a one-dimensional search), and named ``2^n`` only
  when it is the simplest good fit, it grows over the fitted sizes faster than ``n^3`` does (a ``c`` barely
  above 1 would otherwise mimic any polynomial), and the local exponents rise at every step, as ``n log c``
  does (a jump at a threshold between two sizes, after a flat run, is not an exponential);
- **the evidence.** Each term's share of the fitted value at the largest size (shares sum to 1), the local
  exponents ``log(v_k/v_{k-1}) / log(n_k/n_{k-1})`` between the fitted sizes, the chosen fit's error and
  the best simpler order's: a reader sees why (``n log n: 48% of the work at n=4,096``).

Comparing with a baseline (:func:`compare_growth`): a higher order now is worse, whatever the fits' errors
(the counts are exact, a change of growth is real). At the same sizes, a local exponent at the largest sizes
that rose by more than ``JUMP`` is worse too, whatever the names (a quadratic path above a threshold
between the sizes). A lower order is better only if the exponent fell by at least ``BETTER_DROP`` and, at
the same sizes, the top local exponent did not rise: counts that grow as fast as before never read as an
improvement. Anything else is the same order.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

ORDERS = ("1", "log n", "n", "n log n", "n^2", "n^3", "2^n")
RANK = {order: i for i, order in enumerate(ORDERS)}
MIN_SIZES = 4


class ScalingError(ValueError):
    """Bad arguments to a complexity check (sizes, metric, method) or a malformed stored one."""


def check_sizes(sizes: Sequence[int]) -> List[int]:
    sizes = list(sizes)
    if len(sizes) < MIN_SIZES or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in sizes) \
            or any(b <= a for a, b in zip(sizes, sizes[1:])):
        raise ScalingError(f"a complexity check needs at least {MIN_SIZES} increasing sizes n >= 1 (integers), got "
                           f"{sizes!r}; doubling sizes such as [256, 512, 1024, 2048, 4096, 8192] work best")
    return sizes


def upper(sizes: Sequence[int], values: Sequence[int]):
    """The sizes the order is fitted on at least: the largest half, at least MIN_SIZES."""
    k = max(MIN_SIZES, (len(sizes) + 1) // 2)
    return list(sizes[-k:]), list(values[-k:])

F_LIMIT = 15.0  # a simpler order wins when its fit's squared error is within 1 + F_LIMIT * (extra parameters) /
# (degrees of freedom left) of the best one's: 4 times the error with 4 sizes and one extra term, 2 times with 8
ABS = 0.1  # ... and at most this much worse (RMS relative error): a flat fit never wins against steps that doubled
EXACT = 1e-7  # relative error beyond integer rounding that float arithmetic leaves in an exact fit
MIN_SHARE = 0.1  # the highest term's share of the growth at the largest size, below which it only bends the others
MIN_CONSTANT = -0.5  # the lowest share of a negative constant at the largest size
MIN_CONSTANT_FIRST = 0.15  # a line whose negative constant is beyond this share of its value at the smallest
# fitted size counts only when exact: real code saves a few turns of a loop, amortized growth bends a line by 8%
# of it at most, a sort's staircase of n log n by 38%
SPAN = 8.0  # the fitted sizes span at least this factor, when the sizes allow
JUMP = 0.5  # a rise of the top local exponent, at the same sizes, that is worse whatever the names
BETTER_DROP = 0.02  # the fall of the exponent a better order needs

TERMS = {
    "log n": lambda n: math.log2(n),
    "n": lambda n: float(n),
    "n log n": lambda n: n * math.log2(n),
    "n^2": lambda n: float(n) ** 2,
    "n^3": lambda n: float(n) ** 3,
}


@dataclass(frozen=True)
class Growth:
    """The order of one series of counts, and the evidence for it."""

    order: str  # one of ORDERS
    exponent: float  # slope of log value against log n over the fitted sizes
    growth: Optional[float]  # for "2^n": the factor per +1 in n; else None
    terms: Dict[str, float]  # each term's share of the chosen fit's value at the largest size (sum 1)
    sizes: Tuple[int, ...]  # the fitted sizes
    local: Tuple[float, ...]  # local exponents between successive fitted sizes
    error: float  # RMS relative error of the chosen fit
    simpler: Optional[float]  # RMS relative error of the best fit of a lower order (None for "1")
    fits: Dict[str, Optional[float]]  # per order, the RMS relative error of its best fit the rule may name (None:
    # none: no fit of that order grows so, or only with a minor top term or a bent line)
    value: float = 0.0  # the chosen fit's value at the largest fitted size: with ``terms``, the fitted function

    def at(self, n: int) -> float:
        """The chosen fit's value at ``n`` (any size, measured or not): ``value`` times each term's share, each term
        scaled by its growth from the largest fitted size to ``n``."""
        top = self.sizes[-1]
        total = 0.0
        for name, share in self.terms.items():
            if name == "1":
                total += share
            elif name == "2^n":
                try:
                    total += share * self.growth ** (n - top)
                except OverflowError:
                    return math.inf
            else:
                total += share * TERMS[name](n) / TERMS[name](top)
        return self.value * total


@dataclass(frozen=True)
class _Fit:
    order: str
    error: float
    terms: Dict[str, float]
    growth: Optional[float] = None
    params: int = 1
    value: float = 0.0  # the fitted value at the largest fitted size
    minor: bool = False  # the highest term carries less than MIN_SHARE of the growth at the largest size, or a
    # line is bent by a negative constant beyond MIN_CONSTANT_FIRST: such a fit counts only when it is exact


# --- least squares ------------------------------------------------------------------------------------
def _solve(cols: List[List[float]], b: List[float]) -> Optional[List[float]]:
    """Least squares ``cols @ x ~ b`` by Gram-Schmidt, orthogonalized twice (None: the columns are dependent)."""
    m, k = len(b), len(cols)
    q = [list(c) for c in cols]
    r = [[0.0] * k for _ in range(k)]
    for j in range(k):
        for _ in range(2):
            for i in range(j):
                d = sum(q[i][t] * q[j][t] for t in range(m))
                r[i][j] += d
                q[j] = [q[j][t] - d * q[i][t] for t in range(m)]
        norm = math.sqrt(sum(v * v for v in q[j]))
        if norm <= 1e-12 * math.sqrt(sum(v * v for v in cols[j])):
            return None
        r[j][j] = norm
        q[j] = [v / norm for v in q[j]]
    qb = [sum(q[i][t] * b[t] for t in range(m)) for i in range(k)]
    x = [0.0] * k
    for i in reversed(range(k)):
        x[i] = (qb[i] - sum(r[i][j] * x[j] for j in range(i + 1, k))) / r[i][i]
    return x


def _weighted_fit(xs, ys, funcs) -> Optional[Tuple[List[float], float]]:
    """Coefficients of ``sum c_j f_j(n)`` on relative errors, each ``f_j`` scaled to 1 at the largest size,
    and the RMS relative error."""
    w = [1.0 / max(y, 1) for y in ys]
    cols = [[f(x) * wi for x, wi in zip(xs, w)] for f in funcs]
    coef = _solve(cols, [y * wi for y, wi in zip(ys, w)])
    if coef is None:
        return None
    error = math.sqrt(sum((y * wi - sum(c * col[i] for c, col in zip(coef, cols))) ** 2
                          for i, (y, wi) in enumerate(zip(ys, w))) / len(xs))
    return coef, error


def _fit_terms(xs, ys, names: Sequence[str]) -> Optional[_Fit]:
    """The constant plus ``names``: None when a growing term's coefficient is not positive or the constant is
    too negative."""
    top = xs[-1]
    funcs = [lambda n: 1.0] + [lambda n, f=TERMS[t]: f(n) / f(top) for t in names]
    fitted = _weighted_fit(xs, ys, funcs)
    if fitted is None:
        return None
    coef, error = fitted
    value = sum(coef)  # each function is 1 at the largest size
    if value <= 0 or any(c <= 1e-9 * value for c in coef[1:]):
        return None
    shares = {name: c / value for name, c in zip(("1",) + tuple(names), coef)}
    if shares["1"] < MIN_CONSTANT:
        return None
    first = sum(c * f(xs[0]) for c, f in zip(coef, funcs))  # the fit's value at the smallest fitted size
    bent = RANK[names[-1]] <= RANK["n log n"] and coef[0] < -MIN_CONSTANT_FIRST * first
    return _Fit(names[-1], error, shares, params=1 + len(names), value=value,
                minor=bent or shares[names[-1]] < MIN_SHARE * (1 - shares["1"]))


def _fit_exponential(xs, ys) -> Optional[_Fit]:
    """``a + b c^n``, ``c`` by a grid and golden-section search on its logarithm; None when it does not grow
    over the fitted sizes faster than ``n^3`` does, or its local exponents do not rise at every step."""
    top = xs[-1]

    def at(log_c):
        fitted = _weighted_fit(xs, ys, [lambda n: 1.0, lambda n: math.exp(log_c * (n - top))])
        return (math.inf, None) if fitted is None or fitted[0][1] <= 0 else (fitted[1], fitted[0])

    grid = [1e-4 * 5e4 ** (i / 200) for i in range(201)]  # log c from 1e-4 to 5
    i = min(range(len(grid)), key=lambda j: at(grid[j])[0])
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        lo, hi = (lo, b) if at(a)[0] < at(b)[0] else (a, hi)
    log_c = (lo + hi) / 2
    error, coef = at(log_c)
    local = _local_exponents(xs, ys)
    if coef is None or log_c * (top - xs[0]) <= 3 * math.log(top / xs[0]) \
            or any(b <= a for a, b in zip(local, local[1:])):
        return None
    value = coef[0] + coef[1]
    if value <= 0 or coef[0] / value < MIN_CONSTANT:
        return None
    return _Fit("2^n", error, {"1": coef[0] / value, "2^n": coef[1] / value}, math.exp(log_c), params=3, value=value)


def _fit_constant(xs, ys) -> _Fit:
    w = [1.0 / max(y, 1) ** 2 for y in ys]
    a = sum(wi * y for wi, y in zip(w, ys)) / sum(w)
    error = math.sqrt(sum(((y - a) / max(y, 1)) ** 2 for y in ys) / len(ys))
    return _Fit("1", error, {"1": 1.0}, value=a)


# --- naming an order ----------------------------------------------------------------------------------
def _window(sizes: List[int], values: List[int]):
    """The fitted sizes: :func:`upper`, extended down until they span SPAN (when the sizes allow)."""
    xs, _ = upper(sizes, values)
    i = len(sizes) - len(xs)
    while i > 0 and sizes[-1] < SPAN * sizes[i]:
        i -= 1
    return sizes[i:], list(values[i:])


def _candidates(xs, ys) -> List[_Fit]:
    fits = [_fit_constant(xs, ys)]
    if ys[-1] > min(ys):
        params = len(xs) - 1  # one degree of freedom left: an exact fit means something
        for k in range(1, min(len(TERMS), params - 1) + 1):
            for names in itertools.combinations(TERMS, k):
                fits.append(_fit_terms(xs, ys, names))
        fits.append(_fit_exponential(xs, ys))
    return [f for f in fits if f is not None]


def _tolerance(best: _Fit, fit: _Fit, sizes: int) -> float:
    """How many times the best fit's error a simpler fit may have: 4 with one degree of freedom left, less with
    more (the F ratio of the two fits' squared errors, F_LIMIT at most)."""
    return math.sqrt(1 + F_LIMIT * max(best.params - fit.params, 1) / max(sizes - best.params, 1))


def _choose(fits: List[_Fit], floor: float, sizes: int) -> Tuple[_Fit, Optional[float]]:
    """The lowest order whose best fit (of that order or lower) is good enough; and the best simpler fit's error.
    A fit whose highest term is minor counts only when it is exact."""
    fits = [f for f in fits if not f.minor or f.error <= floor]
    best = min(fits, key=lambda f: (f.error, f.params))
    simpler: Optional[_Fit] = None
    for order in ORDERS:
        mine = [f for f in fits if f.order == order]
        if not mine:
            continue
        good = min(mine, key=lambda f: f.error)
        if simpler is not None and simpler.error <= good.error:
            continue  # a lower order already fits as well
        if good.error <= _tolerance(best, good, sizes) * best.error + floor and good.error <= best.error + ABS:
            return good, None if simpler is None else simpler.error
        simpler = good
    raise AssertionError("the best fit is always good enough")


def _slope(xs, ys) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def _local_exponents(xs, ys) -> Tuple[float, ...]:
    return tuple(round(math.log(max(b, 1) / max(a, 1)) / math.log(m / n), 4) + 0.0
                 for n, m, a, b in zip(xs, xs[1:], ys, ys[1:]))


def name_order(sizes: Sequence[int], values: Sequence[int]) -> Growth:
    """The order of ``values`` measured at ``sizes`` (see the module docstring)."""
    sizes = check_sizes(sizes)
    if len(values) != len(sizes) or any(v < 0 for v in values):
        raise ScalingError(f"{len(values)} values for {len(sizes)} sizes; counts are never negative")
    xs, ys = _window(sizes, list(values))
    floor = EXACT + math.sqrt(sum((0.5 / max(y, 1)) ** 2 for y in ys) / len(ys))
    candidates = _candidates(xs, ys)
    chosen, simpler = _choose(candidates, floor, len(xs))
    exponent = round(_slope([math.log(x) for x in xs], [math.log(max(y, 1)) for y in ys]), 4) + 0.0
    fits: Dict[str, Optional[float]] = {order: None for order in ORDERS}
    for f in candidates:  # those the rule may name: not a minor top term or a bent line, unless exact
        if f.minor and f.error > floor:
            continue
        if fits[f.order] is None or f.error < fits[f.order]:
            fits[f.order] = f.error
    return Growth(chosen.order, exponent, chosen.growth, dict(chosen.terms), tuple(xs), _local_exponents(xs, ys),
                  chosen.error, simpler, fits, chosen.value)


# --- comparing with a baseline ------------------------------------------------------------------------
def compare_growth(base_sizes: Sequence[int], base_values: Sequence[int], now_sizes: Sequence[int],
                   now_values: Sequence[int]) -> str:
    """``"worse"``, ``"better"`` or ``"same"``: the growth now against the baseline's (module docstring)."""
    return judge(name_order(base_sizes, base_values), name_order(now_sizes, now_values),
                 list(base_sizes) == list(now_sizes))


def judge(base: Growth, now: Growth, same_sizes: bool) -> str:
    """:func:`compare_growth` of two series already named (``same_sizes``: measured at the same sizes)."""
    rise = now.local[-1] - base.local[-1] if same_sizes else 0.0
    if RANK[now.order] > RANK[base.order] or rise > JUMP:
        return "worse"
    if RANK[now.order] < RANK[base.order] and now.exponent <= base.exponent - BETTER_DROP and rise <= 0:
        return "better"
    return "same"


def explain(g: Growth) -> str:
    """One line of evidence: ``n log n: 48% of the work at n=4,096 (local exponents 1.09, 1.08, 1.08; ...)``."""
    at = f"n={g.sizes[-1]:,}"
    if g.order == "1":
        head = f"1: no term grows from n={g.sizes[0]:,} to {g.sizes[-1]:,}"
    elif g.order == "2^n":
        head = f"2^n: x{g.growth:.3g} per +1 in n, {g.terms['2^n']:.0%} of the work at {at}"
    else:
        # of the work the growing terms and a positive constant do: a negative constant (a loop's set-up saving a
        # few turns) is no share of the work, so no share is negative or above 100%
        whole = sum(s for s in g.terms.values() if s > 0)
        shares = {t: s / whole for t, s in g.terms.items() if s > 0}
        head = f"{g.order}: {shares[g.order]:.0%} of the work at {at}"
        others = [f"{t} {s:.0%}" for t, s in shares.items() if t != g.order and s >= 0.005]
        head += f" ({', '.join(others)})" if others else ""
    local = ", ".join(f"{e:.2f}" for e in g.local[-3:])
    fit = f"fit {_percent(g.error)}" + ("" if g.simpler is None else f", simpler orders {_percent(g.simpler)}")
    return f"{head}; local exponents {local}; {fit}"


def _percent(r: float) -> str:
    return "<0.001%" if r < 1e-5 else f"{r * 100:.2g}%"
