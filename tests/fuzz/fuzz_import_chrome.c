/* fuzz_import_chrome.c: libFuzzer target for the Chrome trace JSON importer, fed from memory. Each input is read in
 * one go on one thread, then (when it has lines) cut into slices parsed on worker threads (the slice size taken from
 * the input's length): both must give the same records, names, labels and launches, or the same message. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/timeline.h"
#include "io/import/import_chrome.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fuzz_import imports data; returns its result and leaves the timeline in t and the cause in *cause. */
static int fuzz_import(const uint8_t *data, size_t size, struct ss_timeline *t, char **cause)
{
	int rc;

	timeline_init(t);
	*cause = NULL;
	rc = import_chrome_buffer((const char *)data, size, "fuzz.json", t, cause);
	if (rc != 0) {
		/* a failure is one line naming the input */
		if (*cause == NULL || strncmp(*cause, "fuzz.json: ", 11) != 0 || strchr(*cause, '\n') != NULL ||
		    t->n != 0)
			abort();
	} else {
		for (size_t i = 0; i < t->n; i++)
			if (t->rec[i].end < t->rec[i].start || t->rec[i].kind >= SS_KIND_COUNT)
				abort();
		/* launches: sorted for lookups, no dimension 0, full names in the string table */
		if (t->launch_unsorted)
			abort();
		for (size_t i = 0; i < t->nlaunch; i++) {
			const struct ss_launch *l = &t->launch[i];

			for (int d = 0; d < 3; d++)
				if (l->grid[d] == 0 || l->block[d] == 0)
					abort();
			if (l->full_name >= t->names.n)
				abort();
		}
	}
	return rc;
}

/* fuzz_same aborts unless a and b are the same import result. */
static void fuzz_same(int rca, const struct ss_timeline *a, const char *ca, int rcb, const struct ss_timeline *b,
                      const char *cb)
{
	if (rca != rcb)
		abort();
	if (rca != 0) {
		if (strcmp(ca, cb) != 0)
			abort();
		return;
	}
	if (a->n != b->n || a->nstreams != b->nstreams || a->modelled != b->modelled ||
	    a->incomplete != b->incomplete || a->dropped != b->dropped || strcmp(a->device, b->device) != 0 ||
	    a->names.n != b->names.n)
		abort();
	if (a->n > 0 && memcmp(a->rec, b->rec, a->n * sizeof *a->rec) != 0)
		abort();
	if (a->nlaunch != b->nlaunch ||
	    (a->nlaunch > 0 && memcmp(a->launch, b->launch, a->nlaunch * sizeof *a->launch) != 0))
		abort();
	for (uint32_t i = 0; i < a->names.n; i++)
		if (strcmp(intern_str(&a->names, i), intern_str(&b->names, i)) != 0)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_chrome_tuning tuning = {.threads = 1};
	struct ss_timeline t, other;
	char *cause, *ocause;
	int rc, orc;

	import_chrome_tune(&tuning);
	rc = fuzz_import(data, size, &t, &cause);
	if (memchr(data, '\n', size) != NULL) {
		/* in slices on threads */
		tuning = (struct import_chrome_tuning){.threads = 3, .min_bytes = 1, .slice_bytes = 1 + size % 61};
		import_chrome_tune(&tuning);
		orc = fuzz_import(data, size, &other, &ocause);
		fuzz_same(rc, &t, cause, orc, &other, ocause);
		timeline_free(&other);
		free(ocause);
	}
	import_chrome_tune(NULL);
	timeline_free(&t);
	free(cause);
	return 0;
}
