/* cmd_keys.c: `streamscope keys`: the TUI's keys, from the one table the TUI dispatches with and its `?` help
 * draws (tui/keys.h), so that the list a user reads here, in `?` and in README.md cannot disagree. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cmd.h"
#include "tui/keys.h"

/* The most lines the key list has: a title a group, a line a key, the mouse. */
#define CMD_KEYS_MAX 128
/* The width of the left column. */
#define CMD_KEYS_COLUMN 40

/* cmd_keys_exec prints the key table in two columns, by group (a group's keys stay in one column): the key as `?`
 * writes it, then what it does, marked * when it changes the experiment. */
static int cmd_keys_exec(const struct cmd_args *args)
{
	char line[CMD_KEYS_MAX][CMD_KEYS_COLUMN * 2];
	int n, nline = 0, prev = -1, split = 0, rows;
	const struct ss_key *k = keys_table(&n);

	(void)args;
	for (int i = 0; i < n && nline < CMD_KEYS_MAX - 3; i++) {
		if (k[i].name == NULL)
			continue;
		if ((int)k[i].group != prev) {
			if (prev >= 0)
				line[nline++][0] = '\0';
			snprintf(line[nline++], sizeof line[0], "%s", keys_group_name(k[i].group));
			prev = (int)k[i].group;
		}
		snprintf(line[nline++], sizeof line[0], "  %-10s %s%s", k[i].name, k[i].help,
		         k[i].experiment ? " *" : "");
	}
	snprintf(line[nline++], sizeof line[0], "  %-10s %s", "Mouse", keys_mouse());
	/* the right column starts at the group boundary (a blank line) nearest the middle */
	for (int i = 0; i < nline; i++)
		if (line[i][0] == '\0' && abs(2 * i - nline) < abs(2 * split - nline))
			split = i;
	rows = split > nline - split - 1 ? split : nline - split - 1;
	for (int r = 0; r < rows; r++) {
		const char *left = r < split ? line[r] : "", *right = split + 1 + r < nline ? line[split + 1 + r] : "";

		if (*right != '\0')
			printf("%-*s%s\n", CMD_KEYS_COLUMN, left, right);
		else
			printf("%s\n", left);
	}
	printf("\n* changes the experiment and runs it again (not when viewing a trace)\n");
	return ferror(stdout) ? CLI_FAIL : CLI_OK;
}

const struct cmd_entry cmd_keys_entry = {
    .name = "keys",
    .args = "",
    .summary = "list the TUI's keys (as ? shows them)",
    .exec = cmd_keys_exec,
};
