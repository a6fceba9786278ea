"""The balance lab's intervals against independent references (statsmodels, scipy, published
values), and their coverage at small samples by seeded simulation (a few thousand draws)."""
import math

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

from playtest.lab import newcombe, wilson
from playtest.lab.sequential import alpha_spent, spending_bounds
from playtest.lab.stats import newcombe_paired, t_interval, welch


@pytest.mark.parametrize("successes, n", [(0, 5), (1, 5), (2.5, 5), (3, 7), (9.5, 10), (10, 10), (137, 400),
                                          (0.5, 3)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_matches_statsmodels_whole_and_part_successes(successes, n, confidence):
    # part successes: AdvantageP1's draws and middle places
    expected = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    assert wilson(successes, n, confidence) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("a, b", [((48, 80), (56, 70)), ((3, 10), (9, 10)), ((0, 20), (0, 10)), ((17, 40), (5, 33))])
def test_newcombe_independent_matches_statsmodels(a, b):
    low, high = confint_proportions_2indep(b[0], b[1], a[0], a[1], method="newcomb", compare="diff")
    d, got_low, got_high = newcombe(*a, *b)
    assert (got_low, got_high) == pytest.approx((low, high), abs=1e-12) and d == pytest.approx(b[0] / b[1] - a[0] / a[1])


def test_newcombe_paired_matches_the_published_example():
    # Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables, ch. 8 (Cavo et al. 2012):
    # table [[59, 6], [16, 80]], p1 - p2 = -0.0621, Newcombe square-and-add (-0.1186, -0.0046); here B - A
    d, low, high = newcombe_paired(both=59, a_only=6, b_only=16, neither=80)
    assert (d, low, high) == pytest.approx((0.0621, 0.0046, 0.1186), abs=5e-5)


@pytest.mark.parametrize("both, a_only, b_only, neither", [(6, 4, 5, 4), (3, 6, 2, 5), (9, 8, 8, 8)])
def test_newcombe_paired_without_correlation_is_the_independent_interval(both, a_only, b_only, neither):
    # a continuity-corrected cross product within 0..n/2 leaves no correlation: the square-and-add of the two
    # Wilson intervals, as for independent samples of the same size (statsmodels' Newcombe)
    n = both + a_only + b_only + neither
    assert 0 <= both * neither - a_only * b_only <= n / 2
    low, high = confint_proportions_2indep(both + b_only, n, both + a_only, n, method="newcomb", compare="diff")
    assert newcombe_paired(both, a_only, b_only, neither)[1:] == pytest.approx((low, high), abs=1e-12)


def test_newcombe_paired_is_narrower_than_independent_when_the_pairs_agree():
    # most seeds end alike under A and B: pairing is what makes the difference measurable
    paired = newcombe_paired(both=150, a_only=10, b_only=30, neither=210)
    independent = newcombe(160, 400, 180, 400)
    assert paired[0] == pytest.approx(independent[0])
    assert paired[2] - paired[1] < 0.6 * (independent[2] - independent[1]) and paired[1] > 0 > independent[1]
    with pytest.raises(ValueError, match="0 or more"):
        newcombe_paired(-1, 2, 3, 4)
    assert all(math.isnan(x) for x in newcombe_paired(0, 0, 0, 0))


@pytest.mark.parametrize("values", [[3, 5, 4, 9, 12], [30, 28, 41, 35, 33, 29, 40, 38], [0.1, 0.05, 0.2]])
def test_t_interval_matches_scipy_and_statsmodels(values):
    mean, low, high, n = t_interval(values)
    expected = DescrStatsW(np.array(values, dtype=float)).tconfint_mean(alpha=0.05)
    assert (low, high) == pytest.approx(expected, rel=1e-12)
    assert (low, high) == pytest.approx(scipy_stats.t.interval(0.95, n - 1, loc=np.mean(values),
                                                               scale=scipy_stats.sem(values)), rel=1e-12)
    assert mean == pytest.approx(np.mean(values)) and n == len(values)


def test_t_interval_stays_in_range_and_needs_two_values():
    mean, low, high, n = t_interval([0, 0, 0, 40, 1], bounds=(0, math.inf))   # a skewed margin: the plain t interval dips below 0
    assert scipy_stats.t.interval(0.95, 4, loc=mean, scale=scipy_stats.sem([0, 0, 0, 40, 1]))[0] < 0
    assert low == 0 < mean < high
    assert t_interval([5], bounds=(0, math.inf))[1:3] == (pytest.approx(math.nan, nan_ok=True),) * 2
    assert t_interval([np.nan, 4, 6])[3] == 2


@pytest.mark.parametrize("a, b", [([10, 12, 9, 14, 11], [15, 19, 13, 22, 16, 18]), ([1.0, 2, 3], [2.5, 2.5, 2.6, 9])])
def test_welch_matches_statsmodels_and_scipy(a, b):
    d, low, high, n = welch(a, b)
    expected = CompareMeans.from_data(np.array(b, float), np.array(a, float)).tconfint_diff(alpha=0.05, usevar="unequal")
    assert (low, high) == pytest.approx(expected, rel=1e-10)
    ci = scipy_stats.ttest_ind(b, a, equal_var=False).confidence_interval(0.95)
    assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert d == pytest.approx(np.mean(b) - np.mean(a)) and n == len(a) + len(b)


# --- group-sequential bounds -----------------------------------------------------------------
def test_spending_bounds_match_published_values():
    # 5 equally spaced looks, two-sided alpha 0.05 (Jennison & Turnbull 2000; R ldbounds / gsDesign)
    assert spending_bounds(5) == pytest.approx([4.8769, 3.3569, 2.6803, 2.2898, 2.0310], abs=2e-4)
    assert spending_bounds(5, spending="pocock") == pytest.approx([2.4380, 2.4268, 2.4101, 2.3966, 2.3859], abs=2e-4)
    assert spending_bounds(1) == pytest.approx([scipy_stats.norm.isf(0.025)])


@pytest.mark.parametrize("fractions, spending", [([1 / 3, 2 / 3, 1], "obrien-fleming"), ([0.25, 0.6, 1], "pocock")])
def test_spending_bounds_spend_their_alpha_by_scipys_multivariate_normal(fractions, spending):
    # the chance of crossing no bound through look k is 1 - alpha spent by then; Z_j, Z_k correlate sqrt(t_j / t_k)
    bounds = spending_bounds(fractions, spending=spending)
    spent = alpha_spent(fractions, spending=spending)
    t = np.array(fractions)
    for k in range(1, len(t) + 1):
        cov = np.sqrt(np.minimum.outer(t[:k], t[:k]) / np.maximum.outer(t[:k], t[:k]))
        stay = scipy_stats.multivariate_normal.cdf(bounds[:k], mean=np.zeros(k), cov=cov, lower_limit=-bounds[:k],
                                                   abseps=1e-8, releps=1e-8, rng=np.random.default_rng(0))
        assert stay == pytest.approx(1 - spent[k - 1], abs=2e-5)


def test_sequential_test_keeps_its_error_where_looking_again_and_again_does_not():
    # 20,000 seeded runs with no difference: cumulative sums of 5 equal batches of standard normal scores
    rng = np.random.default_rng(7)
    steps = rng.standard_normal((20_000, 5))
    z = np.cumsum(steps, axis=1) / np.sqrt(np.arange(1, 6))
    sequential = (np.abs(z) >= spending_bounds(5)).any(axis=1).mean()
    naive = (np.abs(z) >= 1.96).any(axis=1).mean()
    assert abs(sequential - 0.05) < 0.006      # the planned 5%
    assert naive > 0.12                         # stopping at the first |z| >= 1.96: about 14%


def test_bad_spending_input_is_refused():
    with pytest.raises(ValueError, match="increase"):
        alpha_spent([0.5, 0.4])
    with pytest.raises(ValueError, match="spending"):
        alpha_spent([1.0], spending="haybittle")
    with pytest.raises(ValueError, match="alpha"):
        spending_bounds(3, alpha=5)


# --- coverage at small samples, by seeded simulation ----------------------------------------------
def _normal_interval(k, n):
    p = k / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


@pytest.mark.parametrize("n", [5, 10, 20])
def test_wilson_covers_near_its_nominal_rate_at_small_samples(n):
    rng = np.random.default_rng(n)
    probabilities = [0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9]
    wilson_hits, normal_hits = [], []
    for p in probabilities:
        draws = rng.binomial(n, p, size=3000)
        bounds = {k: wilson(int(k), n) for k in set(draws)}
        wilson_hits.append(np.mean([bounds[k][0] <= p <= bounds[k][1] for k in draws]))
        normal_hits.append(np.mean([_normal_interval(k, n)[0] <= p <= _normal_interval(k, n)[1] for k in draws]))
        assert 0 <= min(bounds.values())[0] and max(b[1] for b in bounds.values()) <= 1   # within the range
    assert np.mean(wilson_hits) >= 0.935 and min(wilson_hits) >= 0.90
    if n <= 10:
        assert np.mean(normal_hits) < 0.90      # the normal interval, for contrast, misses


@pytest.mark.parametrize("n", [5, 10])
def test_t_interval_covers_near_its_nominal_rate_at_small_samples(n):
    # game lengths and lead changes are right-skewed (skewness 0.5 to 1): gamma with shape 4 and 8
    rng = np.random.default_rng(100 + n)
    for shape in (4, 8):
        samples = rng.gamma(shape, 2.0, size=(3000, n))
        hits = np.mean([lo <= 2 * shape <= hi for _, lo, hi, _ in map(lambda x: t_interval(x, bounds=(0, math.inf)),
                                                                        samples)])
        se = samples.std(axis=1, ddof=1) / math.sqrt(n)
        normal = np.mean(np.abs(samples.mean(axis=1) - 2 * shape) <= 1.96 * se)
        assert hits >= 0.925 and normal < 0.915


def test_advantage_p1_wilson_of_part_wins_covers_near_its_nominal_rate():
    # a two-seat game: the first seat wins, loses or draws (0.5): Wilson on the sum is conservative
    rng = np.random.default_rng(11)
    for p_win, p_draw in [(0.5, 0.2), (0.3, 0.5), (0.7, 0.1)]:
        mean = p_win + p_draw / 2
        for n in (5, 10):
            outcomes = rng.choice([1.0, 0.5, 0.0], p=[p_win, p_draw, 1 - p_win - p_draw], size=(2000, n))
            hits = np.mean([lo <= mean <= hi for lo, hi in (wilson(row.sum(), n) for row in outcomes)])
            assert hits >= 0.93


def test_newcombe_paired_covers_near_its_nominal_rate_at_small_samples():
    # pairs of outcomes that agree most of the time (the same seed under A and B)
    rng = np.random.default_rng(5)
    cells = np.array([0.35, 0.05, 0.15, 0.45])             # both, A only, B only, neither
    truth = cells[2] - cells[1]
    for n in (10, 20, 40):
        tables = rng.multinomial(n, cells, size=2000)
        hits = np.mean([lo <= truth <= hi for _, lo, hi in (newcombe_paired(*t) for t in tables)])
        assert hits >= 0.93
