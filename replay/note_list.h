/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Notes: what a stage had to approximate, counted per note id, one sentence
 * per id.  The workload's (workload_local.h, wl_note_at()) and a run's
 * (sim_local.h, replay_note_next()) are both an array of counts indexed by
 * the id and an array of sentences; note_next() walks either.
 */
#ifndef SCHEDREPLAY_NOTE_LIST_H
#define SCHEDREPLAY_NOTE_LIST_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The next of the @nr notes @counts (@texts: their sentences) with a
 * non-zero count, from *@iter (0 to start): its sentence and count, and
 * true; false when none is left.
 */
static inline bool note_next(const uint64_t *counts, const char *const *texts, unsigned int nr,
			     unsigned int *iter, const char **text, uint64_t *count)
{
	while (*iter < nr) {
		unsigned int i = (*iter)++;

		if (counts[i]) {
			*text = texts[i];
			*count = counts[i];
			return true;
		}
	}
	return false;
}

#endif /* SCHEDREPLAY_NOTE_LIST_H */
