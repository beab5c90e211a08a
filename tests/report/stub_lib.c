// SPDX-License-Identifier: GPL-2.0
/*
 * A library with the soname of libtracecmd.so.1 or libtracefs.so.1 and none
 * of their functions: missing_lib.sh puts it first on LD_LIBRARY_PATH to see
 * the one-line error of the dlopen() paths (replay/tracelibs.c).
 */
int sr_stub_lib_marker(void);

int sr_stub_lib_marker(void)
{
	return 0;
}
