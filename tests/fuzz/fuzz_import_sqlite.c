/* fuzz_import_sqlite.c: libFuzzer target for the SQLite importer (streamscope and Nsight Systems exports): the
 * bytes are written to a memfd and opened through /proc/self/fd, as import_file opens a file (sniffing first). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/timeline.h"
#include "io/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_fd = -1;
static char fuzz_path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_timeline t;
	char *cause = NULL;

	if (fuzz_fd < 0) {
		fuzz_fd = memfd_create("fuzz.sqlite", 0);
		if (fuzz_fd < 0)
			abort();
		snprintf(fuzz_path, sizeof fuzz_path, "/proc/self/fd/%d", fuzz_fd);
	}
	if (ftruncate(fuzz_fd, 0) != 0 || pwrite(fuzz_fd, data, size, 0) != (ssize_t)size)
		abort();
	timeline_init(&t);
	if (import_file(fuzz_path, &t, &cause) != 0) {
		if (cause == NULL || strncmp(cause, fuzz_path, strlen(fuzz_path)) != 0 || strchr(cause, '\n') != NULL ||
		    t.n != 0)
			abort();
		free(cause);
	} else {
		for (size_t i = 0; i < t.n; i++)
			if (t.rec[i].end < t.rec[i].start || t.rec[i].kind >= SS_KIND_COUNT)
				abort();
	}
	timeline_free(&t);
	return 0;
}
