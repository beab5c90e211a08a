// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen() of libtracecmd and libtracefs for the few paths that use them
 * (include/schedreplay/tracelibs.h says why).
 *
 * RTLD_NOW: a symbol missing from an older or newer library fails the load,
 * with its name, rather than the first call. RTLD_LOCAL: their symbols stay
 * out of the global scope; libtraceevent, which both need and the native
 * reader links, is found already loaded.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

#include <schedreplay/tracelibs.h>

const struct sr_tracecmd_fns *sr_tracecmd;
const struct sr_tracefs_fns *sr_tracefs;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#if defined(__SANITIZE_ADDRESS__)
#define SR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SR_ASAN 1
#endif
#endif
#ifdef SR_ASAN
/*
 * ASan builds only (-DSCHEDREPLAY_SANITIZE=ON): the runtime's defaults, which
 * ASAN_OPTIONS still overrides.  intercept_tls_get_addr=0: libtracecmd has
 * thread-local data (tracecmd_curr_thread_handle) and is dlopen()ed, so
 * glibc malloc()s its TLS block; the __tls_get_addr interceptor of older
 * sanitizer runtimes (clang 14's; newer LLVM asks its allocator) takes a
 * block at offset 16 of a page for glibc 2.19-2.24's, reads the 16 bytes
 * before it (ASan's chunk header) as its start and size, and
 * LeakSanitizer's tracer faults scanning that range at exit: "Tracer
 * caught signal 11: addr=0xa20", "LeakSanitizer has encountered a fatal
 * error", exit 1 after a correct capture (about 1 in 150 ASan captures;
 * 1 in 256 placements of the block).  Without the
 * interceptor LeakSanitizer still scans the block as the heap block it is,
 * reached from the thread's DTV; leaks are still found (docs/capture.md).
 */
const char *__asan_default_options(void) __attribute__((used, visibility("default")));
const char *__asan_default_options(void)
{
	return "intercept_tls_get_addr=0";
}
#endif

/* table.member = prefix##member of @h, or jump to @fail */
#define GET(h, table, prefix, member, fail)                                              \
	do {                                                                              \
		if (!((table).member = (__typeof__((table).member))dlsym(h, #prefix #member))) \
			goto fail;                                                        \
	} while (0)

/* libtracecmd's functions into @p (struct sr_tracecmd_fns): 0, -1 if one is missing */
static int bind_tracecmd(void *h, void *p)
{
	struct sr_tracecmd_fns *fns = p;

	GET(h, *fns, tracecmd_, open, missing);
	GET(h, *fns, tracecmd_, close, missing);
	GET(h, *fns, tracecmd_, get_tep, missing);
	GET(h, *fns, tracecmd_, iterate_events, missing);
	GET(h, *fns, tracecmd_, read_data, missing);
	GET(h, *fns, tracecmd_, free_record, missing);
	GET(h, *fns, tracecmd_, buffer_instances, missing);
	GET(h, *fns, tracecmd_, buffer_instance_name, missing);
	GET(h, *fns, tracecmd_, buffer_instance_handle, missing);
	GET(h, *fns, tracecmd_, set_loglevel, missing);
	return 0;
missing:
	return -1;
}

/* libtracefs's functions into @p (struct sr_tracefs_fns): 0, -1 if one is missing */
static int bind_tracefs(void *h, void *p)
{
	struct sr_tracefs_fns *fns = p;

	GET(h, *fns, tracefs_, tracing_dir, missing);
	GET(h, *fns, tracefs_, set_tracing_dir, missing);
	GET(h, *fns, tracefs_, put_tracing_file, missing);
	GET(h, *fns, tracefs_, file_exists, missing);
	GET(h, *fns, tracefs_, instance_exists, missing);
	GET(h, *fns, tracefs_, instance_create, missing);
	GET(h, *fns, tracefs_, instance_destroy, missing);
	GET(h, *fns, tracefs_, instance_free, missing);
	GET(h, *fns, tracefs_, instance_get_dir, missing);
	GET(h, *fns, tracefs_, instance_set_buffer_size, missing);
	GET(h, *fns, tracefs_, instance_file_open, missing);
	GET(h, *fns, tracefs_, instance_file_read, missing);
	GET(h, *fns, tracefs_, instance_file_write, missing);
	GET(h, *fns, tracefs_, event_enable, missing);
	GET(h, *fns, tracefs_, trace_on, missing);
	GET(h, *fns, tracefs_, trace_off, missing);
	GET(h, *fns, tracefs_, cpu_open, missing);
	GET(h, *fns, tracefs_, cpu_close, missing);
	GET(h, *fns, tracefs_, cpu_read, missing);
	GET(h, *fns, tracefs_, cpu_read_size, missing);
	GET(h, *fns, tracefs_, cpu_flush, missing);
	GET(h, *fns, tracefs_, cpu_stop, missing);
	return 0;
missing:
	return -1;
}

/*
 * @soname (Debian package @package) opened and its functions bound into
 * @fns by @bind: true, or false with @err (the library closed again when a
 * function is missing).  Under the lock, once per library.
 */
static bool load_lib(const char *soname, const char *package, int (*bind)(void *h, void *fns),
		     void *fns, struct sr_error *err)
{
	void *h;

	dlerror();
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();

		sr_error_set(err, ENOENT, "cannot load %s: %s (apt-get install %s)", soname,
			     why ? why : "unknown dlopen error", package);
		return false;
	}
	if (bind(h, fns)) {
		const char *why = dlerror();

		sr_error_set(err, ENOENT, "cannot load %s: %s (apt-get install %s)", soname,
			     why ? why : "a symbol is missing", package);
		dlclose(h);
		return false;
	}
	return true;
}

const struct sr_tracecmd_fns *sr_tracecmd_load(struct sr_error *err)
{
	static struct sr_tracecmd_fns fns;

	pthread_mutex_lock(&lock);
	if (!sr_tracecmd && load_lib("libtracecmd.so.1", "libtracecmd1", bind_tracecmd, &fns, err))
		sr_tracecmd = &fns;
	pthread_mutex_unlock(&lock);
	return sr_tracecmd;
}

const struct sr_tracefs_fns *sr_tracefs_load(struct sr_error *err)
{
	static struct sr_tracefs_fns fns;

	pthread_mutex_lock(&lock);
	if (!sr_tracefs && load_lib("libtracefs.so.1", "libtracefs1", bind_tracefs, &fns, err))
		sr_tracefs = &fns;
	pthread_mutex_unlock(&lock);
	return sr_tracefs;
}
