/* cmd_keys.c: `streamscope keys`: the TUI's keys, from the one table the TUI dispatches with and its `?` help
 * draws (tui/keys.h), so that the list a user reads here, in `?` and in README.md cannot disagree. */
#include <stdio.h>

#include "cli/cmd.h"
#include "tui/keys.h"

/* cmd_keys_exec prints the key table by group: the key as `?` writes it, then what it does. */
static int cmd_keys_exec(const struct cmd_args *args)
{
	int n, prev = -1;
	const struct ss_key *k = keys_table(&n);

	(void)args;
	for (int i = 0; i < n; i++) {
		if (k[i].name == NULL)
			continue;
		if ((int)k[i].group != prev) {
			printf("%s%s\n", prev >= 0 ? "\n" : "", keys_group_name(k[i].group));
			prev = (int)k[i].group;
		}
		printf("  %-14s %s%s\n", k[i].name, k[i].help, k[i].experiment ? " (re-runs; not in view)" : "");
	}
	printf("  %-14s %s\n", "Mouse", keys_mouse());
	return ferror(stdout) ? CLI_FAIL : CLI_OK;
}

const struct cmd_entry cmd_keys_entry = {
    .name = "keys",
    .args = "",
    .summary = "list the TUI's keys (as ? shows them)",
    .exec = cmd_keys_exec,
};
