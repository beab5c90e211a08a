// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel profiles: the columns of profile_table.h as const structs, lookup by
 * name or kernel release, and printing of the effective settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"

#define COL(col, a, b, c, d) ((col) == 0 ? (a) : (col) == 1 ? (b) : (col) == 2 ? (c) : (d))

#define PROFILE(col_, name_, desc_)                                            \
	{                                                                      \
		.name = name_,                                                 \
		.description = desc_,                                          \
		.column = col_,                                                \
		.feat = {                                                      \
			MODEL_PROFILE_FEATURES(PF_##col_)                      \
		},                                                             \
		MODEL_PROFILE_TUNABLES(PT_##col_)                              \
	}

#define PF_0(n, a, b, c, d, why) [FEAT_##n] = a,
#define PF_1(n, a, b, c, d, why) [FEAT_##n] = b,
#define PF_2(n, a, b, c, d, why) [FEAT_##n] = c,
#define PF_3(n, a, b, c, d, why) [FEAT_##n] = d,
#define PT_0(n, u, a, b, c, d, why) .n = a,
#define PT_1(n, u, a, b, c, d, why) .n = b,
#define PT_2(n, u, a, b, c, d, why) .n = c,
#define PT_3(n, u, a, b, c, d, why) .n = d,

static const struct model_profile profiles[] = {
	PROFILE(0, "6.1", "Linux 6.1.192 (Debian): CFS, no tg->load_avg rate limit, NI_RANDOM backport"),
	PROFILE(1, "6.5", "Linux v6.5-rc1 as the seed patches measured it: CFS, no tg->load_avg rate limit"),
	PROFILE(2, "6.12", "Linux 6.12.117 (Debian): EEVDF, DELAY_DEQUEUE, zero_vruntime, 1 ms tg rate limit"),
	PROFILE(3, "6.18", "Linux 6.18 (capture kernel): 6.12.117 plus the 6.17/6.18 slice protection (vprot), lag clamp and reweight"),
};

#define NR_PROFILES (sizeof(profiles) / sizeof(profiles[0]))

static const struct {
	const char *name;
	const char *reason;
} feat_info[] = {
#define F(n, a, b, c, d, why) { #n, why },
	MODEL_PROFILE_FEATURES(F)
#undef F
};

static const struct {
	const char *name;
	const char *unit;
	const char *reason;
	size_t offset;
} tunable_info[] = {
#define T(n, u, a, b, c, d, why) { #n, u, why, offsetof(struct model_profile, n) },
	MODEL_PROFILE_TUNABLES(T)
#undef T
};

#define NR_TUNABLES (sizeof(tunable_info) / sizeof(tunable_info[0]))

const struct model_profile *model_profile_find(const char *name)
{
	unsigned int i;

	if (!name)
		return NULL;
	for (i = 0; i < NR_PROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct model_profile *model_profile_default(void)
{
	return model_profile_find("6.18");
}

/*
 * Map a release to the profile with the same scheduler behaviour:
 * < 6.6 CFS ("6.1" up to 6.4 is the same code as far as the model goes,
 * "6.5" for 6.5); 6.6 .. 6.12 EEVDF ("6.12"); later ("6.18").
 */
const struct model_profile *model_profile_for_release(const char *release, const char **why)
{
	unsigned long major, minor;
	char *end;

	if (!release)
		return NULL;
	major = strtoul(release, &end, 10);
	if (end == release || *end != '.')
		return NULL;
	minor = strtoul(end + 1, &end, 10);
	if (major < 6 || (major == 6 && minor <= 4)) {
		if (why)
			*why = "kernel before 6.5: CFS; profile 6.1 (same fair-class code as far as the model goes)";
		return model_profile_find("6.1");
	}
	if (major == 6 && minor == 5) {
		if (why)
			*why = "kernel 6.5: CFS, before the tg->load_avg rate limit";
		return model_profile_find("6.5");
	}
	if (major == 6 && minor <= 12) {
		if (why)
			*why = (minor < 12) ? "kernel 6.6-6.11: EEVDF; nearest profile 6.12 (has DELAY_DEQUEUE, which 6.6-6.11 lack)"
					    : "kernel 6.12: EEVDF, profile 6.12 (6.12.117 with backports)";
		return model_profile_find("6.12");
	}
	if (why)
		*why = "kernel 6.13 or later: profile 6.18 (6.12.117 + 6.17/6.18 protection, lag clamp, reweight, 6.18.33 wakeup check)";
	return model_profile_find("6.18");
}

unsigned int model_profile_count(void)
{
	return NR_PROFILES;
}

const struct model_profile *model_profile_at(unsigned int i)
{
	return i < NR_PROFILES ? &profiles[i] : NULL;
}

const char *model_profile_name(const struct model_profile *p)
{
	return p->name;
}

const char *model_profile_description(const struct model_profile *p)
{
	return p->description;
}

bool model_profile_setting_next(const struct model_profile *p, unsigned int *iter,
				struct model_setting *out)
{
	unsigned int i = *iter;

	if (i < NR_MODEL_FEATS) {
		out->name = feat_info[i].name;
		out->is_feature = true;
		out->value = p->feat[i];
		out->unit = "";
		out->reason = feat_info[i].reason;
		(*iter)++;
		return true;
	}
	i -= NR_MODEL_FEATS;
	if (i < NR_TUNABLES) {
		out->name = tunable_info[i].name;
		out->is_feature = false;
		out->value = *(const int64_t *)((const char *)p + tunable_info[i].offset);
		out->unit = tunable_info[i].unit;
		out->reason = tunable_info[i].reason;
		(*iter)++;
		return true;
	}
	return false;
}

void model_profile_print(const struct model_profile *p, FILE *out)
{
	struct model_setting s;
	unsigned int it = 0;

	while (model_profile_setting_next(p, &it, &s)) {
		if (s.is_feature)
			fprintf(out, "  %-28s %s  # %s\n", s.name, s.value ? "on " : "off", s.reason);
		else
			fprintf(out, "  %-28s %lld%s%s  # %s\n", s.name, (long long)s.value,
				*s.unit ? " " : "", s.unit, s.reason);
	}
}
