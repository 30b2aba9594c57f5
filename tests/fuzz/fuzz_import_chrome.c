/* fuzz_import_chrome.c: libFuzzer target for the Chrome trace JSON importer, fed from memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/timeline.h"
#include "io/import_chrome.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_timeline t;
	char *cause = NULL;

	timeline_init(&t);
	if (import_chrome_buffer((const char *)data, size, "fuzz.json", &t, &cause) != 0) {
		/* a failure is one line naming the input */
		if (cause == NULL || strncmp(cause, "fuzz.json: ", 11) != 0 || strchr(cause, '\n') != NULL || t.n != 0)
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
