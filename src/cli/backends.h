/* backends.h: the explicit table of backends and how the program picks one. */
#ifndef SS_CLI_BACKENDS_H
#define SS_CLI_BACKENDS_H

#include <stddef.h>

#include "core/backend.h"

/* backends_find returns the backend named name ("cuda", "model"), NULL when none is compiled in. */
const struct ss_backend *backends_find(const char *name);
/* Room for backends_pick's note: the reason a GPU was not used can be a long line (a library path and what to do). */
#define BACKENDS_NOTE_MAX 640

/* backends_pick resolves a --backend value ("auto", "cuda", "model"). auto takes cuda when a device answers,
 * else the model, and writes why into note (may be empty). Returns NULL with *cause (exit 3) when cuda was forced
 * and is not usable, or the name is unknown (*code 2). */
const struct ss_backend *backends_pick(const char *name, char *note, size_t len, int *code, char **cause);
/* backends_verify returns the GPU backend a --verify measures on; without one it prints one line, "CMD --verify
 * measures WHAT on a GPU: why (without --verify, ELSE)", and returns NULL with the exit status in *code. */
const struct ss_backend *backends_verify(const char *cmd, const char *what, const char *otherwise, int *code);
/* backends_list writes "cuda|model" (what this build has). */
const char *backends_list(void);

#endif
