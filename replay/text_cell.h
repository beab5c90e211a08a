/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cells of the replay's text report (replay_text.c), here so that a test
 * can hold their width.
 */
#ifndef SCHEDREPLAY_TEXT_CELL_H
#define SCHEDREPLAY_TEXT_CELL_H

#include <stdio.h>

/*
 * A signed percentage in a cell of @width characters (a space, the figure,
 * '%'): with one decimal where that fits, else in exponent notation, so that
 * an error of millions of per cent keeps the columns aligned.
 */
void replay_text_pct_cell(FILE *out, int width, double pct);

#endif /* SCHEDREPLAY_TEXT_CELL_H */
