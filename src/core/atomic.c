/* atomic.c: write to a temporary name in the directory of the file replaced, fsync, rename; remove the temporary on
 * failure. A symbolic link at the path is followed (its target is replaced, the link stays) and an existing file
 * keeps its mode; a file the user may not write is refused, not replaced. */
#include "core/atomic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sigexit.h"
#include "core/xalloc.h"

/* Buffer of the export streams: big writes are what makes a 1M-interval JSON fast. */
#define ATOMIC_BUFSIZE (1u << 20)
/* Symbolic links followed from an export's path to the file it replaces (as the kernel's MAXSYMLINKS). */
#define ATOMIC_MAX_LINKS 40

/* atomic_dirname returns a new string with the directory part of path ("." when none). */
static char *atomic_dirname(const char *path)
{
	char *copy = xstrdup(path);
	char *dir = xstrdup(dirname(copy));

	free(copy);
	return dir;
}

static char *atomic_basename(const char *path)
{
	char *copy = xstrdup(path);
	char *base = xstrdup(basename(copy));

	free(copy);
	return base;
}

/* atomic_fsync_dir makes a rename durable; best effort (some file systems refuse fsync on directories). */
static void atomic_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

static mode_t atomic_umask(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return mask;
}

/* atomic_release forgets af's paths (and their removal at a fatal signal) and marks it closed; the files are the
 * caller's to have renamed or removed first. */
static void atomic_release(struct atomic_file *af)
{
	sigexit_remove_path(af->slot);
	af->slot = -1;
	free(af->path);
	free(af->shown);
	free(af->tmp);
	af->path = af->shown = af->tmp = NULL;
	af->fp = NULL;
	af->fd = -1;
}

/* atomic_target follows path through the symbolic links at its last component (a chain of them; a relative one
 * against the directory of its link) to the file an export replaces. Returns a new string, or NULL with *cause
 * naming path for a loop or an unreadable link. */
static char *atomic_target(const char *path, char **cause)
{
	char *cur = xstrdup(path);

	for (int i = 0; i < ATOMIC_MAX_LINKS; i++) {
		char buf[PATH_MAX], *next, *dir;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, buf, sizeof buf - 1);
		if (n < 0) {
			*cause = xasprintf("cannot write %s: %s", path, strerror(errno));
			free(cur);
			return NULL;
		}
		buf[n] = '\0';
		if (buf[0] == '/') {
			next = xstrdup(buf);
		} else {
			dir = atomic_dirname(cur);
			next = xasprintf("%s/%s", dir, buf);
			free(dir);
		}
		free(cur);
		cur = next;
	}
	*cause = xasprintf("cannot write %s: too many levels of symbolic links", path);
	free(cur);
	return NULL;
}

/* atomic_block_ending blocks the signals that end streamscope (SIGHUP, SIGINT, SIGQUIT, SIGTERM) in this thread,
 * the mask before into *was; pthread_sigmask(SIG_SETMASK, was, NULL) delivers what came meanwhile. */
static void atomic_block_ending(sigset_t *was)
{
	sigset_t ending;

	sigemptyset(&ending);
	sigaddset(&ending, SIGHUP);
	sigaddset(&ending, SIGINT);
	sigaddset(&ending, SIGQUIT);
	sigaddset(&ending, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &ending, was);
}

/* atomic_probe says whether a file can be created in dir, by creating one and removing it at once: the test that
 * sees read-only mounts, ACLs and a removed working directory as the real write will. 0, or an errno. */
static int atomic_probe(const char *dir)
{
	char *probe = xasprintf("%s/.streamscope-probe-XXXXXX", dir);
	sigset_t was;
	int fd, err;

	atomic_block_ending(&was); /* an ending signal after the creation would leave the probe behind */
	fd = mkostemp(probe, O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	free(probe);
	return err;
}

/* atomic_check_target checks that target (path resolved by atomic_target) can be replaced: an existing target is
 * a regular file the user may write (*st filled, *exists set), and its directory exists and can take a new file
 * (tried with a file made and removed when probe is set, else asked of access(2)). -1 with *cause naming path (and
 * the link's target when they differ). */
static int atomic_check_target(const char *path, const char *target, bool probe, struct stat *st, bool *exists,
                               char **cause)
{
	char *link = strcmp(path, target) != 0 ? xasprintf(" (a link to %s)", target) : xstrdup("");
	char *dir = atomic_dirname(target);
	struct stat dst;
	int rc = -1, err, derr = stat(dir, &dst) != 0 ? errno : !S_ISDIR(dst.st_mode) ? -1 : 0; /* -1: not one */

	*exists = stat(target, st) == 0;
	if (*exists && S_ISDIR(st->st_mode))
		*cause = xasprintf("cannot write %s%s: is a directory", path, link);
	else if (*exists && !S_ISREG(st->st_mode))
		*cause = xasprintf("cannot write %s%s: not a regular file (an export replaces the file at its path)",
		                   path, link);
	else if (*exists && access(target, W_OK) != 0 && st->st_uid == geteuid())
		*cause = xasprintf("cannot write %s%s: the file is read-only (mode %04o); make it writable or remove "
		                   "it first",
		                   path, link, (unsigned)(st->st_mode & 07777));
	else if (*exists && access(target, W_OK) != 0)
		*cause =
		    xasprintf("cannot write %s%s: the file belongs to uid %u (mode %04o) and this user (uid %u) "
		              "may not write it",
		              path, link, (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777), (unsigned)geteuid());
	else if (derr == ENOENT)
		*cause = xasprintf("cannot write %s%s: directory %s does not exist", path, link, dir);
	else if (derr == ENOTDIR)
		*cause = xasprintf("cannot write %s%s: a part of %s is not a directory", path, link, dir);
	else if (derr == -1)
		*cause = xasprintf("cannot write %s%s: %s is not a directory", path, link, dir);
	else if (derr != 0)
		*cause = xasprintf("cannot write %s%s: directory %s: %s", path, link, dir, strerror(derr));
	else if ((err = probe ? atomic_probe(dir) : access(dir, W_OK | X_OK) != 0 ? errno : 0) != 0)
		*cause = xasprintf("cannot write %s%s: cannot create a file in directory %s: %s", path, link, dir,
		                   strerror(err));
	else
		rc = 0;
	free(dir);
	free(link);
	return rc;
}

int atomic_check(const char *path, char **cause)
{
	struct stat st;
	bool exists;
	char *target;
	int rc;

	if (path == NULL || *path == '\0') {
		*cause = xasprintf("cannot write: empty file name");
		return -1;
	}
	if ((target = atomic_target(path, cause)) == NULL)
		return -1;
	rc = atomic_check_target(path, target, true, &st, &exists, cause);
	free(target);
	return rc;
}

int atomic_open(struct atomic_file *af, const char *path, char **cause)
{
	char *dir, *base, *target;
	sigset_t was;
	struct stat st;
	bool exists;

	memset(af, 0, sizeof *af);
	af->fd = -1;
	af->slot = -1;
	if (path == NULL || *path == '\0') {
		*cause = xasprintf("cannot write: empty file name");
		return -1;
	}
	if ((target = atomic_target(path, cause)) == NULL)
		return -1;
	if (atomic_check_target(path, target, false, &st, &exists, cause) != 0) {
		free(target);
		return -1;
	}
	dir = atomic_dirname(target);
	base = atomic_basename(target);
	af->tmp = xasprintf("%s/.%s.tmp-XXXXXX", dir, base);
	free(dir);
	free(base);
	/* no ending signal between the file's creation and its registration: it would be left behind */
	atomic_block_ending(&was);
	af->fd = mkostemp(af->tmp, O_CLOEXEC);
	if (af->fd >= 0)
		af->slot = sigexit_add_path(af->tmp);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (af->fd < 0) {
		*cause = xasprintf("cannot write %s: %s", path, strerror(errno));
		free(target);
		atomic_release(af);
		return -1;
	}
	if (exists) {
		/* the replacement keeps the file's group (where the user may) and its mode */
		(void)fchown(af->fd, (uid_t)-1, st.st_gid);
		(void)fchmod(af->fd, st.st_mode & 07777);
	} else {
		(void)fchmod(af->fd, 0666 & ~atomic_umask());
	}
	af->fp = fdopen(af->fd, "w");
	if (af->fp == NULL) {
		*cause = xasprintf("cannot write %s: %s", path, strerror(errno));
		close(af->fd);
		unlink(af->tmp);
		free(target);
		atomic_release(af);
		return -1;
	}
	setvbuf(af->fp, NULL, _IOFBF, ATOMIC_BUFSIZE);
	af->path = target;
	af->shown = xstrdup(path);
	return 0;
}

int atomic_commit(struct atomic_file *af, char **cause)
{
	int err = 0;
	char *dir;

	if (af->fp == NULL) {
		*cause = xasprintf("cannot write: file not open");
		return -1;
	}
	if (fflush(af->fp) != 0 || ferror(af->fp))
		err = errno != 0 ? errno : EIO;
	if (err == 0 && fsync(af->fd) != 0)
		err = errno;
	if (fclose(af->fp) != 0 && err == 0)
		err = errno;
	af->fp = NULL;
	af->fd = -1;
	if (err == 0 && rename(af->tmp, af->path) != 0)
		err = errno;
	if (err != 0) {
		*cause = xasprintf("cannot write %s: %s", af->shown, strerror(err));
		unlink(af->tmp);
		atomic_release(af);
		return -1;
	}
	dir = atomic_dirname(af->path);
	atomic_fsync_dir(dir);
	free(dir);
	atomic_release(af);
	return 0;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->fp != NULL)
		fclose(af->fp);
	else if (af->fd >= 0)
		close(af->fd);
	if (af->tmp != NULL)
		unlink(af->tmp);
	atomic_release(af);
}

int atomic_write_text(const char *path, const char *text, char **cause)
{
	struct atomic_file af;

	if (atomic_open(&af, path, cause) != 0)
		return -1;
	fputs(text != NULL ? text : "", af.fp);
	return atomic_commit(&af, cause);
}

int atomic_dir_open(struct atomic_dir *ad, const char *parent, char **cause)
{
	struct stat st;

	memset(ad, 0, sizeof *ad);
	if (parent == NULL || *parent == '\0')
		parent = ".";
	if (stat(parent, &st) != 0) {
		*cause = xasprintf("cannot write snapshot in %s: %s", parent, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*cause = xasprintf("cannot write snapshot in %s: not a directory", parent);
		return -1;
	}
	ad->tmp = xasprintf("%s/.streamscope-snapshot-XXXXXX", parent);
	if (mkdtemp(ad->tmp) == NULL) {
		*cause = xasprintf("cannot write snapshot in %s: %s", parent, strerror(errno));
		free(ad->tmp);
		ad->tmp = NULL;
		return -1;
	}
	ad->parent = xstrdup(parent);
	return 0;
}

/* atomic_dir_remove deletes the plain files of dir (what an aborted snapshot holds) and dir itself. */
static void atomic_dir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			(void)unlinkat(dirfd(d), de->d_name, 0);
		}
		closedir(d);
	}
	(void)rmdir(dir);
}

void atomic_dir_abort(struct atomic_dir *ad)
{
	if (ad->tmp != NULL)
		atomic_dir_remove(ad->tmp);
	free(ad->tmp);
	free(ad->parent);
	ad->tmp = ad->parent = NULL;
}

int atomic_dir_commit(struct atomic_dir *ad, const char *name, char *out, size_t out_len, char **cause)
{
	char *final = NULL;
	int err = 0;

	if (ad->tmp == NULL) {
		*cause = xasprintf("cannot write snapshot: directory not open");
		return -1;
	}
	(void)chmod(ad->tmp, 0777 & ~atomic_umask());
	for (int i = 1; i < 1000; i++) {
		free(final);
		final = i == 1 ? xasprintf("%s/%s", ad->parent, name) : xasprintf("%s/%s-%d", ad->parent, name, i);
		if (renameat2(AT_FDCWD, ad->tmp, AT_FDCWD, final, RENAME_NOREPLACE) == 0) {
			err = 0;
			break;
		}
		err = errno;
		if (err == EINVAL || err == ENOSYS) {
			/* no RENAME_NOREPLACE here: check, then rename (racy, but only against ourselves) */
			struct stat st;

			if (lstat(final, &st) == 0) {
				err = EEXIST;
				continue;
			}
			err = rename(ad->tmp, final) == 0 ? 0 : errno;
			break;
		}
		if (err != EEXIST && err != ENOTEMPTY)
			break;
	}
	if (err != 0) {
		*cause = xasprintf("cannot write snapshot %s: %s", final, strerror(err));
		free(final);
		atomic_dir_abort(ad);
		return -1;
	}
	atomic_fsync_dir(ad->parent);
	if (out != NULL && out_len > 0)
		snprintf(out, out_len, "%s", final);
	free(final);
	free(ad->tmp);
	free(ad->parent);
	ad->tmp = ad->parent = NULL;
	return 0;
}
