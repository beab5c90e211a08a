/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libtracecmd and libtracefs, loaded with dlopen() by the paths that use them.
 *
 * `schedreplay report` and most other subcommands read traces with the native
 * reader and never call either library; linking them would make every launch
 * map them and their dependencies and run their constructors (0.83 -> 0.51 ms
 * of CPU per process start without them). Only capture (libtracefs, and
 * libtracecmd to read its file back) and `--reader libtracecmd` load them.
 *
 * Each table's members are typed from the libraries' own headers, so every
 * call through them is checked by the compiler as a direct call would be.
 * A load fails with one line naming the library and the Debian package that
 * ships it. The tables live for the rest of the process (never dlclose()d).
 */
#ifndef SCHEDREPLAY_TRACELIBS_H
#define SCHEDREPLAY_TRACELIBS_H

#include <trace-cmd/trace-cmd.h>
#include <tracefs/tracefs.h>

#include <schedreplay/error.h>

struct sr_tracecmd_fns {
	__typeof__(tracecmd_open) *open;
	__typeof__(tracecmd_close) *close;
	__typeof__(tracecmd_get_tep) *get_tep;
	__typeof__(tracecmd_iterate_events) *iterate_events;
	__typeof__(tracecmd_read_data) *read_data;
	__typeof__(tracecmd_free_record) *free_record;
	__typeof__(tracecmd_buffer_instances) *buffer_instances;
	__typeof__(tracecmd_buffer_instance_name) *buffer_instance_name;
	__typeof__(tracecmd_buffer_instance_handle) *buffer_instance_handle;
	__typeof__(tracecmd_set_loglevel) *set_loglevel;
};

struct sr_tracefs_fns {
	__typeof__(tracefs_tracing_dir) *tracing_dir;
	__typeof__(tracefs_set_tracing_dir) *set_tracing_dir;
	__typeof__(tracefs_put_tracing_file) *put_tracing_file;
	__typeof__(tracefs_file_exists) *file_exists;
	__typeof__(tracefs_instance_exists) *instance_exists;
	__typeof__(tracefs_instance_create) *instance_create;
	__typeof__(tracefs_instance_destroy) *instance_destroy;
	__typeof__(tracefs_instance_free) *instance_free;
	__typeof__(tracefs_instance_get_dir) *instance_get_dir;
	__typeof__(tracefs_instance_set_buffer_size) *instance_set_buffer_size;
	__typeof__(tracefs_instance_file_open) *instance_file_open;
	__typeof__(tracefs_instance_file_read) *instance_file_read;
	__typeof__(tracefs_instance_file_write) *instance_file_write;
	__typeof__(tracefs_event_enable) *event_enable;
	__typeof__(tracefs_trace_on) *trace_on;
	__typeof__(tracefs_trace_off) *trace_off;
	__typeof__(tracefs_cpu_open) *cpu_open;
	__typeof__(tracefs_cpu_close) *cpu_close;
	__typeof__(tracefs_cpu_read) *cpu_read;
	__typeof__(tracefs_cpu_read_size) *cpu_read_size;
	__typeof__(tracefs_cpu_flush) *cpu_flush;
	__typeof__(tracefs_cpu_stop) *cpu_stop;
};

/*
 * The tables once loaded, NULL before: code reached only after a successful
 * load (capture after cap_run()'s, the libtracecmd backend after its open's)
 * calls through them directly.
 */
extern const struct sr_tracecmd_fns *sr_tracecmd;
extern const struct sr_tracefs_fns *sr_tracefs;

/*
 * Load the library once (later calls return the same table; thread-safe).
 * NULL with @err = "cannot load libtracecmd.so.1: <dlerror> (apt-get install
 * libtracecmd1)" when the library or one of its symbols is missing.
 */
const struct sr_tracecmd_fns *sr_tracecmd_load(struct sr_error *err);
const struct sr_tracefs_fns *sr_tracefs_load(struct sr_error *err);

#endif /* SCHEDREPLAY_TRACELIBS_H */
