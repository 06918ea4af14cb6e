"""Tests of pairstats (run by scripts/test.sh: python3 -m unittest)."""
import math
import random
import unittest

import pairstats


class MedianCi(unittest.TestCase):
    def test_order_statistics_of_the_sign_test(self):
        # the ranks a sign-test table gives at >= 90 %: n=10 -> 2nd..9th
        # (97.9 %), n=20 -> 6th..15th (95.9 %); n=16 -> 5th..12th (92.3 %)
        for n, lo, hi, cover in ((10, 2, 9, 0.9785), (16, 5, 12, 0.9232),
                                 (20, 6, 15, 0.9586)):
            ci = pairstats.median_ci(range(n, 0, -1))  # order does not matter
            self.assertEqual((ci[0], ci[1]), (lo, hi))
            self.assertAlmostEqual(ci[2], cover, places=4)

    def test_too_few_values_give_the_range_and_say_so(self):
        ci = pairstats.median_ci([3.0, 1.0, 2.0, 4.0])
        self.assertEqual((ci[0], ci[1]), (1.0, 4.0))
        self.assertLess(ci[2], 0.90)
        self.assertIsNone(pairstats.median_ci([None]))

    def test_coverage_holds_for_a_skewed_distribution(self):
        # exponential rounds, true median ln 2: over 4000 trials of 10
        # rounds the interval must hold it at least as often as it says
        rng = random.Random(7)
        trials, held, cover = 4000, 0, None
        for _ in range(trials):
            ci = pairstats.median_ci([rng.expovariate(1.0) for _ in range(10)])
            held += ci[0] <= math.log(2) <= ci[1]
            cover = ci[2]
        # 3 binomial standard errors below the stated coverage
        se = math.sqrt(cover * (1 - cover) / trials)
        self.assertGreaterEqual(held / trials, cover - 3 * se)


class Decided(unittest.TestCase):
    def test_a_bound_inside_the_interval_is_undecided(self):
        self.assertFalse(pairstats.decided((0.97, 1.02, 0.9), lo_ok=0.98))
        self.assertTrue(pairstats.decided((0.99, 1.02, 0.9), lo_ok=0.98))
        self.assertTrue(pairstats.decided((0.90, 0.97, 0.9), lo_ok=0.98))  # a decided miss
        self.assertTrue(pairstats.decided((0.96, 1.04, 0.9), lo_ok=0.95, hi_ok=1.05))
        self.assertFalse(pairstats.decided((0.96, 1.06, 0.9), lo_ok=0.95, hi_ok=1.05))
        self.assertFalse(pairstats.decided(None, lo_ok=0.98))


if __name__ == "__main__":
    unittest.main()
