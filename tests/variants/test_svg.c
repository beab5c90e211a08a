// SPDX-License-Identifier: GPL-2.0
/*
 * The latency CDF plot: well-formed XML (checked here by a small parser, and
 * by python3's XML parser in a second ctest when python3 is installed),
 * one polyline per non-empty curve, escaped labels, bounded size for big
 * curves, the axis spanning the data's decades, legend percentiles.
 *
 * usage: test_variants_svg [OUT.svg]   (also writes the plot there)
 */
#include <stdlib.h>

#include <schedreplay/stats.h>
#include <schedreplay/whatif.h>

#include "check.h"

/* Well-formedness of the subset of XML the writer emits. */
static int xml_check(const char *s, char *why, size_t why_size)
{
	const char *stack[64];
	size_t lens[64];
	int depth = 0, roots = 0;

	while (*s) {
		if (*s == '<') {
			if (!strncmp(s, "<?", 2)) {
				s = strstr(s, "?>");
				if (!s)
					return snprintf(why, why_size, "unterminated <?"), -1;
				s += 2;
				continue;
			}
			if (s[1] == '/') {
				const char *name = s + 2;
				size_t n = strcspn(name, ">");

				if (!name[n] || depth == 0 || n != lens[depth - 1] ||
				    strncmp(name, stack[depth - 1], n))
					return snprintf(why, why_size, "bad close tag near '%.30s'", s),
					       -1;
				depth--;
				s = name + n + 1;
				continue;
			}
			{
				const char *name = s + 1;
				size_t n = strcspn(name, " \t\n/>");
				const char *p = name + n;

				if (n == 0)
					return snprintf(why, why_size, "empty tag name"), -1;
				/* attributes: name="value", no '<' or raw '&' inside */
				for (;;) {
					while (*p == ' ' || *p == '\n' || *p == '\t')
						p++;
					if (*p == '>' || !strncmp(p, "/>", 2))
						break;
					p += strcspn(p, "= >");
					if (*p != '=' || p[1] != '"')
						return snprintf(why, why_size, "attribute without =\" near '%.30s'", p), -1;
					p += 2;
					while (*p && *p != '"') {
						if (*p == '<')
							return snprintf(why, why_size, "'<' in attribute"), -1;
						if (*p == '&' && !strchr(p, ';'))
							return snprintf(why, why_size, "raw '&' in attribute"), -1;
						p++;
					}
					if (!*p)
						return snprintf(why, why_size, "unterminated attribute"), -1;
					p++;
				}
				if (depth == 0)
					roots++;
				if (*p == '>') {
					if (depth == 64)
						return snprintf(why, why_size, "too deep"), -1;
					stack[depth] = name;
					lens[depth++] = n;
					s = p + 1;
				} else {
					s = p + 2;
				}
			}
		} else if (*s == '&') {
			size_t n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyz#0123456789");

			if (n == 0 || s[1 + n] != ';')
				return snprintf(why, why_size, "raw '&' in text near '%.20s'", s), -1;
			s += n + 2;
		} else {
			if (depth == 0 && *s != '\n' && *s != ' ')
				return snprintf(why, why_size, "text outside the root element"), -1;
			s++;
		}
	}
	if (depth != 0)
		return snprintf(why, why_size, "%d unclosed elements", depth), -1;
	if (roots != 1)
		return snprintf(why, why_size, "%d root elements", roots), -1;
	return 0;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static char *render(const struct svg_cdf_curve *c, size_t n, const char *title)
{
	struct sr_error err = { 0 };
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	CHECK(f != NULL);
	if (!f)
		return NULL;
	CHECK_EQ_S(svg_cdf_write(f, title, c, n, &err), 0);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	enum { N_BIG = 1000000 };
	uint64_t small[] = { 3000, 5000, 12000, 12000, 40000, 4000000 }; /* ns */
	uint64_t *big = malloc(N_BIG * sizeof(*big));
	char why[128] = "";
	char *svg;

	if (!big)
		return 1;
	/* 1 µs .. ~1 s, log-uniform and sorted */
	for (size_t i = 0; i < N_BIG; i++)
		big[i] = (uint64_t)(1000.0 * pow(10, 6.0 * (double)i / N_BIG));

	{
		struct sr_hist h, hbig;
		struct svg_cdf_curve c[] = {
			{ .label = "measured", .sorted_ns = small, .n = 6, .measured = true },
			{ .label = "base", .sorted_ns = small, .n = 5 },
			{ .label = "a<b>&\"c\"", .sorted_ns = big, .n = N_BIG },
			{ .label = "empty", .sorted_ns = NULL, .n = 0 },
			{ .label = "hist", .hist = &h },
			{ .label = "hist-big", .hist = &hbig },
		};

		sr_hist_init(&h);
		sr_hist_init(&hbig);
		for (size_t i = 0; i < 6; i++)
			CHECK_EQ_S(sr_hist_add(&h, small[i]), 0);
		for (size_t i = 0; i < N_BIG; i += 10)
			CHECK_EQ_S(sr_hist_add(&hbig, big[i]), 0);
		svg = render(c, 6, "what-if: make -j & probe <latency>");
		/* a histogram's legend agrees with stats.h's percentiles */
		CHECK_EQ_U(sr_hist_percentile(&h, 50), 12000);
		CHECK_EQ_U(sr_hist_percentile(&h, 99), 4000000);
		sr_hist_release(&h);
		sr_hist_release(&hbig);
		CHECK(svg != NULL);
		if (svg) {
			CHECK_EQ_S(xml_check(svg, why, sizeof(why)), 0);
			if (why[0])
				fprintf(stderr, "  XML: %s\n", why);
			CHECK_EQ_U(count(svg, "<polyline"), 5);
			/* sorted samples and their histogram: the same legend */
			CHECK_EQ_U(count(svg, "12 µs / 4 ms  (n=6)"), 2);
			CHECK_CONTAINS(svg, "(n=100000)");
			CHECK_CONTAINS(svg, "a&lt;b&gt;&amp;&quot;c&quot;");
			CHECK_CONTAINS(svg, "make -j &amp; probe &lt;latency&gt;");
			CHECK_CONTAINS(svg, "stroke-dasharray=\"6,3\"");   /* measured */
			CHECK_CONTAINS(svg, "no samples");
			/* legend: nearest-rank p50 of {3,5,12,12,40,4000} µs is 12 µs, p99 4 ms */
			CHECK_CONTAINS(svg, "12 µs / 4 ms  (n=6)");
			/* base: 5 samples, p50 = 3rd = 12 µs, p99 = 5th = 40 µs */
			CHECK_CONTAINS(svg, "12 µs / 40 µs  (n=5)");
			/* the axis spans 1 µs .. 1 s */
			CHECK_CONTAINS(svg, ">1 µs</text>");
			CHECK_CONTAINS(svg, ">1 s</text>");
			CHECK(!strstr(svg, ">0.1 µs</text>"));
			/* a million samples stay a small file (<= 2 points per pixel) */
			CHECK(strlen(svg) < 90000);
			if (argc > 1) {
				FILE *f = fopen(argv[1], "w");

				CHECK(f && fputs(svg, f) >= 0 && fclose(f) == 0);
			}
		}
		free(svg);
	}
	/* no data at all: still a valid plot */
	{
		struct svg_cdf_curve c[] = { { .label = "base", .sorted_ns = NULL, .n = 0 } };

		svg = render(c, 1, "empty");
		CHECK(svg && xml_check(svg, why, sizeof(why)) == 0);
		CHECK(svg && count(svg, "<polyline") == 0);
		free(svg);
	}
	/* many curves: the legend grows the picture, it does not overflow */
	{
		struct svg_cdf_curve c[20];

		for (int i = 0; i < 20; i++)
			c[i] = (struct svg_cdf_curve){ .label = "v", .sorted_ns = small, .n = 6 };
		svg = render(c, 20, "many");
		CHECK(svg && xml_check(svg, why, sizeof(why)) == 0);
		CHECK(svg && strstr(svg, "height=\"754\""));
		free(svg);
	}
	free(big);
	return check_done("variants_svg");
}
