/* student_t.h - the two-sided 95 % quantile of Student's t and Welch's
 * interval of a difference of two means: the noise test compare's
 * verdicts and a scaling step's knee are both made with. */
#ifndef IOCHAR_UTIL_STUDENT_T_H
#define IOCHAR_UTIL_STUDENT_T_H

/* The two-sided 95 % quantile (0.975) of Student's t with df degrees of
 * freedom: the table for 1..30, 40, 60, 120 and the normal's 1.96 beyond,
 * interpolated in 1/df between tabled values (on the wide side). NaN when
 * df < 1. */
double student_t975(double df);

/* Welch's 95 % half-width of mean_b - mean_a from two samples of sizes
 * na, nb (>= 2 each) and sample standard deviations sa, sb; *df gets
 * Welch-Satterthwaite's degrees of freedom (may be NULL). NaN when either
 * sample has fewer than 2 values. 0 when both spreads are 0. */
double student_welch_half(double sa, unsigned na, double sb, unsigned nb,
			  double *df);

#endif
