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

#define PF_0(n, a, b, c, d, sf, why) [FEAT_##n] = a,
#define PF_1(n, a, b, c, d, sf, why) [FEAT_##n] = b,
#define PF_2(n, a, b, c, d, sf, why) [FEAT_##n] = c,
#define PF_3(n, a, b, c, d, sf, why) [FEAT_##n] = d,
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
	unsigned int sf;             /* SF() mask: toggleable per column */
} feat_info[] = {
#define F(n, a, b, c, d, sf, why) { #n, why, sf },
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

static const struct {
	const char *counter;
	const char *name[4];         /* by column */
} func_names[] = {
#define N(ctr, a, b, c, d, why) { #ctr, { a, b, c, d } },
	MODEL_PROFILE_FUNC_NAMES(N)
#undef N
};

_Static_assert(NR_PROFILES == sizeof(func_names[0].name) / sizeof(func_names[0].name[0]),
	       "a kernel name per profile column");

_Static_assert(NR_MODEL_FEATS <= 64, "struct model_sched_features holds 64 features");

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
			*why = "kernel before 6.5: CFS, the 6.1 fair-class code as far as the model goes";
		return model_profile_find("6.1");
	}
	if (major == 6 && minor == 5) {
		if (why)
			*why = "kernel 6.5: CFS, before the tg->load_avg rate limit";
		return model_profile_find("6.5");
	}
	if (major == 6 && minor <= 12) {
		if (why)
			*why = (minor < 12) ? "kernel 6.6-6.11: EEVDF, the nearest profile (it has DELAY_DEQUEUE, which 6.6-6.11 lack)"
					    : "kernel 6.12: EEVDF, 6.12.117 with backports";
		return model_profile_find("6.12");
	}
	if (why)
		*why = "kernel 6.13 or later: 6.12.117 + 6.17/6.18 protection, lag clamp, reweight, 6.18.33 wakeup check";
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

const char *model_profile_func_name(const struct model_profile *p, const char *func)
{
	for (size_t i = 0; i < sizeof(func_names) / sizeof(func_names[0]); i++)
		if (!strcmp(func_names[i].counter, func))
			return func_names[i].name[p->column];
	return func;
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

bool model_profile_setting_next_toggled(const struct model_profile *p,
					const struct model_sched_features *f, unsigned int *iter,
					struct model_setting *out, bool *toggled)
{
	unsigned int i = *iter;             /* features first, as in setting_next() */

	if (toggled)
		*toggled = false;
	if (!model_profile_setting_next(p, iter, out))
		return false;
	if (f && i < NR_MODEL_FEATS && ((f->set | f->clear) >> i & 1)) {
		/* as apply_sched_features() (model/core.c) leaves the model's copy */
		out->value = f->set >> i & 1;
		if (toggled)
			*toggled = true;
	}
	return true;
}

void model_profile_print(const struct model_profile *p, FILE *out)
{
	model_profile_print_toggled(p, NULL, out);
}

void model_profile_print_toggled(const struct model_profile *p,
				 const struct model_sched_features *f, FILE *out)
{
	struct model_setting s;
	unsigned int it = 0;
	bool toggled;

	while (model_profile_setting_next_toggled(p, f, &it, &s, &toggled)) {
		/* the column's own value: @p may be a model's copy, toggled already */
		if (s.is_feature && toggled)
			fprintf(out, "  %-28s %s  # toggled (profile %s: %s); %s\n", s.name,
				s.value ? "on " : "off", p->name,
				profiles[p->column].feat[it - 1] ? "on" : "off", s.reason);
		else if (s.is_feature)
			fprintf(out, "  %-28s %s  # %s\n", s.name, s.value ? "on " : "off", s.reason);
		else
			fprintf(out, "  %-28s %lld%s%s  # %s\n", s.name, (long long)s.value,
				*s.unit ? " " : "", s.unit, s.reason);
	}
}

/* ---- debugfs-style feature toggles ------------------------------------ */

/* "NO_RUN_TO_PARITY NEXT_BUDDY": @f's toggles in table order, "" if none */
static void sched_features_format(const struct model_sched_features *f, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (unsigned int i = 0; i < NR_MODEL_FEATS && off < len; i++)
		if ((f->set | f->clear) >> i & 1) {
			int n = snprintf(buf + off, len - off, "%s%s%s", off ? " " : "",
					 (f->clear >> i & 1) ? "NO_" : "", feat_info[i].name);
			if (n < 0)
				break;
			off += (size_t)n;
		}
}

/* The toggleable features' names (the SF() ones), as a toggle setting each would print them */
static void toggleable_names(char *buf, size_t len)
{
	struct model_sched_features all = { 0 };

	for (unsigned int i = 0; i < NR_MODEL_FEATS; i++)
		if (feat_info[i].sf)
			all.set |= 1ull << i;
	sched_features_format(&all, buf, len);
}

int model_sched_feature_parse(struct model_sched_features *f, const char *spec,
			      char *msg, size_t len)
{
	const char *name = spec;
	bool on = true;
	char names[600];

	if (!strncmp(name, "NO_", 3)) {
		name += 3;
		on = false;
	}
	for (unsigned int i = 0; i < NR_MODEL_FEATS; i++) {
		if (strcmp(feat_info[i].name, name))
			continue;
		if (!feat_info[i].sf) {
			toggleable_names(names, sizeof(names));
			snprintf(msg, len, "sched feature '%s' is a model switch, not a toggleable "
				 "features.h entry (toggleable: %s)", name, names);
			return -1;
		}
		if (on) {
			f->set |= 1ull << i;
			f->clear &= ~(1ull << i);
		} else {
			f->clear |= 1ull << i;
			f->set &= ~(1ull << i);
		}
		return 0;
	}
	toggleable_names(names, sizeof(names));
	/* a control byte or one not ASCII is shown by value, not written raw */
	for (size_t i = 0; spec[i]; i++) {
		unsigned char c = (unsigned char)spec[i];

		if (c >= 0x20 && c < 0x7f)    /* printable ASCII */
			continue;
		snprintf(msg, len, "unknown sched feature '%.*s...': byte 0x%02x after it is in "
			 "no feature name (toggleable: %s; NO_NAME clears)", (int)i, spec, c, names);
		return -1;
	}
	snprintf(msg, len, "unknown sched feature '%s' (toggleable: %s; NO_NAME clears)", spec,
		 names);
	return -1;
}

const char *model_sched_features_missing(const struct model_profile *p,
					 const struct model_sched_features *f)
{
	for (unsigned int i = 0; i < NR_MODEL_FEATS; i++)
		if (((f->set | f->clear) >> i & 1) && !(feat_info[i].sf >> p->column & 1))
			return feat_info[i].name;
	return NULL;
}

int model_sched_features_valid(const struct model_sched_features *f, char *msg, size_t len)
{
	uint64_t any = f->set | f->clear;

	for (unsigned int i = 0; i < 64; i++) {
		if (!(any >> i & 1))
			continue;
		if (i >= NR_MODEL_FEATS) {
			snprintf(msg, len, "sched_features bit %u names no feature (%u are known)",
				 i, (unsigned int)NR_MODEL_FEATS);
			return -1;
		}
		if (!feat_info[i].sf) {
			snprintf(msg, len, "sched_features bit %u is %s, a model switch, not a "
				 "toggleable features.h entry", i, feat_info[i].name);
			return -1;
		}
		if (f->set >> i & f->clear >> i & 1) {
			snprintf(msg, len, "sched_features both sets and clears %s",
				 feat_info[i].name);
			return -1;
		}
	}
	return 0;
}

int model_sched_features_check(const struct model_profile *p,
			       const struct model_sched_features *f, char *msg, size_t len)
{
	const char *name = model_sched_features_missing(p, f);

	if (name) {
		snprintf(msg, len, "sched feature '%s' does not exist in profile %s's "
			 "kernel (kernel/sched/features.h); see 'schedreplay variants "
			 "--sched-features'", name, p->name);
		return -1;
	}
	return 0;
}

void model_sched_features_merge(struct model_sched_features *f,
				const struct model_sched_features *add)
{
	f->set = (f->set & ~add->clear) | add->set;
	f->clear = (f->clear & ~add->set) | add->clear;
}


const char *model_sched_features_text(const struct model_sched_features *f, char *buf,
				      size_t len)
{
	if (!f || !(f->set | f->clear) || !len)
		return NULL;
	sched_features_format(f, buf, len);
	return buf;
}

void model_sched_features_list(FILE *out)
{
	fprintf(out, "%-24s", "feature");
	for (unsigned int c = 0; c < NR_PROFILES; c++)
		fprintf(out, " %-5s", profiles[c].name);  /* names are at most 5 wide */
	fputs("  (defaults; '-': not in that kernel's features.h)\n", out);
	for (unsigned int i = 0; i < NR_MODEL_FEATS; i++) {
		if (!feat_info[i].sf)
			continue;
		fprintf(out, "%-24s", feat_info[i].name);
		for (unsigned int c = 0; c < NR_PROFILES; c++)
			fprintf(out, c + 1 < NR_PROFILES ? " %-5s" : " %s",
				!(feat_info[i].sf >> c & 1) ? "-" : profiles[c].feat[i] ? "on" : "off");
		fputc('\n', out);
	}
}
