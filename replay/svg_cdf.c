// SPDX-License-Identifier: GPL-2.0
/*
 * Latency CDF plots as self-contained SVG: no script, no external font, no
 * stylesheet; every browser renders them, and they diff as text.
 *
 * x is the latency in µs on a log10 axis spanning whole decades around the
 * data; y is the cumulative fraction of wakeups (0..1).  Each curve is a
 * step function drawn as one polyline, thinned to at most two points per
 * horizontal pixel (a 10^6-sample curve stays a few kB).  The measured curve
 * is black and dashed; the legend gives each curve's p50 and p99 (nearest
 * rank: the smallest sample with at least p of the samples at or below it).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>
#include <schedreplay/stats.h>
#include <schedreplay/whatif.h>

/* plot geometry, px */
#define W        960
#define H        540
#define PLOT_X0  70
#define PLOT_Y0  40
#define PLOT_W   600
#define PLOT_H   430
#define LEGEND_X (PLOT_X0 + PLOT_W + 20)

/* Distinguishable on white, in order (Tableau 10). */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#d62728",
};
#define NR_COLOURS (sizeof(palette) / sizeof(palette[0]))

/*
 * Text for an XML 1.0 document declared UTF-8: & < > " ' as entities, control
 * characters (not allowed) and bytes that are not UTF-8 (an invalid document)
 * as \n, \xNN (cli_esc_xml()).  A comm is any 16 bytes.
 */
static void put_escaped(FILE *out, const char *s)
{
	fputs(cli_esc_xml(s ? s : ""), out);
}

/* Three significant digits in the unit that keeps the mantissa below 1000. */
static void format_us(char *buf, size_t size, double us)
{
	if (us >= 999.5e3)
		snprintf(buf, size, "%.3g s", us / 1e6);
	else if (us >= 999.5)
		snprintf(buf, size, "%.3g ms", us / 1e3);
	else
		snprintf(buf, size, "%.3g µs", us);
}

struct axis {
	int dec_lo, dec_hi;   /* log10(µs) of the axis ends */
};

static double x_of(const struct axis *a, double us)
{
	double l;

	if (us <= 0)
		return PLOT_X0;
	l = (log10(us) - a->dec_lo) / (a->dec_hi - a->dec_lo);
	if (l < 0)
		l = 0;
	if (l > 1)
		l = 1;
	return PLOT_X0 + l * PLOT_W;
}

static double y_of(double frac)
{
	return PLOT_Y0 + (1 - frac) * PLOT_H;
}

static void draw_axes(FILE *out, const struct axis *a)
{
	char label[32];

	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		     "stroke=\"#444\" stroke-width=\"1\"/>\n", PLOT_X0, PLOT_Y0, PLOT_W, PLOT_H);
	for (int d = a->dec_lo; d <= a->dec_hi; d++) {
		double us = pow(10, d), x = x_of(a, us);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#bbb\" "
			     "stroke-width=\"1\"/>\n", x, PLOT_Y0, x, PLOT_Y0 + PLOT_H);
		format_us(label, sizeof(label), us);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x,
			PLOT_Y0 + PLOT_H + 18, label);
		for (int m = 2; m <= 9 && d < a->dec_hi; m++) {
			double xm = x_of(a, m * us);

			fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				     "stroke=\"#eee\" stroke-width=\"1\"/>\n",
				xm, PLOT_Y0, xm, PLOT_Y0 + PLOT_H);
		}
	}
	for (int i = 0; i <= 10; i++) {
		double f = i / 10.0, y = y_of(f);

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
			     "stroke-width=\"1\"/>\n", PLOT_X0, y, PLOT_X0 + PLOT_W, y,
			i == 5 ? "#999" : "#eee");
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n",
			PLOT_X0 - 6, y + 4, f);
	}
	/* the tail: p99 */
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#999\" "
		     "stroke-dasharray=\"2,3\" stroke-width=\"1\"/>\n"
		     "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" fill=\"#777\">p99</text>\n",
		PLOT_X0, y_of(0.99), PLOT_X0 + PLOT_W, y_of(0.99), PLOT_X0 + 4, y_of(0.99) + 11);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">wakeup latency (log scale)</text>\n",
		PLOT_X0 + PLOT_W / 2, PLOT_Y0 + PLOT_H + 40);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
		     "transform=\"rotate(-90 %d %d)\">fraction of wakeups &#8804; x</text>\n",
		18, PLOT_Y0 + PLOT_H / 2, 18, PLOT_Y0 + PLOT_H / 2);
}

/*
 * A curve as steps: value[i] (ns, ascending) reached cumulative count cum[i]
 * of total.  Sorted samples are their own steps (cum = i + 1); a histogram's
 * non-empty buckets are steps at their midpoints.
 */
struct steps {
	const uint64_t *sorted;   /* samples, or NULL */
	uint64_t *value, *cum;    /* histogram steps (owned) */
	size_t n;
	uint64_t total;
};

static uint64_t step_value(const struct steps *s, size_t i)
{
	return s->sorted ? s->sorted[i] : s->value[i];
}

static uint64_t step_cum(const struct steps *s, size_t i)
{
	return s->sorted ? i + 1 : s->cum[i];
}

/*
 * The bucket layout of stats.h: values below SR_HIST_SUB are exact; group
 * g >= 1 covers [SR_HIST_SUB << (g - 1), SR_HIST_SUB << g) in SR_HIST_SUB
 * buckets of width 1 << (g - 1).
 */
static int steps_from_hist(struct steps *s, const struct sr_hist *h)
{
	size_t n = 0, pos = 0;

	memset(s, 0, sizeof(*s));
	sr_hist_settle(h);
	s->value = malloc(SR_HIST_GROUPS * SR_HIST_SUB * sizeof(uint64_t));
	s->cum = malloc(SR_HIST_GROUPS * SR_HIST_SUB * sizeof(uint64_t));
	if (!s->value || !s->cum) {
		free(s->value);
		free(s->cum);
		return -1;
	}
	for (struct sr_hist_bucket bk; sr_hist_next_bucket(h, &pos, &bk);) {
		uint64_t mid = bk.lo + (bk.hi - bk.lo + 1) / 2;   /* as sr_hist_percentile() */

		/* the exact extremes, as the percentiles of stats.h do */
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		s->total += bk.count;
		s->value[n] = mid;
		s->cum[n++] = s->total;
	}
	s->n = n;
	return 0;
}

static void draw_curve(FILE *out, const struct axis *a, const struct steps *c,
		       const char *colour, bool measured)
{
	double last_x = -1, last_y = y_of(0);
	int col = 0;

	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"",
		colour, measured ? "2.5" : "1.6", measured ? " stroke-dasharray=\"6,3\"" : "");
	for (size_t i = 0; i < c->n; i++) {
		double x = x_of(a, step_value(c, i) / 1000.0);
		double y = y_of((double)step_cum(c, i) / (double)c->total);

		/*
		 * Within one half-pixel column only the last step matters: it
		 * carries the column's rise to its cumulative fraction.
		 */
		if (i + 1 < c->n &&
		    (long)(2 * x_of(a, step_value(c, i + 1) / 1000.0)) == (long)(2 * x))
			continue;
		if (last_x < 0) {
			fprintf(out, "%.1f,%.1f", x, y_of(0));
		} else if (x - last_x >= 0.05) {
			fprintf(out, " %.1f,%.1f", x, last_y);
		}
		fprintf(out, " %.1f,%.1f", x, y);
		last_x = x;
		last_y = y;
		if (++col % 8 == 0)
			fputc('\n', out);
	}
	fprintf(out, "\"/>\n");
}

/* The smallest step value with at least p of the total at or below it. */
static uint64_t steps_percentile(const struct steps *c, double p)
{
	uint64_t rank = (uint64_t)ceil(p * (double)c->total);

	if (rank < 1)
		rank = 1;
	for (size_t i = 0; i < c->n; i++)
		if (step_cum(c, i) >= rank)
			return step_value(c, i);
	return c->n ? step_value(c, c->n - 1) : 0;
}

int svg_cdf_write(FILE *out, const char *title, const struct svg_cdf_curve *curves,
		  size_t nr_curves, struct sr_error *err)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	struct steps *st = calloc(nr_curves ? nr_curves : 1, sizeof(*st));
	struct axis a;
	size_t colour = 0;
	int height = H, ret = 0;

	if (!st) {
		sr_error_set(err, ENOMEM, "SVG: out of memory");
		return -1;
	}
	for (size_t i = 0; i < nr_curves; i++) {
		const struct svg_cdf_curve *c = &curves[i];

		if (c->hist) {
			if (steps_from_hist(&st[i], c->hist) < 0) {
				sr_error_set(err, ENOMEM, "SVG: out of memory");
				ret = -1;
				goto out;
			}
		} else {
			st[i].sorted = c->sorted_ns;
			st[i].n = c->sorted_ns ? c->n : 0;
			st[i].total = st[i].n;
		}
		for (size_t k = 0; k < st[i].n; k++) {
			if (step_value(&st[i], k) > 0) {
				if (step_value(&st[i], k) < lo)
					lo = step_value(&st[i], k);
				break;
			}
		}
		if (st[i].n && step_value(&st[i], st[i].n - 1) > hi)
			hi = step_value(&st[i], st[i].n - 1);
	}
	/* the legend grows downwards; the plot keeps its size */
	if (PLOT_Y0 + 24 + (int)nr_curves * 34 + 10 > height)
		height = PLOT_Y0 + 24 + (int)nr_curves * 34 + 10;
	if (hi == 0) {
		a.dec_lo = 0;
		a.dec_hi = 4;
	} else {
		a.dec_lo = (int)floor(log10(lo / 1000.0));
		a.dec_hi = (int)ceil(log10(hi / 1000.0));
		if (a.dec_lo < -2)
			a.dec_lo = -2;      /* 10 ns: below any real wakeup path */
		if (a.dec_hi <= a.dec_lo)
			a.dec_hi = a.dec_lo + 1;
	}

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		W, height, W, height);
	fprintf(out, "<title>");
	put_escaped(out, title);
	fprintf(out, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	/* a long title is squeezed into the picture (~8.5 px per bold glyph) */
	if (title && strlen(title) * 8.5 > W - PLOT_X0 - 10)
		fprintf(out, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\" "
			     "textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\">", PLOT_X0,
			W - PLOT_X0 - 10);
	else
		fprintf(out, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">",
			PLOT_X0);
	put_escaped(out, title);
	fprintf(out, "</text>\n");
	draw_axes(out, &a);

	fprintf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">curve  (p50 / p99)</text>\n",
		LEGEND_X, PLOT_Y0 + 4);
	for (size_t i = 0; i < nr_curves; i++) {
		const struct svg_cdf_curve *c = &curves[i];
		const char *col = c->measured ? "#000000" : palette[colour++ % NR_COLOURS];
		int ly = PLOT_Y0 + 24 + (int)i * 34;

		if (st[i].n)
			draw_curve(out, &a, &st[i], col, c->measured);
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			     "stroke-width=\"%s\"%s/>\n", LEGEND_X, ly - 4, LEGEND_X + 24, ly - 4, col,
			c->measured ? "2.5" : "2", c->measured ? " stroke-dasharray=\"6,3\"" : "");
		fprintf(out, "<text x=\"%d\" y=\"%d\">", LEGEND_X + 30, ly);
		put_escaped(out, c->label);
		fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">",
			LEGEND_X + 30, ly + 14);
		if (st[i].n) {
			char p50[32], p99[32];

			format_us(p50, sizeof(p50), steps_percentile(&st[i], 0.50) / 1000.0);
			format_us(p99, sizeof(p99), steps_percentile(&st[i], 0.99) / 1000.0);
			fprintf(out, "%s / %s  (n=%llu)", p50, p99, (unsigned long long)st[i].total);
		} else {
			fprintf(out, "no samples");
		}
		fprintf(out, "</text>\n");
	}
	fprintf(out, "</svg>\n");
	if (ferror(out) || fflush(out) != 0) {
		sr_error_set(err, errno ? errno : EIO, "cannot write the SVG: %s",
			     strerror(errno ? errno : EIO));
		ret = -1;
	}
out:
	for (size_t i = 0; i < nr_curves; i++) {
		free(st[i].value);
		free(st[i].cum);
	}
	free(st);
	return ret;
}
