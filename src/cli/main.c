/* main.c: streamscope's entry point: the command table runs it, then standard output is flushed and closed, so that
 * output lost to a full disk, a closed descriptor or a failing pipe is an error (exit 1 after one line), never a
 * silent exit 0. A terminal is the exception: one that hung up (SSH dropped) has nobody left to tell, and the
 * command's own status stands. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"

int main(int argc, char **argv)
{
	bool tty = isatty(STDOUT_FILENO);
	int rc = cmd_main(argc, argv), err;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0)
		return rc;
	err = errno;
	if (tty)
		return rc;
	return cmd_error(rc != CLI_OK ? rc : CLI_FAIL, "cannot write standard output: %s",
	                 err != 0 ? strerror(err) : "a write failed");
}
