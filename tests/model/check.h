/* SPDX-License-Identifier: GPL-2.0 */
/* The model tests use the shared assertions. */
#include "../common/check.h"
