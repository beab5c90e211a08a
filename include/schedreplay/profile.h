/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel profiles: which kernel's fair scheduler the model reproduces.
 *
 * A profile is one column of the table in model/profile_table.h: scheduler
 * features in the style of kernel/sched/features.h (SCHED_FEAT-like flags,
 * plus behaviour switches for code that changed between versions) and
 * tunables, each line with the reason (commit, version) it has the value it
 * has.  Profiles are static and const; look them up by name or derive one
 * from a kernel release string (the trace's uname).  Every report prints the
 * effective settings (model_profile_print(), or iterate them for JSON).
 *
 * Over a profile, debugfs-style feature toggles (struct model_sched_features:
 * --sched-feature, a variant's "sched_features") set or clear the features
 * the model implements both ways (model_sched_feature_parse(),
 * model_sched_features_check(), model_sched_features_merge(): a later
 * toggle wins; model_sched_features_list()).
 */
#ifndef SCHEDREPLAY_PROFILE_H
#define SCHEDREPLAY_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct model_profile;

/* "6.1", "6.5", "6.12", "6.18"; NULL if unknown. */
const struct model_profile *model_profile_find(const char *name);
/* The capture kernel of this project's machines: "6.18". */
const struct model_profile *model_profile_default(void);
/*
 * The profile closest to kernel @release (e.g. "6.18.3-cloud-amd64"); *why
 * (if not NULL) gets a static sentence saying how it was chosen.  NULL if
 * @release cannot be parsed.
 */
const struct model_profile *model_profile_for_release(const char *release, const char **why);

unsigned int model_profile_count(void);
const struct model_profile *model_profile_at(unsigned int i);
const char *model_profile_name(const struct model_profile *p);
const char *model_profile_description(const struct model_profile *p);
/*
 * The name of kernel function @func (a model counter's name, e.g.
 * "newidle_balance") in @p's kernel: "sched_balance_newidle" since 6.10
 * (profile_table.h's MODEL_PROFILE_FUNC_NAMES); @func itself where the
 * kernel never renamed it.
 */
const char *model_profile_func_name(const struct model_profile *p, const char *func);

struct model_setting {
	const char *name;     /* e.g. "PLACE_LAG", "base_slice_ns" */
	bool is_feature;      /* feature flag (0/1) or tunable (value) */
	int64_t value;
	const char *unit;     /* "" for features, "ns", "ms", ... */
	const char *reason;   /* why it has this value in this profile */
};
/* Iterate the settings: *iter starts at 0; false when done. */
bool model_profile_setting_next(const struct model_profile *p, unsigned int *iter,
				struct model_setting *out);
/* One line per setting: "  NAME = value unit  # reason". */
void model_profile_print(const struct model_profile *p, FILE *out);

struct model_sched_features;
/*
 * The same, with the feature toggles @f (may be NULL: none) applied: the
 * effective values a run used.  *toggled (may be NULL) is set when @f sets
 * or clears the setting; model_profile_print_toggled() then marks its line
 * "(toggled; profile: on|off)".
 */
bool model_profile_setting_next_toggled(const struct model_profile *p,
					const struct model_sched_features *f, unsigned int *iter,
					struct model_setting *out, bool *toggled);
void model_profile_print_toggled(const struct model_profile *p,
				 const struct model_sched_features *f, FILE *out);

/*
 * Toggles of scheduler features over a profile's column, in the kernel's
 * debugfs syntax: "NAME" sets, "NO_NAME" clears (sched_feat_write() ->
 * sched_feat_set() in kernel/sched/debug.c), later toggles win.  Only the
 * features profile_table.h marks with SF() may be toggled, and only on the
 * profiles whose kernel's features.h has them.
 */
struct model_sched_features {
	uint64_t set, clear;          /* bit i: feature i of profile_table.h */
};
/*
 * Add "NAME" or "NO_NAME" to @f.  0, or -1 with a one-line message in @msg
 * (unknown name, or not toggleable: the message names the toggleable ones).
 */
int model_sched_feature_parse(struct model_sched_features *f, const char *spec,
			      char *msg, size_t len);
/*
 * 0 if @f could have come from model_sched_feature_parse(): every bit it
 * sets or clears is a toggleable (SF()) feature of profile_table.h, and no
 * feature is both set and cleared; else -1 and a one-line message (for
 * toggles given as bits: a plugin's variant).
 */
int model_sched_features_valid(const struct model_sched_features *f, char *msg, size_t len);
/* 0 if every toggle of @f exists in @p's kernel, else -1 and a message. */
int model_sched_features_check(const struct model_profile *p,
			       const struct model_sched_features *f, char *msg, size_t len);
/* The first feature (table order) @f toggles that @p's kernel lacks; NULL: none. */
const char *model_sched_features_missing(const struct model_profile *p,
					 const struct model_sched_features *f);
/* Fold @add into @f (@add's toggles win). */
void model_sched_features_merge(struct model_sched_features *f,
				const struct model_sched_features *add);
/* Room for every toggle's word: the buffer of model_sched_features_text(). */
#define MODEL_SCHED_FEATURES_TEXT 600
/*
 * What every output prints of the toggles: @buf (@len bytes) holding
 * their words in table order ("NO_RUN_TO_PARITY NEXT_BUDDY"), or NULL when
 * @f is NULL or toggles nothing (the outputs then print nothing, so that the
 * default output stays as it was).
 */
const char *model_sched_features_text(const struct model_sched_features *f, char *buf,
				      size_t len);
/* The toggleable features with each profile's default ("-": not in it). */
void model_sched_features_list(FILE *out);

#endif /* SCHEDREPLAY_PROFILE_H */
