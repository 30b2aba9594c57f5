/* fuzz_import_sqlite.c: libFuzzer target for the SQLite importer (streamscope and Nsight Systems exports): the
 * bytes are written to a temporary file and opened with import_file, as a user's file is (sniffing first), then,
 * where it opened, the experiment it stores read as view and analyze read it. A
 * memfd would be faster, but SQLite resolves /proc/self/fd/N to the memfd's name and cannot open it. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/timeline.h"
#include "io/import/import.h"
#include "io/import/import_sqlite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_fd = -1;
static char fuzz_path[256];

static void fuzz_cleanup(void)
{
	unlink(fuzz_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_timeline t;
	char *cause = NULL;

	if (fuzz_fd < 0) {
		const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";

		snprintf(fuzz_path, sizeof fuzz_path, "%s/fuzz_import_sqlite-XXXXXX", dir);
		fuzz_fd = mkstemp(fuzz_path);
		if (fuzz_fd < 0)
			abort();
		atexit(fuzz_cleanup);
	}
	if (ftruncate(fuzz_fd, 0) != 0 || pwrite(fuzz_fd, data, size, 0) != (ssize_t)size)
		abort();
	timeline_init(&t);
	if (import_file(fuzz_path, &t, &cause) != 0) {
		/* a failure is one line naming the file */
		if (cause == NULL || strncmp(cause, fuzz_path, strlen(fuzz_path)) != 0 || strchr(cause, '\n') != NULL ||
		    t.n != 0)
			abort();
		free(cause);
	} else {
		struct ss_experiment e;
		bool own = true;
		int found;

		for (size_t i = 0; i < t.n; i++)
			if (t.rec[i].end < t.rec[i].start || t.rec[i].kind >= SS_KIND_COUNT)
				abort();
		/* the experiment the file says it ran, as view and analyze read it: found and valid, none, or one line
		 */
		found = import_sqlite_experiment(fuzz_path, &e, &own, &cause);
		if (found == 1 && experiment_validate(&e, &cause) != 0)
			abort();
		if (found == 0 && own)
			abort();
		if (found < 0 && (cause == NULL || strchr(cause, '\n') != NULL))
			abort();
		free(cause);
	}
	timeline_free(&t);
	return 0;
}
