/* status.h: streamscope's exit statuses (README.md, "Exit codes"). */
#ifndef SS_CLI_STATUS_H
#define SS_CLI_STATUS_H

#define CLI_OK 0
#define CLI_FAIL 1  /* a check or export failed */
#define CLI_USAGE 2 /* invalid command line */
#define CLI_CUDA 3  /* CUDA/CUPTI failure, no device */

#endif
