/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to sidecar.c and its tests: the fast JSON parse the loader tries
 * before jansson's (see sidecar.c).
 */
#ifndef SCHEDREPLAY_SIDECAR_LOCAL_H
#define SCHEDREPLAY_SIDECAR_LOCAL_H

#include <jansson.h>

/*
 * The tree json_load_file(@path, 0) gives, if the file is in the subset the
 * fast parse takes (sidecar.c); NULL otherwise (then only jansson decides
 * whether and how the file is valid JSON).
 */
json_t *sidecar_json_fast(const char *path);

#endif
