/* export.c: the format chosen by file extension, and whole-screen snapshots. */
#include "io/export/export.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/atomic.h"
#include "core/xalloc.h"
#include "io/export/export_chrome.h"
#include "io/export/export_csv.h"
#include "io/export/export_sqlite.h"
#include "io/export/export_svg.h"
#include "io/export/export_text.h"

/* One accepted extension. */
struct export_ext {
	const char *ext;
	enum ss_export_format format;
};

/* A row of SS_EXPORT_TABLE as an export_ext initialiser. */
#define EXPORT_EXT_ROW(ext_, format_, what, next) {.ext = ext_, .format = format_},

static const struct export_ext export_exts[] = {SS_EXPORT_TABLE(EXPORT_EXT_ROW)};

static int (*const export_writers[SS_EXPORT_COUNT])(const char *, const struct ss_export_input *, char **) = {
    [SS_EXPORT_SQLITE] = export_sqlite, [SS_EXPORT_CHROME] = export_chrome, [SS_EXPORT_CSV] = export_csv,
    [SS_EXPORT_SVG] = export_svg,       [SS_EXPORT_TEXT] = export_text,
};

int export_format_of(const char *path)
{
	const char *slash, *dot;

	if (path == NULL)
		return -1;
	slash = strrchr(path, '/');
	dot = strrchr(slash != NULL ? slash : path, '.');
	if (dot == NULL)
		return -1;
	for (size_t i = 0; i < sizeof export_exts / sizeof export_exts[0]; i++)
		if (strcasecmp(dot, export_exts[i].ext) == 0)
			return (int)export_exts[i].format;
	return -1;
}

int export_file(const char *path, const struct ss_export_input *in, char **cause)
{
	int f = export_format_of(path);

	if (f < 0) {
		const char *slash = strrchr(path != NULL ? path : "", '/');
		const char *dot = strrchr(slash != NULL ? slash : (path != NULL ? path : ""), '.');

		if (dot == NULL)
			*cause = xasprintf("cannot export to %s: no file extension (valid: %s)",
			                   path != NULL ? path : "", SS_EXPORT_EXTENSIONS);
		else
			*cause = xasprintf("cannot export to %s: unknown extension \"%s\" (valid: %s)", path, dot,
			                   SS_EXPORT_EXTENSIONS);
		return -1;
	}
	return export_writers[f](path, in, cause);
}

static const char *export_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* export_slug copies s into buf keeping [A-Za-z0-9._-] and turning runs of anything else into one '-'. */
static void export_slug(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	bool dash = false;

	for (; *s != '\0' && n + 2 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || c == '.' || c == '_' || c == '-') {
			buf[n++] = (char)c;
			dash = false;
		} else if (!dash && n > 0) {
			buf[n++] = '-';
			dash = true;
		}
	}
	while (n > 0 && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
}

void export_dir_name(const struct ss_export_input *in, long long now, char *buf, size_t len)
{
	char when[32] = "00000000-000000", what[320], slug[64];
	time_t tt = (time_t)now;
	struct tm tm;

	if (localtime_r(&tt, &tm) != NULL)
		strftime(when, sizeof when, "%Y%m%d-%H%M%S", &tm);
	if (in->e != NULL) {
		snprintf(what, sizeof what, "%s-%ds-%s", experiment_preset_name(in->e->preset), in->e->streams,
		         experiment_order_name(in->e->order));
	} else if (*in->t->source != '\0') {
		char *dot;

		snprintf(what, sizeof what, "%s", export_basename(in->t->source));
		dot = strrchr(what, '.');
		if (dot != NULL && dot != what)
			*dot = '\0';
	} else {
		snprintf(what, sizeof what, "trace");
	}
	export_slug(what, slug, sizeof slug);
	snprintf(buf, len, "streamscope-%s-%s%s", when, *slug != '\0' ? slug : "trace",
	         in->t->modelled ? "-model" : "");
}

int export_snapshot(const char *parent_dir, const struct ss_export_input *in, const char *screen_text,
                    const char *screen_ansi, char *out_dir, size_t out_len, char **cause)
{
	/* every format's export, then the screen as text and with its colours (when given: format -1) */
	const struct {
		const char *name;
		int format;
		const char *text;
	} files[] = {
	    {"trace.sqlite", SS_EXPORT_SQLITE, NULL}, {"trace.json", SS_EXPORT_CHROME, NULL},
	    {"intervals.csv", SS_EXPORT_CSV, NULL},   {"gantt.svg", SS_EXPORT_SVG, NULL},
	    {"summary.txt", SS_EXPORT_TEXT, NULL},    {"screen.txt", -1, screen_text},
	    {"screen.ansi", -1, screen_ansi},
	};
	struct ss_export_input local = *in;
	struct ss_analysis tmp;
	struct atomic_dir ad;
	char name[256];

	if (atomic_dir_open(&ad, parent_dir, cause) != 0)
		return -1;
	local.a = export_input_analysis(in, &tmp);
	local.screen_text = NULL; /* summary.txt is the summary; the screen goes to screen.txt */
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *path;
		int rc;

		if (files[i].format < 0 && files[i].text == NULL)
			continue;
		path = xasprintf("%s/%s", ad.tmp, files[i].name);
		rc = files[i].format >= 0 ? export_writers[files[i].format](path, &local, cause)
		                          : atomic_write_text(path, files[i].text, cause);
		free(path);
		if (rc != 0)
			goto fail;
	}
	export_dir_name(in, (long long)time(NULL), name, sizeof name);
	return atomic_dir_commit(&ad, name, out_dir, out_len, cause);

fail:
	atomic_dir_abort(&ad);
	return -1;
}
