/* test_atomic.c: what an atomic write does to what was at its path: a symbolic link stays a link and its target
 * is replaced, an existing file keeps its mode, a read-only file or an unwritable directory is refused with one
 * line naming the path, and atomic_check finds each of these before anything is written. No temporary file is
 * left behind in any case.
 *
 * The refusals a user gets come from permissions, which root bypasses: as root those cases run in a child that
 * has become nobody. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/atomic.h"

/* The scratch directory of one test and the paths in it. */
struct scratch {
	char dir[64];
	char path[4][160];
};

static void scratch_make(struct scratch *s)
{
	snprintf(s->dir, sizeof s->dir, "/tmp/ss_atomic_XXXXXX");
	assert_non_null(mkdtemp(s->dir));
}

static const char *scratch_path(struct scratch *s, int i, const char *name)
{
	snprintf(s->path[i], sizeof s->path[i], "%s/%s", s->dir, name);
	return s->path[i];
}

/* Entries of dir whose name holds ".tmp": what a write leaves when it fails to clean up. */
static int temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += strstr(de->d_name, ".tmp") != NULL;
	closedir(d);
	return n;
}

/* Removes dir and what is in it (plain files, links, one level of subdirectories). */
static void scratch_remove(struct scratch *s)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
	assert_int_equal(system(cmd), 0);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void expect_text(const char *path, const char *want)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, want);
}

static bool is_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static unsigned mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (unsigned)(st.st_mode & 07777);
}

/* A link (relative, absolute, a chain, one into another directory) stays a link; its target gets the text. */
static void test_symlink_followed(void **state)
{
	struct scratch s;
	char *cause = NULL;
	const char *target, *link, *chain, *sub;
	char abs_target[200];

	(void)state;
	scratch_make(&s);
	target = scratch_path(&s, 0, "target.json");
	link = scratch_path(&s, 1, "link.json");
	chain = scratch_path(&s, 2, "chain.json");
	put(target, "old");
	assert_int_equal(symlink("target.json", link), 0);
	assert_int_equal(symlink("link.json", chain), 0);
	if (atomic_write_text(link, "new", &cause) != 0)
		fail_msg("%s", cause);
	assert_true(is_link(link));
	expect_text(target, "new");
	if (atomic_write_text(chain, "newer", &cause) != 0)
		fail_msg("%s", cause);
	assert_true(is_link(chain));
	assert_true(is_link(link));
	expect_text(target, "newer");

	/* an absolute link into a subdirectory: the temporary file is made there, next to the target */
	sub = scratch_path(&s, 3, "sub");
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(abs_target, sizeof abs_target, "%s/t.txt", sub);
	put(abs_target, "a");
	unlink(link);
	assert_int_equal(symlink(abs_target, link), 0);
	if (atomic_write_text(link, "b", &cause) != 0)
		fail_msg("%s", cause);
	assert_true(is_link(link));
	expect_text(abs_target, "b");
	assert_int_equal(temporaries(s.dir), 0);
	assert_int_equal(temporaries(sub), 0);

	/* a dangling link: its target is created, the link stays */
	unlink(abs_target);
	if (atomic_write_text(link, "c", &cause) != 0)
		fail_msg("%s", cause);
	assert_true(is_link(link));
	expect_text(abs_target, "c");
	scratch_remove(&s);
}

/* An existing file keeps its mode (the umask would give a new one 0644 or so); a new one gets 0666 less the umask. */
static void test_mode_kept(void **state)
{
	struct scratch s;
	char *cause = NULL;
	const char *p, *q;
	mode_t old = umask(022);

	(void)state;
	scratch_make(&s);
	p = scratch_path(&s, 0, "out.csv");
	put(p, "x");
	assert_int_equal(chmod(p, 0640), 0);
	if (atomic_write_text(p, "y", &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(mode_of(p), 0640);
	assert_int_equal(chmod(p, 0600), 0);
	if (atomic_write_text(p, "z", &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(mode_of(p), 0600);
	expect_text(p, "z");
	/* through a link: the target's mode */
	q = scratch_path(&s, 1, "l.csv");
	assert_int_equal(symlink("out.csv", q), 0);
	if (atomic_write_text(q, "w", &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(mode_of(p), 0600);
	q = scratch_path(&s, 2, "new.csv");
	if (atomic_write_text(q, "n", &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(mode_of(q), 0644);
	umask(old);
	scratch_remove(&s);
}

/* What atomic_check and atomic_open refuse whoever runs them: a directory, a link to one, a missing directory, a
 * link whose target's directory is missing, a non-regular file, an empty name. Nothing is created. */
static void test_refused(void **state)
{
	struct scratch s;
	char *cause = NULL;
	const char *dir, *link, *missing, *dangling;
	struct atomic_file af;

	(void)state;
	scratch_make(&s);
	dir = scratch_path(&s, 0, "adir.json");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(atomic_check(dir, &cause), -1);
	assert_non_null(strstr(cause, dir));
	assert_non_null(strstr(cause, "is a directory"));
	free(cause);
	assert_int_equal(atomic_open(&af, dir, &cause), -1);
	assert_non_null(strstr(cause, "is a directory"));
	free(cause);

	link = scratch_path(&s, 1, "todir.json");
	assert_int_equal(symlink("adir.json", link), 0);
	assert_int_equal(atomic_check(link, &cause), -1);
	assert_non_null(strstr(cause, link));
	assert_non_null(strstr(cause, "is a directory"));
	free(cause);

	missing = scratch_path(&s, 2, "no/such/dir/x.json");
	assert_int_equal(atomic_check(missing, &cause), -1);
	assert_non_null(strstr(cause, missing));
	assert_non_null(strstr(cause, "directory "));
	assert_non_null(strstr(cause, "/no/such/dir does not exist"));
	free(cause);
	assert_int_equal(atomic_write_text(missing, "x", &cause), -1);
	assert_non_null(strstr(cause, missing));
	assert_null(strstr(cause, ".tmp"));
	free(cause);

	dangling = scratch_path(&s, 3, "dangling.json");
	assert_int_equal(symlink("gone/x.json", dangling), 0);
	assert_int_equal(atomic_check(dangling, &cause), -1);
	assert_non_null(strstr(cause, dangling));
	assert_non_null(strstr(cause, "gone"));
	free(cause);

	assert_int_equal(atomic_check("/dev/null", &cause), -1);
	assert_non_null(strstr(cause, "not a regular file"));
	free(cause);
	assert_int_equal(atomic_check("", &cause), -1);
	free(cause);

	/* what can be written passes, and the check creates nothing */
	assert_int_equal(atomic_check(scratch_path(&s, 2, "fine.json"), &cause), 0);
	assert_int_equal(access(s.path[2], F_OK), -1);
	assert_int_equal(temporaries(s.dir), 0);
	scratch_remove(&s);
}

/* The permission cases, run as the user (as nobody when the test runs as root): a read-only file is refused and
 * left as it was, and so is a file in a directory the user may not write, and other, when not NULL, a file of
 * another user's that this one may not write (its message names both users). Returns the number of failed checks. */
static int permission_cases(const char *dir, const char *other)
{
	char ro[200], locked[200], inlocked[260], *cause = NULL;
	struct stat st;
	int bad = 0;

	snprintf(ro, sizeof ro, "%s/ro.json", dir);
	put(ro, "keep");
	bad += chmod(ro, 0444) != 0;
	bad += atomic_check(ro, &cause) != -1;
	bad += cause == NULL || strstr(cause, ro) == NULL || strstr(cause, "read-only") == NULL;
	free(cause);
	cause = NULL;
	bad += atomic_write_text(ro, "lost", &cause) != -1;
	bad += cause == NULL || strstr(cause, "read-only") == NULL;
	free(cause);
	cause = NULL;
	bad += stat(ro, &st) != 0 || (st.st_mode & 07777) != 0444;
	{
		FILE *f = fopen(ro, "r");
		char buf[16] = "";

		bad += f == NULL || fgets(buf, sizeof buf, f) == NULL || strcmp(buf, "keep") != 0;
		if (f != NULL)
			fclose(f);
	}
	snprintf(locked, sizeof locked, "%s/locked", dir);
	bad += mkdir(locked, 0555) != 0;
	snprintf(inlocked, sizeof inlocked, "%s/x.json", locked);
	bad += atomic_check(inlocked, &cause) != -1;
	bad += cause == NULL || strstr(cause, inlocked) == NULL ||
	       strstr(cause, "cannot create a file in directory") == NULL || strstr(cause, "Permission denied") == NULL;
	free(cause);
	cause = NULL;
	bad += atomic_write_text(inlocked, "x", &cause) != -1;
	free(cause);
	if (other != NULL) {
		char who[64];

		snprintf(who, sizeof who, "this user (uid %u)", (unsigned)geteuid());
		bad += atomic_check(other, &cause) != -1;
		bad += cause == NULL || strstr(cause, "the file belongs to uid 0 (mode 0644)") == NULL ||
		       strstr(cause, who) == NULL || strstr(cause, "read-only") != NULL;
		free(cause);
		cause = NULL;
	}
	bad += temporaries(dir) != 0 || temporaries(locked) != 0;
	return bad;
}

static void test_permissions(void **state)
{
	char other[200];
	struct scratch s;
	pid_t pid;
	int st;

	(void)state;
	scratch_make(&s);
	if (geteuid() != 0) {
		assert_int_equal(permission_cases(s.dir, NULL), 0);
		scratch_remove(&s);
		return;
	}
	assert_int_equal(chmod(s.dir, 0777), 0);
	snprintf(other, sizeof other, "%s/roots.json", s.dir);
	put(other, "root's");
	assert_int_equal(chmod(other, 0644), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(100);
		_exit(permission_cases(s.dir, other) > 0 ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 100)
		skip();
	assert_int_equal(WEXITSTATUS(st), 0);
	scratch_remove(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_symlink_followed),
	    cmocka_unit_test(test_mode_kept),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_permissions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
