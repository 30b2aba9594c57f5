/* main.c: streamscope's entry point: the command table runs it. */
#include "cli/cmd.h"

int main(int argc, char **argv)
{
	return cmd_main(argc, argv);
}
