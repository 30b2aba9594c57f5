/* refrun.h: the reference programs (tests/gpu/reference: each source document's own program): where they are, one
 * run of one in a child process, the lines it prints parsed and held to the point it was asked to measure, and
 * the ratios of a preset's times to its reference's. */
#ifndef SS_RUN_REFRUN_H
#define SS_RUN_REFRUN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/experiment.h"

#define REFRUN_NAME_MAX 32 /* a reference's name and its terminating NUL */

/* One line a reference program prints (the output format in each tests/gpu/reference/ref_*.cu header):
 *   ref=NAME streams=S order=ORDER repeat=R ms=T    a measurement (the keys after ref in any order)
 *   ref=NAME verified=0|1                           the verdict, the program's last line */
struct refrun_line {
	char ref[REFRUN_NAME_MAX]; /* the preset the program is the reference of ("kernel-transfer"): [a-z0-9-]+ */
	bool verdict;              /* a verdict line; else a measurement */
	bool verified;             /* a verdict's value */
	int streams;               /* a measurement's: 1..SS_MAX_STREAMS */
	enum ss_order order;       /* a measurement's: a name experiment_order_parse knows */
	int repeat;                /* a measurement's: 1..1000000 */
	double ms;                 /* a measurement's time in ms: finite and > 0 */
};

/* refrun_parse_line parses line[0..len) (no newline): tokens key=value separated by spaces or tabs, ref first,
 * then exactly a verdict's or a measurement's keys, each once. 0 with *l filled; -1 with *cause (one line naming the
 * token and what is valid; the caller frees) for anything else. */
int refrun_parse_line(const char *line, size_t len, struct refrun_line *l, char **cause);

/* The point one reference run is asked to measure. */
struct refrun_point {
	const char *ref; /* the name its lines carry */
	int streams;
	enum ss_order order;
};

/* What one reference run measured at its point. */
struct refrun_times {
	double *ms; /* the measurements' times in the order printed (refrun_times_free frees) */
	size_t n;   /* >= 1 */
};

/* refrun_collect takes a reference program's whole output text[0..len): every line parses (refrun_parse_line),
 * every measurement is of want (its ref, streams and order), there is at least one, and the last line is the
 * verdict "verified=1" (an empty last line after a final newline is no line). 0 with t filled; -1 with *cause
 * ("line N: ...", or why the output as a whole is refused) and t empty. */
int refrun_collect(const char *text, size_t len, const struct refrun_point *want, struct refrun_times *t, char **cause);
/* refrun_times_free releases t's times and empties it. */
void refrun_times_free(struct refrun_times *t);

/* refrun_exec runs the program at path with argv (argv[0] its name, NULL-terminated), its environment the caller's
 * with CUDA_DEVICE_MAX_CONNECTIONS=connections (connections 0: left as it is), and collects what it prints on
 * stdout for want (refrun_collect). The child is killed when the caller dies, and after timeout_s seconds. 0 with
 * t filled; -1 with *cause naming the program and why: it could not start, it did not finish in time, it was
 * killed by a signal or exited with a status other than 0 (with the first line it wrote on stderr), or its output
 * was refused (refrun_collect's cause). */
int refrun_exec(const char *path, char *const argv[], int connections, int timeout_s, const struct refrun_point *want,
                struct refrun_times *t, char **cause);

/* refrun_dir writes the reference programs' folder into buf: $SS_REFERENCE_DIR when set and not empty, else
 * tests/gpu/reference beside the running binary (a build tree: CMake builds them in
 * ${CMAKE_BINARY_DIR}/tests/gpu/reference, next to BUILD/streamscope). Returns whether the environment named it. */
bool refrun_dir(char *buf, size_t len);

/* The spread of samples: their median, least and greatest (NAN for no sample). */
struct refrun_spread {
	double median, min, max;
	size_t n;
};

/* refrun_ratio: a preset's time over its reference's, NAN unless both are finite and > 0. */
double refrun_ratio(double preset_ms, double reference_ms);
/* refrun_spread_of fills s from v[0..n) (v is not changed; a NAN sample is a failed round: s is all NAN, n kept). */
void refrun_spread_of(const double *v, size_t n, struct refrun_spread *s);
/* refrun_within says whether s's median is within tol of 1 (|median - 1| <= tol); false for no sample. */
bool refrun_within(const struct refrun_spread *s, double tol);

#endif
