/* cmd_calibrate.c: `streamscope calibrate`: measure the GPU and write a model profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "core/atomic.h"
#include "model/calibrate.h"
#include "model/model.h"
#include "model/profile.h"

/* cmd_calibrate_progress shows each step of the calibration on stderr. */
static void cmd_calibrate_progress(const char *msg)
{
	fprintf(stderr, "%s\n", msg);
}

/* cmd_calibrate_exec measures the GPU (or the model, a self-test) and writes the profile to -o FILE or stdout. */
static int cmd_calibrate_exec(const struct cmd_args *args)
{
	const char *out = NULL, *backend = "cuda", *profile = NULL;
	const struct ss_backend *b;
	struct ss_profile p, mp;
	char *cause = NULL;
	int code = 0;

	cmd_has(args, OPT_OUTPUT, &out);
	cmd_has(args, OPT_BACKEND, &backend);
	cmd_has(args, OPT_PROFILE, &profile);
	if (profile != NULL && strcmp(backend, "model") != 0)
		return cmd_error(CLI_USAGE,
		                 "calibrate: option '--profile' applies to --backend model only (the model's "
		                 "profile); a GPU calibration measures its own");
	/* the output is checked before the calibration, which takes minutes */
	if (out != NULL && atomic_check(out, &cause) != 0) {
		cmd_error(CLI_USAGE, "calibrate: -o: %s", cause);
		free(cause);
		return CLI_USAGE;
	}
	if (strcmp(backend, "model") == 0) {
		if (expopts_model_profile(profile, &mp) != 0)
			return CLI_USAGE;
		model_set_profile(&mp);
		fprintf(stderr, "calibrating the MODEL on itself (%s profile): a self-test, not a measurement\n",
		        mp.name);
	}
	if ((b = expopts_measure_backend(backend, &code)) == NULL)
		return code;
	if (calibrate_run(b, &p, cmd_calibrate_progress, &cause) != 0) {
		cmd_error(CLI_CUDA, "calibrate: %s", cause);
		free(cause);
		return CLI_CUDA;
	}
	if (out != NULL) {
		char *text = profile_format(&p);
		int rc = atomic_write_text(out, text, &cause);

		free(text);
		if (rc != 0) {
			cmd_error(CLI_FAIL, "calibrate: %s", cause);
			free(cause);
			return CLI_FAIL;
		}
		fprintf(stderr, "profile of %s written to %s\n", p.device, out);
	} else {
		char *text = profile_format(&p);

		fputs(text, stdout);
		free(text);
	}
	return CLI_OK;
}

static const struct cmd_use cmd_calibrate_uses[] = {
    {OPT_OUTPUT, NULL,
     "write the profile to FILE (e.g. data/profiles/h200.profile; checked before the run),\n"
     "else it goes to stdout"},
    {OPT_BACKEND, "cuda|model",
     "cuda (the default) measures the GPU; model calibrates the model on itself (a\n"
     "self-test)"},
    {OPT_PROFILE, NULL, "with --backend model only: the model's profile"},
    {OPT_NONE, NULL, NULL},
};

const struct cmd_entry cmd_calibrate_entry = {
    .name = "calibrate",
    .args = "",
    .summary = "measure the GPU and write a model profile (-o FILE)",
    .uses = cmd_calibrate_uses,
    .help = "Runs measurement experiments on the GPU (copies over sizes, kernels, call costs, concurrency) and\n"
            "fits the model's profile.",
    .exec = cmd_calibrate_exec,
};
