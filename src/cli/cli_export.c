/* cli_export.c: --export on the command line. */
#include "cli/cli_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/status.h"
#include "io/export/export.h"

int cli_export_timeline(const char *path, const struct ss_timeline *tl, const struct ss_analysis *a,
                        const struct ss_experiment *e)
{
	struct ss_export_input in;
	char *cause = NULL;

	if (export_format_of(path) < 0) {
		fprintf(stderr, "streamscope: cannot export to '%s': unknown extension, valid are %s\n", path,
		        SS_EXPORT_EXTENSIONS);
		return CLI_USAGE;
	}
	memset(&in, 0, sizeof in);
	in.t = tl;
	in.a = a;
	in.e = e;
	if (export_file(path, &in, &cause) != 0) {
		fprintf(stderr, "streamscope: %s\n", cause);
		free(cause);
		return CLI_FAIL;
	}
	return CLI_OK;
}

int cli_export_all(const char *const *paths, int n, const struct ss_timeline *tl, const struct ss_analysis *a,
                   const struct ss_experiment *e)
{
	int rc = CLI_OK;

	for (int i = 0; i < n; i++) {
		int r = cli_export_timeline(paths[i], tl, a, e);

		if (rc == CLI_OK)
			rc = r;
	}
	return rc;
}
