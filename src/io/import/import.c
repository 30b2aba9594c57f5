/* import.c: sniff a trace file's format from its first bytes and hand it to the right importer. */
#include "io/import/import.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "io/import/import_chrome.h"
#include "io/import/import_sqlite.h"
#include "io/import/importer.h"

static int import_file_sniff(const char *path, struct ss_timeline *t, char **cause);

int import_file(const char *path, struct ss_timeline *t, char **cause)
{
	if (import_file_sniff(path, t, cause) == 0)
		return 0;
	return importer_oneline(*cause);
}

/* import_blank says whether ch is white space JSON allows between tokens. */
static bool import_blank(unsigned char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* import_file_sniff is import_file before its cause is made one line. The first block tells SQLite's header; white
 * space before JSON is read past block by block, however long it is. */
static int import_file_sniff(const char *path, struct ss_timeline *t, char **cause)
{
	unsigned char head[4096];
	struct stat st;
	ssize_t got;
	size_t i = 0;
	int fd;

	importer_begin(t);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*cause = xasprintf("%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		close(fd);
		return -1;
	}
	got = importer_read_fd(fd, head, sizeof head);
	if (got <= 0) {
		if (got < 0)
			*cause = xasprintf("%s: %s", path, strerror(errno));
		else
			*cause = xasprintf("%s: empty file (expected SQLite or Chrome trace JSON)", path);
		close(fd);
		return -1;
	}
	if ((size_t)got >= 16 && memcmp(head, "SQLite format 3", 16) == 0) {
		close(fd);
		return import_sqlite(path, t, cause);
	}
	if ((size_t)got < 16 && memcmp(head, "SQLite format 3", (size_t)got) == 0) {
		*cause = xasprintf("%s: truncated SQLite file (%zd bytes)", path, got);
		close(fd);
		return -1;
	}
	if ((size_t)got >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	for (;;) {
		while (i < (size_t)got && import_blank(head[i]))
			i++;
		/* a short block is the end of the file */
		if (i < (size_t)got || (size_t)got < sizeof head)
			break;
		got = importer_read_fd(fd, head, sizeof head);
		if (got < 0) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		i = 0;
	}
	close(fd);
	if (i < (size_t)got && (head[i] == '{' || head[i] == '['))
		return import_chrome(path, t, cause);
	if (i == (size_t)got) {
		*cause = xasprintf("%s: only white space (expected SQLite or Chrome trace JSON)", path);
		return -1;
	}
	*cause = xasprintf("%s: unrecognised format (expected streamscope or Nsight Systems SQLite, or Chrome trace "
	                   "JSON)",
	                   path);
	return -1;
}
