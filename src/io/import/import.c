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

/* How much of a file import_file_sniff reads at a time. */
#define IMPORT_SNIFF_BLOCK 4096

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

/* import_skip_blanks moves *i past the JSON white space at head[*i..*got), reading the next block of fd into head
 * (sizeof head bytes: IMPORT_SNIFF_BLOCK) each time the current one, a full one, is all blanks. Then *i < *got is
 * the first other byte, *i == *got the end of the file. 0, or -1 with errno. */
static int import_skip_blanks(int fd, unsigned char *head, ssize_t *got, size_t *i)
{
	for (;;) {
		while (*i < (size_t)*got && import_blank(head[*i]))
			(*i)++;
		/* a short block is the end of the file */
		if (*i < (size_t)*got || (size_t)*got < IMPORT_SNIFF_BLOCK)
			return 0;
		*got = importer_read_fd(fd, head, IMPORT_SNIFF_BLOCK);
		if (*got < 0)
			return -1;
		*i = 0;
	}
}

/* import_unrecognised sets *cause to the line for a file of no format streamscope reads. Returns -1. */
static int import_unrecognised(const char *path, char **cause)
{
	*cause = xasprintf("%s: unrecognised format (expected streamscope or Nsight Systems SQLite, or Chrome trace "
	                   "JSON)",
	                   path);
	return -1;
}

/* import_file_sniff is import_file before its cause is made one line. The first block tells SQLite's header; white
 * space before JSON is read past block by block, however long it is. A '{' is taken for Chrome trace JSON (its
 * parser says what is wrong with it); a '[' only when an object, a ']' or the end of the file follows it, for a
 * Chrome trace is an array of event objects: "[experiment]" (an INI file) or "[1, 2]" is no trace at all, and is
 * said to be of no format streamscope reads, like any other file, not that its "event 1 is not an object". */
static int import_file_sniff(const char *path, struct ss_timeline *t, char **cause)
{
	unsigned char head[IMPORT_SNIFF_BLOCK];
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
	if (import_skip_blanks(fd, head, &got, &i) != 0)
		goto fail;
	if (i == (size_t)got) {
		close(fd);
		*cause = xasprintf("%s: only white space (expected SQLite or Chrome trace JSON)", path);
		return -1;
	}
	if (head[i] == '[') {
		i++;
		if (import_skip_blanks(fd, head, &got, &i) != 0)
			goto fail;
		if (i < (size_t)got && head[i] != '{' && head[i] != ']') {
			close(fd);
			return import_unrecognised(path, cause);
		}
	} else if (head[i] != '{') {
		close(fd);
		return import_unrecognised(path, cause);
	}
	close(fd);
	return import_chrome(path, t, cause);

fail:
	*cause = xasprintf("%s: %s", path, strerror(errno));
	close(fd);
	return -1;
}
