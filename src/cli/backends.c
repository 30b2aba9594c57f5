/* backends.c: the backends this build has, in one explicit array. */
#include "cli/backends.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "core/xalloc.h"
#include "model/model.h"
#include "run/runner.h"

#ifdef SS_HAVE_CUDA
extern const struct ss_backend cuda_backend;
#endif

static const struct ss_backend *const backends_table[] = {
#ifdef SS_HAVE_CUDA
    &cuda_backend,
#endif
    &model_backend,
    NULL,
};

const char *backends_list(void)
{
#ifdef SS_HAVE_CUDA
	return "auto|cuda|model";
#else
	return "auto|model (this build has no CUDA backend)";
#endif
}

const struct ss_backend *backends_find(const char *name)
{
	for (int i = 0; backends_table[i] != NULL; i++)
		if (strcmp(backends_table[i]->name, name) == 0)
			return backends_table[i];
	return NULL;
}

const struct ss_backend *backends_pick(const char *name, char *note, size_t len, int *code, char **cause)
{
	const struct ss_backend *cuda = backends_find("cuda");
	char device[128] = "";
	char *why = NULL;

	note[0] = '\0';
	if (strcmp(name, "model") == 0)
		return backends_find("model");
	if (strcmp(name, "cuda") == 0) {
		if (cuda == NULL) {
			*code = 3;
			*cause = xasprintf("--backend cuda: this streamscope was built without CUDA (valid here: %s)",
			                   backends_list());
			return NULL;
		}
		if (runner_probe(cuda, device, sizeof device, &why) != 0) {
			*code = 3;
			*cause = xasprintf("--backend cuda: %s", why);
			free(why);
			return NULL;
		}
		return cuda;
	}
	if (strcmp(name, "auto") != 0) {
		*code = 2;
		*cause = xasprintf("invalid --backend '%s': valid is %s", name, backends_list());
		return NULL;
	}
	if (cuda != NULL && runner_probe(cuda, device, sizeof device, &why) == 0)
		return cuda;
	snprintf(note, len, "%s: using the model backend, results are MODELLED",
	         cuda == NULL ? "built without CUDA" : (why ? why : "no CUDA device"));
	free(why);
	return backends_find("model");
}

const struct ss_backend *backends_verify(const char *cmd, const char *what, const char *otherwise, int *code)
{
	char note[BACKENDS_NOTE_MAX], *cause = NULL;
	const struct ss_backend *gpu;

	*code = CLI_CUDA;
	if ((gpu = backends_pick("cuda", note, sizeof note, code, &cause)) != NULL)
		return gpu;
	cmd_error(*code, "%s --verify measures %s on a GPU: %s (without --verify, %s)", cmd, what,
	          cause != NULL && strncmp(cause, "--backend cuda: ", 16) == 0 ? cause + 16 : cause, otherwise);
	free(cause);
	return NULL;
}
