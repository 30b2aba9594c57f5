/* import_sqlite.c: Nsight Systems SQLite exports and streamscope's own SQLite traces into a timeline.
 *
 * Both share the nsys table layout (streamscope writes the nsys schema plus "ss" columns), so one reader serves
 * both: for each activity table present, the columns it has decide the query, and the ss* columns, when there,
 * override what the nsys columns imply. Names are StringIds ids, each looked up once per table and interned into
 * the timeline (cheaper than a per-row join). Files are opened read-only with immutable=1 (no locks, no journal,
 * no -wal/-shm files), read (not mapped: import_sqlite_open), and with SQLite's defensive settings: no triggers,
 * no views, untrusted schema, virtual tables ignored. A file that changes while it is read is refused. */
#include "io/import/import_sqlite.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/idmap.h"
#include "core/xalloc.h"
#include "io/import/importer.h"

/* Longest string or blob SQLite hands us from a hostile file. */
#define IMPORT_SQLITE_MAX_LENGTH (16 * 1024 * 1024)

/* Where the columns of one activity table come from. NULL entries are optional columns tried in order. */
struct import_sqlite_table {
	const char *name;
	int kind;              /* record kind, -1: from copyKind */
	bool host;             /* host-side (stream = SS_STREAM_HOST unless ssStream says otherwise) */
	const char *stream[2]; /* raw stream id */
	const char *corr[2];   /* correlation id */
	const char *bytes[2];
	const char *names[4]; /* StringIds id columns, in order of preference */
	const char *text;     /* inline text column */
	const char *tid;      /* serialized global thread id */
	const char *type;     /* copyKind, syncType, eventType */
	const char *mem[2];   /* srcKind/dstKind, memKind */
};

static const struct import_sqlite_table import_sqlite_tables[] = {
    {"CUPTI_ACTIVITY_KIND_MEMCPY",
     -1,
     false,
     {"streamId"},
     {"correlationId"},
     {"bytes"},
     {"ssNameId"},
     NULL,
     NULL,
     "copyKind",
     {"srcKind", "dstKind"}},
    {"CUPTI_ACTIVITY_KIND_MEMSET",
     SS_KIND_MEMSET,
     false,
     {"streamId"},
     {"correlationId"},
     {"bytes"},
     {"ssNameId"},
     NULL,
     NULL,
     NULL,
     {"memKind"}},
    {"CUPTI_ACTIVITY_KIND_KERNEL",
     SS_KIND_KERNEL,
     false,
     {"streamId"},
     {"correlationId"},
     {"ssBytes"},
     {"shortName", "demangledName", "mangledName"},
     NULL,
     NULL,
     NULL,
     {NULL}},
    {"CUPTI_ACTIVITY_KIND_RUNTIME",
     SS_KIND_API,
     true,
     {"ssRawStream"},
     {"correlationId"},
     {"ssBytes"},
     {"nameId"},
     NULL,
     "globalTid",
     NULL,
     {NULL}},
    {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
     SS_KIND_SYNC,
     true,
     {"streamId"},
     {"correlationId"},
     {"ssBytes"},
     {"ssNameId"},
     NULL,
     "globalTid",
     "syncType",
     {NULL}},
    {"NVTX_EVENTS",
     SS_KIND_MARKER,
     true,
     {"ssRawStream"},
     {"ssCorrelation"},
     {"ssBytes"},
     {"textId"},
     "text",
     "globalTid",
     "eventType",
     {NULL}},
};

#define IMPORT_SQLITE_NTABLES (sizeof import_sqlite_tables / sizeof import_sqlite_tables[0])

/* Result columns of the per-table query. */
enum {
	COL_START = 0,
	COL_END,
	COL_STREAM,
	COL_CORR,
	COL_BYTES,
	COL_NAMEID,
	COL_TEXT,
	COL_TID,
	COL_TYPE,
	COL_MEM1,
	COL_MEM2,
	COL_SSKIND,
	COL_SSSTREAM,
	COL_SSTHREAD,
	COL_SSFLAGS,
	COL_DEVICE, /* deviceId of GPU tables */
	COL_SRCDEV, /* srcDeviceId of copies (peer copies' source) */
	COL_DSTDEV, /* dstDeviceId */
	COL_COUNT
};

/* Marks a StringIds id that the file does not define (the row's inline text, if any, names it). */
#define IMPORT_SQLITE_NO_STRING UINT32_MAX

/* Memory kind ids named in copy names (nsys numbers 0..7). */
#define IMPORT_SQLITE_MEM_KINDS 16

/* An import in progress. */
struct import_sqlite_ctx {
	sqlite3 *db;
	const char *path;
	char **cause;
	int fd;               /* path opened once more, to see at the end whether it changed meanwhile; -1: not */
	struct stat st;       /* fd's when opened */
	bool has_strings;     /* StringIds with id and value */
	sqlite3_stmt *string; /* SELECT value FROM StringIds WHERE id = ?1 */
	struct idmap names;   /* StringIds id -> timeline name id (or IMPORT_SQLITE_NO_STRING), per table */
	int mem_pageable, mem_pinned, mem_managed, mem_managed_static; /* ENUM_CUDA_MEM_KIND ids */
	const char *mem_name[IMPORT_SQLITE_MEM_KINDS]; /* ENUM_CUDA_MEM_KIND id -> "Pinned", ...; NULL: not known */
	uint64_t total_ns; /* the durations of the rows read so far, added up (at most SS_IMPORT_MAX_TOTAL_NS) */
};

static int import_sqlite_fail(struct import_sqlite_ctx *c, const char *what)
{
	*c->cause = xasprintf("%s: %s: %s", c->path, what, c->db != NULL ? sqlite3_errmsg(c->db) : "out of memory");
	return -1;
}

/* import_sqlite_uri makes "file:PATH?immutable=1" with PATH percent-encoded. */
static char *import_sqlite_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(path);
	char *uri = xmalloc(len * 3 + 32), *p = uri;

	p += sprintf(p, "file:");
	for (const unsigned char *s = (const unsigned char *)path; *s != '\0'; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    strchr("/-._~", *s) != NULL) {
			*p++ = (char)*s;
		} else {
			*p++ = '%';
			*p++ = hex[*s >> 4];
			*p++ = hex[*s & 15];
		}
	}
	sprintf(p, "?immutable=1");
	return uri;
}

/* import_sqlite_open opens path read-only and checks it is a database. */
static int import_sqlite_open(struct import_sqlite_ctx *c)
{
	char *uri = import_sqlite_uri(c->path);
	int rc;

	rc = sqlite3_open_v2(uri, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return import_sqlite_fail(c, "cannot open");
	sqlite3_db_config(c->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(c->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
#ifdef SQLITE_DBCONFIG_ENABLE_VIEW
	sqlite3_db_config(c->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
#endif
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
	sqlite3_db_config(c->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
#endif
	sqlite3_limit(c->db, SQLITE_LIMIT_LENGTH, IMPORT_SQLITE_MAX_LENGTH);
	/* no mmap: a file that shrinks under a mapping kills the reader with SIGBUS, where a read fails (and mapped
	 * was no faster: 0.22 against 0.23 s for a 25 MB trace of 590,000 records) */
	if (sqlite3_exec(c->db, "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0; SELECT count(*) FROM sqlite_master",
	                 NULL, NULL, NULL) != SQLITE_OK)
		return import_sqlite_fail(c, "not a readable SQLite database");
	return 0;
}

/* import_sqlite_has_table says whether a table of that name exists: a plain one, not a view or a virtual table
 * (whose module code a hostile file could reach). */
static bool import_sqlite_has_table(struct import_sqlite_ctx *c, const char *table)
{
	sqlite3_stmt *st = NULL;
	bool found = false;

	if (sqlite3_prepare_v2(c->db,
	                       "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1"
	                       " AND sql NOT LIKE 'CREATE VIRTUAL%'",
	                       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* import_sqlite_has_column says whether table has a column named col. */
static bool import_sqlite_has_column(struct import_sqlite_ctx *c, const char *table, const char *col)
{
	sqlite3_stmt *st = NULL;
	bool found = false;

	if (col == NULL)
		return false;
	if (sqlite3_prepare_v2(c->db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st, NULL) !=
	    SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* import_sqlite_select prepares sql, a query of table, into *st when the file has that table (import_sqlite_has_table:
 * asked first), its ncols columns cols and sql compiles on it; false, with *st NULL, otherwise. */
static bool import_sqlite_select(struct import_sqlite_ctx *c, const char *table, const char *const *cols, size_t ncols,
                                 const char *sql, sqlite3_stmt **st)
{
	*st = NULL;
	if (!import_sqlite_has_table(c, table))
		return false;
	for (size_t i = 0; i < ncols; i++)
		if (!import_sqlite_has_column(c, table, cols[i]))
			return false;
	if (sqlite3_prepare_v2(c->db, sql, -1, st, NULL) == SQLITE_OK)
		return true;
	sqlite3_finalize(*st);
	*st = NULL;
	return false;
}

/* import_sqlite_first returns the first of the candidate columns table has, NULL when none. */
static const char *import_sqlite_first(struct import_sqlite_ctx *c, const char *table, const char *const *cands, int n)
{
	for (int i = 0; i < n; i++)
		if (cands[i] != NULL && import_sqlite_has_column(c, table, cands[i]))
			return cands[i];
	return NULL;
}

/* import_sqlite_mem_kinds reads the ids of ENUM_CUDA_MEM_KIND (nsys numbers them 0 = pageable, 1 = pinned,
 * 4 = managed; older or other exports may differ, so the table wins when present). */
static void import_sqlite_mem_kinds(struct import_sqlite_ctx *c)
{
	/* the words CUPTI's copy names use (cupti_convert), by the suffix of the enum's name */
	static const struct {
		const char *suffix, *name;
	} words[] = {{"_PAGEABLE", "Pageable"}, {"_PINNED", "Pinned"},  {"_DEVICE_STATIC", "Device Static"},
	             {"_DEVICE", "Device"},     {"_ARRAY", "Array"},    {"_MANAGED_STATIC", "Managed Static"},
	             {"_MANAGED", "Managed"},   {"_UNKNOWN", "Unknown"}};
	sqlite3_stmt *st = NULL;

	c->mem_pageable = 0;
	c->mem_pinned = 1;
	c->mem_managed = 4;
	c->mem_managed_static = 6;
	for (int i = 0; i < IMPORT_SQLITE_MEM_KINDS; i++)
		c->mem_name[i] = NULL;
	/* nsys's numbering, where the file has no ENUM_CUDA_MEM_KIND */
	c->mem_name[0] = "Pageable";
	c->mem_name[1] = "Pinned";
	c->mem_name[2] = "Device";
	c->mem_name[3] = "Array";
	c->mem_name[4] = "Managed";
	c->mem_name[5] = "Device Static";
	c->mem_name[6] = "Managed Static";
	c->mem_name[7] = "Unknown";
	if (!import_sqlite_select(c, "ENUM_CUDA_MEM_KIND", NULL, 0, "SELECT id, name FROM ENUM_CUDA_MEM_KIND", &st))
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		int id = sqlite3_column_int(st, 0);
		size_t len;

		if (name == NULL)
			continue;
		len = strlen(name);
#define ENDS(s) (len >= strlen(s) && strcmp(name + len - strlen(s), s) == 0)
		for (size_t i = 0; i < sizeof words / sizeof words[0] && id >= 0 && id < IMPORT_SQLITE_MEM_KINDS; i++)
			if (ENDS(words[i].suffix)) {
				c->mem_name[id] = words[i].name;
				break;
			}
		if (ENDS("_PAGEABLE"))
			c->mem_pageable = id;
		else if (ENDS("_PINNED"))
			c->mem_pinned = id;
		else if (ENDS("_MANAGED_STATIC"))
			c->mem_managed_static = id;
		else if (ENDS("_MANAGED"))
			c->mem_managed = id;
#undef ENDS
	}
	sqlite3_finalize(st);
}

/* import_sqlite_mem_flags turns a memory kind into record flags. */
static unsigned import_sqlite_mem_flags(const struct import_sqlite_ctx *c, sqlite3_stmt *st, int col)
{
	int k;

	if (sqlite3_column_type(st, col) != SQLITE_INTEGER)
		return 0;
	k = sqlite3_column_int(st, col);
	if (k == c->mem_pageable)
		return SS_REC_PAGEABLE;
	if (k == c->mem_pinned)
		return SS_REC_PINNED;
	if (k == c->mem_managed || k == c->mem_managed_static)
		return SS_REC_MANAGED;
	return 0;
}

/* import_sqlite_mem_name names the memory kind in column col of st ("Pinned"), NULL when it is not known. */
static const char *import_sqlite_mem_name(const struct import_sqlite_ctx *c, sqlite3_stmt *st, const int *type, int col)
{
	sqlite3_int64 k;

	if (type[col] != SQLITE_INTEGER)
		return NULL;
	k = sqlite3_column_int64(st, col);
	return k >= 0 && k < IMPORT_SQLITE_MEM_KINDS ? c->mem_name[k] : NULL;
}

/* import_sqlite_copy_name names a copy or memset of a foreign file, whose rows have no name, as CUPTI's records
 * are named (cupti_convert): "Memcpy HtoD (Pinned -> Device)", "Memset (Device)"; copy is its copyKind. */
static void import_sqlite_copy_name(const struct import_sqlite_ctx *c, sqlite3_stmt *st, const int *type, bool memset,
                                    sqlite3_int64 copy, char *buf, size_t len)
{
	static const char *const dir[] = {"",     "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
	                                  "DtoA", "DtoD", "HtoH", "PtoP", "HtoD", "DtoH", "DtoD"};
	const char *a = import_sqlite_mem_name(c, st, type, COL_MEM1);
	const char *b = import_sqlite_mem_name(c, st, type, COL_MEM2);
	const char *d = copy > 0 && copy < (sqlite3_int64)(sizeof dir / sizeof dir[0]) ? dir[copy] : "";

	if (memset && a != NULL)
		snprintf(buf, len, "Memset (%s)", a);
	else if (memset)
		snprintf(buf, len, "Memset");
	else if (a != NULL && b != NULL)
		snprintf(buf, len, "Memcpy%s%s (%s -> %s)", *d ? " " : "", d, a, b);
	else
		snprintf(buf, len, "Memcpy%s%s", *d ? " " : "", d);
}

/* import_sqlite_copy_kind maps a CUPTI copyKind to a record kind (and MANAGED for unified-memory copies). */
static int import_sqlite_copy_kind(sqlite3_int64 copy, unsigned *flags)
{
	switch (copy) {
	case 1: /* HTOD */
	case 3: /* HTOA */
		return SS_KIND_H2D;
	case 2: /* DTOH */
	case 4: /* ATOH */
		return SS_KIND_D2H;
	case 11:
		*flags |= SS_REC_MANAGED;
		return SS_KIND_H2D;
	case 12:
		*flags |= SS_REC_MANAGED;
		return SS_KIND_D2H;
	case 13:
		*flags |= SS_REC_MANAGED;
		return SS_KIND_D2D;
	default: /* DTOD, ATOA, ATOD, DTOA, HTOH, PTOP, unknown */
		return SS_KIND_D2D;
	}
}

static const char *import_sqlite_sync_label(sqlite3_int64 type)
{
	static const char *const labels[] = {"Unknown sync", "Event sync", "Stream wait event", "Stream sync",
	                                     "Context sync"};

	return type >= 0 && type < 5 ? labels[type] : "Synchronization";
}

/* import_sqlite_int reads an optional integer column (whose type is type) into *v: 0 when NULL, -1 (with *cause)
 * when the column holds something that is not an integer or lies outside [lo, hi]. */
static int import_sqlite_int(struct import_sqlite_ctx *c, sqlite3_stmt *st, int col, int type, const char *table,
                             const char *what, long long row, sqlite3_int64 lo, sqlite3_int64 hi, sqlite3_int64 *v)
{
	*v = 0;
	if (type == SQLITE_NULL)
		return 0;
	if (type != SQLITE_INTEGER) {
		*c->cause = xasprintf("%s: %s row %lld: %s is not an integer", c->path, table, row, what);
		return -1;
	}
	*v = sqlite3_column_int64(st, col);
	if (*v < lo || *v > hi) {
		*c->cause = xasprintf("%s: %s row %lld: %s %lld out of range [%lld, %lld]", c->path, table, row, what,
		                      (long long)*v, (long long)lo, (long long)hi);
		return -1;
	}
	return 0;
}

/* import_sqlite_device sets r's device from the row's deviceId (ids past 255 read as 255) and, for a copy of copyKind
 * 10 (PTOP) whose srcDeviceId and dstDeviceId differ, marks it a peer copy (SS_REC_PEER, the other end in r->peer,
 * SS_REC_PEER_IN when it flows into deviceId). 0, or -1 with *cause for a column that is not a device id. */
static int import_sqlite_device(struct import_sqlite_ctx *c, sqlite3_stmt *st, const int *type, const char *table,
                                long long row, sqlite3_int64 copy, struct ss_record *r)
{
	sqlite3_int64 dev, src, dst;

	if (import_sqlite_int(c, st, COL_DEVICE, type[COL_DEVICE], table, "deviceId", row, 0, UINT32_MAX, &dev) != 0 ||
	    import_sqlite_int(c, st, COL_SRCDEV, type[COL_SRCDEV], table, "srcDeviceId", row, 0, UINT32_MAX, &src) !=
	        0 ||
	    import_sqlite_int(c, st, COL_DSTDEV, type[COL_DSTDEV], table, "dstDeviceId", row, 0, UINT32_MAX, &dst) != 0)
		return -1;
	r->device = (uint8_t)(dev > UINT8_MAX ? UINT8_MAX : dev);
	r->flags &= (uint8_t) ~(SS_REC_PEER | SS_REC_PEER_IN);
	r->peer = 0;
	if (copy == 10 && type[COL_SRCDEV] == SQLITE_INTEGER && type[COL_DSTDEV] == SQLITE_INTEGER && src != dst) {
		bool in = dst == dev;

		r->flags |= SS_REC_PEER | (in ? SS_REC_PEER_IN : 0);
		r->peer = (uint8_t)((in ? src : dst) > UINT8_MAX ? UINT8_MAX : (in ? src : dst));
	}
	return 0;
}

/* What import_sqlite_times says is valid. */
#define IMPORT_SQLITE_VALID_TIMES "valid: 0 <= start <= end <= " SS_IMPORT_MAX_NS_TEXT ", 2^62, about 146 years"

/* import_sqlite_times checks the start and end of row (counted from 1) of table: 0 when
 * 0 <= start <= end <= SS_IMPORT_MAX_NS and the durations of the rows so far, this one's added to c->total_ns, stay
 * within SS_IMPORT_MAX_TOTAL_NS; else -1 with *cause naming the file, the table, the row, the value and what is valid
 * (such times are no real trace's, and their durations would overflow whatever sums them). */
static int import_sqlite_times(struct import_sqlite_ctx *c, const char *table, long long row, sqlite3_int64 start,
                               sqlite3_int64 end)
{
	const char *which = start < 0 || start > (sqlite3_int64)SS_IMPORT_MAX_NS ? "start" : "end";
	sqlite3_int64 v = which[0] == 's' ? start : end;

	if (v < 0) {
		*c->cause = xasprintf("%s: %s row %lld: negative timestamp %s %lld (" IMPORT_SQLITE_VALID_TIMES ")",
		                      c->path, table, row, which, (long long)v);
		return -1;
	}
	if (v > (sqlite3_int64)SS_IMPORT_MAX_NS) {
		*c->cause = xasprintf(
		    "%s: %s row %lld: absurd timestamp %s %lld, past any real trace's (" IMPORT_SQLITE_VALID_TIMES ")",
		    c->path, table, row, which, (long long)v);
		return -1;
	}
	if (end < start) {
		*c->cause = xasprintf(
		    "%s: %s row %lld: negative duration (start %lld > end %lld; " IMPORT_SQLITE_VALID_TIMES ")",
		    c->path, table, row, (long long)start, (long long)end);
		return -1;
	}
	/* at most 2^63 - 1 + 2^62: no wrap */
	c->total_ns += (uint64_t)(end - start);
	if (c->total_ns > SS_IMPORT_MAX_TOTAL_NS) {
		*c->cause = xasprintf("%s: %s row %lld: the durations up to here add up to %llu ns, more than any real "
		                      "trace's (" SS_IMPORT_MAX_TOTAL_TEXT ")",
		                      c->path, table, row, (unsigned long long)c->total_ns);
		return -1;
	}
	return 0;
}

/* import_sqlite_query builds the SELECT for table tb from the columns it has (absent ones are NULL, and have[]
 * says which are real); NULL (with *cause) when a required column is missing. */
static char *import_sqlite_query(struct import_sqlite_ctx *c, const struct import_sqlite_table *tb, bool *have)
{
	const char *col[COL_COUNT] = {"start", "end"};
	static const char *const ss[4] = {"ssKind", "ssStream", "ssThread", "ssFlags"};
	char *sql, *p;

	if (!import_sqlite_has_column(c, tb->name, "start") || !import_sqlite_has_column(c, tb->name, "end")) {
		*c->cause = xasprintf("%s: table %s has no %s column", c->path, tb->name,
		                      import_sqlite_has_column(c, tb->name, "start") ? "end" : "start");
		return NULL;
	}
	col[COL_STREAM] = import_sqlite_first(c, tb->name, tb->stream, 2);
	col[COL_CORR] = import_sqlite_first(c, tb->name, tb->corr, 2);
	col[COL_BYTES] = import_sqlite_first(c, tb->name, tb->bytes, 2);
	col[COL_NAMEID] = c->has_strings ? import_sqlite_first(c, tb->name, tb->names, 4) : NULL;
	col[COL_TEXT] = import_sqlite_first(c, tb->name, &tb->text, 1);
	col[COL_TID] = import_sqlite_first(c, tb->name, &tb->tid, 1);
	col[COL_TYPE] = import_sqlite_first(c, tb->name, &tb->type, 1);
	col[COL_MEM1] = import_sqlite_first(c, tb->name, &tb->mem[0], 1);
	col[COL_MEM2] = import_sqlite_first(c, tb->name, &tb->mem[1], 1);
	for (int i = 0; i < 4; i++)
		col[COL_SSKIND + i] = import_sqlite_first(c, tb->name, &ss[i], 1);
	if (!tb->host) {
		static const char *const dev[3] = {"deviceId", "srcDeviceId", "dstDeviceId"};

		col[COL_DEVICE] = import_sqlite_first(c, tb->name, &dev[0], 1);
		if (tb->kind == -1) {
			col[COL_SRCDEV] = import_sqlite_first(c, tb->name, &dev[1], 1);
			col[COL_DSTDEV] = import_sqlite_first(c, tb->name, &dev[2], 1);
		}
	}
	/* streamscope's own tables carry thread and flags exactly: the nsys columns they override go unread */
	if (col[COL_SSTHREAD] != NULL)
		col[COL_TID] = NULL;
	if (col[COL_SSFLAGS] != NULL)
		col[COL_MEM1] = col[COL_MEM2] = NULL;
	if (tb->kind == -1 && col[COL_TYPE] == NULL) {
		*c->cause = xasprintf("%s: table %s has no copyKind column", c->path, tb->name);
		return NULL;
	}
	if (!tb->host && col[COL_STREAM] == NULL) {
		*c->cause = xasprintf("%s: table %s has no streamId column", c->path, tb->name);
		return NULL;
	}
	sql = xmalloc(64 + strlen(tb->name) + COL_COUNT * 24);
	p = sql + sprintf(sql, "SELECT ");
	for (int i = 0; i < COL_COUNT; i++) {
		have[i] = col[i] != NULL;
		p += sprintf(p, have[i] ? "%s\"%s\"" : "%sNULL", i > 0 ? ", " : "", col[i]);
	}
	sprintf(p, " FROM \"%s\"", tb->name);
	return sql;
}

/* import_sqlite_name sets *id to the timeline id of a row's name: the StringIds string of its name id (looked up
 * once per id and table), else its inline text; strip drops API version suffixes (foreign traces). 0, or -1 with
 * *cause when StringIds cannot be read. */
static int import_sqlite_name(struct import_sqlite_ctx *c, sqlite3_stmt *st, const int *type, bool strip,
                              struct ss_timeline *t, uint32_t *id)
{
	const char *text;
	char buf[512];

	*id = 0;
	if (type[COL_NAMEID] == SQLITE_INTEGER) {
		sqlite3_int64 sid = sqlite3_column_int64(st, COL_NAMEID);

		if (!idmap_get(&c->names, (uint64_t)sid, id)) {
			sqlite3_bind_int64(c->string, 1, sid);
			if (sqlite3_step(c->string) == SQLITE_ROW && sqlite3_column_type(c->string, 0) != SQLITE_NULL) {
				text = (const char *)sqlite3_column_text(c->string, 0);
				if (text == NULL) {
					sqlite3_reset(c->string);
					*c->cause =
					    xasprintf("%s: cannot read StringIds: %s", c->path, sqlite3_errmsg(c->db));
					return -1;
				}
				if (strip) {
					snprintf(buf, sizeof buf, "%s", text);
					importer_strip_version(buf);
					text = buf;
				}
				*id = timeline_intern(t, text);
			} else {
				*id = IMPORT_SQLITE_NO_STRING;
			}
			sqlite3_reset(c->string);
			idmap_put(&c->names, (uint64_t)sid, *id);
		}
		if (*id != IMPORT_SQLITE_NO_STRING)
			return 0;
		*id = 0;
	}
	if (type[COL_TEXT] != SQLITE_NULL && (text = (const char *)sqlite3_column_text(st, COL_TEXT)) != NULL)
		*id = timeline_intern(t, text);
	return 0;
}

/* import_sqlite_table reads the rows of one activity table into t. */
static int import_sqlite_table(struct import_sqlite_ctx *c, const struct import_sqlite_table *tb, struct ss_timeline *t)
{
	bool have[COL_COUNT];
	char *sql = import_sqlite_query(c, tb, have);
	sqlite3_stmt *st = NULL;
	long long row = 0;
	int rc;

	if (sql == NULL)
		return -1;
	rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK) {
		*c->cause = xasprintf("%s: cannot read %s: %s", c->path, tb->name, sqlite3_errmsg(c->db));
		return -1;
	}
	idmap_free(&c->names);
	idmap_init(&c->names);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ss_record r = {0};
		sqlite3_int64 start, end, v, type_value;
		int type[COL_COUNT];
		unsigned flags = 0;
		bool own;

		row++;
		for (int i = 0; i < COL_COUNT; i++)
			type[i] = have[i] ? sqlite3_column_type(st, i) : SQLITE_NULL;
		own = type[COL_SSKIND] != SQLITE_NULL;
		if (t->n >= SS_IMPORT_MAX_RECORDS) {
			*c->cause = xasprintf("%s: more than %u records", c->path, SS_IMPORT_MAX_RECORDS);
			goto fail;
		}
		if (type[COL_END] == SQLITE_NULL && tb->kind == SS_KIND_MARKER)
			continue; /* an NVTX mark or an unterminated range: not an interval */
		if (type[COL_START] != SQLITE_INTEGER || type[COL_END] != SQLITE_INTEGER) {
			*c->cause = xasprintf("%s: %s row %lld: %s is not an integer timestamp", c->path, tb->name, row,
			                      type[COL_START] != SQLITE_INTEGER ? "start" : "end");
			goto fail;
		}
		start = sqlite3_column_int64(st, COL_START);
		end = sqlite3_column_int64(st, COL_END);
		if (import_sqlite_times(c, tb->name, row, start, end) != 0)
			goto fail;
		if (import_sqlite_int(c, st, COL_TYPE, type[COL_TYPE], tb->name, tb->type ? tb->type : "type", row,
		                      INT32_MIN, INT32_MAX, &type_value) != 0)
			goto fail;
		if (tb->kind == SS_KIND_MARKER && !own && type[COL_TYPE] != SQLITE_NULL && type_value != 59 &&
		    type_value != 60)
			continue; /* NVTX marks, domains, categories: not ranges */
		r.start = (uint64_t)start;
		r.end = (uint64_t)end;
		if (import_sqlite_int(c, st, COL_STREAM, type[COL_STREAM], tb->name, "stream id", row, 0, UINT32_MAX,
		                      &v) != 0)
			goto fail;
		r.raw_stream = (uint32_t)v;
		if (import_sqlite_int(c, st, COL_CORR, type[COL_CORR], tb->name, "correlation id", row, 0, UINT32_MAX,
		                      &v) != 0)
			goto fail;
		r.correlation = (uint32_t)v;
		if (import_sqlite_int(c, st, COL_BYTES, type[COL_BYTES], tb->name, "bytes", row, 0, INT64_MAX, &v) != 0)
			goto fail;
		r.bytes = (uint64_t)v;
		if (import_sqlite_int(c, st, COL_TID, type[COL_TID], tb->name, "globalTid", row, INT64_MIN, INT64_MAX,
		                      &v) != 0)
			goto fail;
		r.thread = (uint32_t)((uint64_t)v & 0xffffffu);
		r.kind = (uint8_t)(tb->kind >= 0 ? tb->kind : import_sqlite_copy_kind(type_value, &flags));
		if (tb->kind == -1 || tb->kind == SS_KIND_MEMSET)
			flags |= import_sqlite_mem_flags(c, st, COL_MEM1) | import_sqlite_mem_flags(c, st, COL_MEM2);
		/* pinned on one side and device on the other is a pinned copy; pageable anywhere wins */
		if (flags & SS_REC_PAGEABLE)
			flags &= ~SS_REC_PINNED;
		r.flags = (uint8_t)flags;
		r.stream = tb->host ? SS_STREAM_HOST : SS_STREAM_PENDING;
		/* streamscope's own columns win */
		if (own) {
			if (import_sqlite_int(c, st, COL_SSKIND, type[COL_SSKIND], tb->name, "ssKind", row, 0,
			                      SS_KIND_COUNT - 1, &v) != 0)
				goto fail;
			r.kind = (uint8_t)v;
		}
		if (type[COL_SSSTREAM] != SQLITE_NULL) {
			if (import_sqlite_int(c, st, COL_SSSTREAM, type[COL_SSSTREAM], tb->name, "ssStream", row,
			                      SS_STREAM_UNKNOWN, SS_IMPORT_MAX_STREAMS - 1, &v) != 0)
				goto fail;
			r.stream = (int32_t)v;
		}
		if (type[COL_SSTHREAD] != SQLITE_NULL) {
			if (import_sqlite_int(c, st, COL_SSTHREAD, type[COL_SSTHREAD], tb->name, "ssThread", row, 0,
			                      UINT32_MAX, &v) != 0)
				goto fail;
			r.thread = (uint32_t)v;
		}
		if (type[COL_SSFLAGS] != SQLITE_NULL) {
			if (import_sqlite_int(c, st, COL_SSFLAGS, type[COL_SSFLAGS], tb->name, "ssFlags", row, 0, 255,
			                      &v) != 0)
				goto fail;
			r.flags = (uint8_t)v;
		}
		if (import_sqlite_device(c, st, type, tb->name, row, type_value, &r) != 0)
			goto fail;
		if (import_sqlite_name(c, st, type, tb->kind == SS_KIND_API && !own, t, &r.name) != 0)
			goto fail;
		if (r.name == 0 && tb->kind == SS_KIND_SYNC && !own)
			r.name = timeline_intern(t, import_sqlite_sync_label(type_value));
		if (r.name == 0 && (tb->kind == -1 || tb->kind == SS_KIND_MEMSET) && !own) {
			char copy[96];

			import_sqlite_copy_name(c, st, type, tb->kind == SS_KIND_MEMSET, type_value, copy, sizeof copy);
			r.name = timeline_intern(t, copy);
		}
		timeline_add(t, &r);
	}
	if (rc != SQLITE_DONE) {
		*c->cause = xasprintf("%s: cannot read %s: %s", c->path, tb->name, sqlite3_errmsg(c->db));
		goto fail;
	}
	sqlite3_finalize(st);
	return 0;

fail:
	sqlite3_finalize(st);
	return -1;
}

/* import_sqlite_count adds the rows of table to *total. */
static int import_sqlite_count(struct import_sqlite_ctx *c, const char *table, uint64_t *total)
{
	char *sql = xasprintf("SELECT count(*) FROM \"%s\"", table);
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
	free(sql);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		*total += (uint64_t)sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		return 0;
	}
	*c->cause = xasprintf("%s: cannot read %s: %s", c->path, table, sqlite3_errmsg(c->db));
	sqlite3_finalize(st);
	return -1;
}

/* import_sqlite_meta_get returns a new string with the value of name in STREAMSCOPE_META, NULL when absent. */
static char *import_sqlite_meta_get(struct import_sqlite_ctx *c, const char *name)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;

	if (sqlite3_prepare_v2(c->db, "SELECT value FROM STREAMSCOPE_META WHERE name = ?1", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* import_sqlite_devices describes each device of TARGET_INFO_GPU (its id, name, uuid and copy engines, where the
 * file has those columns) in t's device table; rows of ids past the table are left out. */
static void import_sqlite_devices(struct import_sqlite_ctx *c, struct ss_timeline *t)
{
	static const char *const cols[] = {"id", "name", "uuid", "asyncEngines"};
	sqlite3_stmt *st = NULL;

	if (!import_sqlite_select(c, "TARGET_INFO_GPU", cols, 4,
	                          "SELECT id, name, uuid, asyncEngines FROM TARGET_INFO_GPU", &st) &&
	    !import_sqlite_select(c, "TARGET_INFO_GPU", cols, 3, "SELECT id, name, uuid, NULL FROM TARGET_INFO_GPU",
	                          &st) &&
	    !import_sqlite_select(c, "TARGET_INFO_GPU", cols, 2, "SELECT id, name, NULL, NULL FROM TARGET_INFO_GPU",
	                          &st))
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *uuid = (const char *)sqlite3_column_text(st, 2);
		sqlite3_int64 id;

		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER)
			continue;
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id >= SS_TIMELINE_MAX_DEVICES)
			continue;
		timeline_set_device(t, (int)id, name, uuid, 0);
		if (sqlite3_column_type(st, 3) == SQLITE_INTEGER && sqlite3_column_int64(st, 3) >= 1 &&
		    sqlite3_column_int64(st, 3) <= 64)
			timeline_set_copy_engines(t, (int)id, (int)sqlite3_column_int64(st, 3));
	}
	sqlite3_finalize(st);
}

/* import_sqlite_labels fills the device name and, for streamscope's own files, the run's labels. */
static void import_sqlite_labels(struct import_sqlite_ctx *c, struct ss_timeline *t, bool own)
{
	static const char *const name_col[] = {"name"};
	sqlite3_stmt *st = NULL;
	char *v;

	if (import_sqlite_select(c, "TARGET_INFO_GPU", name_col, 1,
	                         "SELECT DISTINCT name FROM TARGET_INFO_GPU WHERE name IS NOT NULL AND name <> ''",
	                         &st)) {
		int n = 0;

		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 0);

			if (n++ == 0 && name != NULL)
				snprintf(t->device, sizeof t->device, "%s", name);
		}
		if (n > 1) {
			size_t len = strlen(t->device);

			snprintf(t->device + len, sizeof t->device - len, " (+%d more)", n - 1);
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	import_sqlite_devices(c, t);
	if (!own)
		return;
	if ((v = import_sqlite_meta_get(c, "measurement")) != NULL) {
		t->modelled = strcmp(v, "MODELLED") == 0;
		free(v);
	}
	if ((v = import_sqlite_meta_get(c, "device")) != NULL) {
		snprintf(t->device, sizeof t->device, "%s", v);
		free(v);
	}
	if ((v = import_sqlite_meta_get(c, "nstreams")) != NULL) {
		long n = strtol(v, NULL, 10);

		t->nstreams = n > 0 && n <= SS_IMPORT_MAX_STREAMS ? (int)n : 0;
		free(v);
	}
	if ((v = import_sqlite_meta_get(c, "dropped")) != NULL) {
		t->dropped = strtoull(v, NULL, 10);
		free(v);
	}
	if ((v = import_sqlite_meta_get(c, "incomplete")) != NULL) {
		t->incomplete = strcmp(v, "1") == 0;
		free(v);
	}
	/* record --twin's wall-clock times: kept only as a pair of positive integers */
	{
		char *tr = import_sqlite_meta_get(c, "wallTracedNs"), *un = import_sqlite_meta_get(c, "wallUntracedNs");

		if (tr != NULL && un != NULL && strspn(tr, "0123456789") == strlen(tr) &&
		    strspn(un, "0123456789") == strlen(un) && strlen(tr) < 20 && strlen(un) < 20 &&
		    strtoull(tr, NULL, 10) > 0 && strtoull(un, NULL, 10) > 0) {
			t->wall_traced_ns = strtoull(tr, NULL, 10);
			t->wall_untraced_ns = strtoull(un, NULL, 10);
		}
		free(tr);
		free(un);
	}
	/* how its streams are named: files before the entry name a recording's by id, an experiment's s0.. */
	if ((v = import_sqlite_meta_get(c, "streamIds")) != NULL) {
		t->stream_ids = strcmp(v, "1") == 0;
		free(v);
	} else {
		uint64_t experiments = 0;
		char *cause = NULL, **keep = c->cause;

		c->cause = &cause;
		if (import_sqlite_has_table(c, "STREAMSCOPE_EXPERIMENT") &&
		    import_sqlite_count(c, "STREAMSCOPE_EXPERIMENT", &experiments) == 0)
			t->stream_ids = experiments == 0;
		free(cause);
		c->cause = keep;
	}
}

/* import_sqlite_stream_flags reads TARGET_INFO_CUDA_STREAM (Nsight Systems and ours) into flags: streamId ->
 * CUpti_ActivityStreamFlag 1 (default, blocking), 2 (non-blocking) or 3 (NULL stream); other rows, a missing table
 * or column are skipped (the kinds stay unknown). The first row of an id wins. */
static void import_sqlite_stream_flags(struct import_sqlite_ctx *c, struct idmap *flags)
{
	static const char *const cols[] = {"streamId", "flag"};
	sqlite3_stmt *st = NULL;

	if (!import_sqlite_select(c, "TARGET_INFO_CUDA_STREAM", cols, 2,
	                          "SELECT streamId, flag FROM TARGET_INFO_CUDA_STREAM LIMIT 65536", &st))
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0), f = sqlite3_column_int64(st, 1);
		uint32_t old;

		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || sqlite3_column_type(st, 1) != SQLITE_INTEGER ||
		    id < 0 || id > UINT32_MAX || f < 1 || f > 3 || idmap_get(flags, (uint64_t)id, &old))
			continue;
		idmap_put(flags, (uint64_t)id, (uint32_t)f);
	}
	sqlite3_finalize(st);
}

/* import_sqlite_own_streams reads streamscope's STREAMSCOPE_STREAM (stream index, raw id, kind) into t's stream
 * table; rows out of range are skipped, an unknown kind reads as unknown. */
static void import_sqlite_own_streams(struct import_sqlite_ctx *c, struct ss_timeline *t)
{
	sqlite3_stmt *st = NULL;

	if (!import_sqlite_select(c, "STREAMSCOPE_STREAM", NULL, 0,
	                          "SELECT ssStream, streamId, kind FROM STREAMSCOPE_STREAM LIMIT 65536", &st))
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_int64 s = sqlite3_column_int64(st, 0), id = sqlite3_column_int64(st, 1);
		sqlite3_int64 k = sqlite3_column_int64(st, 2);

		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || s < 0 || s >= SS_IMPORT_MAX_STREAMS || id < 0 ||
		    id > UINT32_MAX)
			continue;
		timeline_set_stream(t, (int)s, (uint32_t)id, k >= 0 && k < SS_SKIND_COUNT ? (int)k : SS_SKIND_UNKNOWN);
	}
	sqlite3_finalize(st);
}

/* import_sqlite_apply_flags labels the stream indices importer_finish gave with the kind their raw id's
 * TARGET_INFO_CUDA_STREAM flag says (foreign files; flags is empty for streamscope's own). */
static void import_sqlite_apply_flags(struct ss_timeline *t, struct idmap *flags)
{
	static const int kind[4] = {SS_SKIND_UNKNOWN, SS_SKIND_BLOCKING, SS_SKIND_NONBLOCKING, SS_SKIND_LEGACY};

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint32_t f;

		if (r->stream < 0 || r->stream >= SS_IMPORT_MAX_STREAMS || r->kind >= SS_KIND_API ||
		    timeline_stream(t, r->stream) != NULL || !idmap_get(flags, r->raw_stream, &f) || f > 3)
			continue;
		timeline_set_stream(t, r->stream, r->raw_stream, kind[f]);
	}
}

/* import_sqlite_launches reads the kernels' launch details (grid, block, registers, shared memory: Nsight Systems'
 * columns, which streamscope writes too; the demangled name, where StringIds has it and it is not the short name:
 * full_name) into t's launch table, keyed as the kernel records are (correlationId,
 * streamId). Optional: a table without the columns adds nothing; a row whose values are not integers of 32 bits,
 * or whose grid or block is 0 (no launch has one: streamscope writes 0 where it did not know), is skipped.
 * Registers and shared memory are known (SS_LAUNCH_ATTRS) where registersPerThread is not 0: every kernel CUPTI
 * reports uses registers, and streamscope writes 0 where it did not know them (a model's run). Read in key order,
 * so that the table needs no sort. */
static void import_sqlite_launches(struct import_sqlite_ctx *c, struct ss_timeline *t)
{
	static const char *const col[] = {"correlationId",
	                                  "streamId",
	                                  "gridX",
	                                  "gridY",
	                                  "gridZ",
	                                  "blockX",
	                                  "blockY",
	                                  "blockZ",
	                                  "registersPerThread",
	                                  "staticSharedMemory",
	                                  "dynamicSharedMemory",
	                                  "demangledName",
	                                  "shortName"};
	const char *table = "CUPTI_ACTIVITY_KIND_KERNEL";
	sqlite3_stmt *st = NULL;

	if (!(c->has_strings &&
	      import_sqlite_select(
	          c, table, col, sizeof col / sizeof col[0],
	          "SELECT k.correlationId, k.streamId, k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY,"
	          " k.blockZ, k.registersPerThread, k.staticSharedMemory, k.dynamicSharedMemory, s.value, n.value"
	          " FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = k.demangledName"
	          " LEFT JOIN StringIds n ON n.id = k.shortName ORDER BY k.correlationId, k.streamId",
	          &st)) &&
	    !import_sqlite_select(c, table, col, sizeof col / sizeof col[0] - 2,
	                          "SELECT correlationId, streamId, gridX, gridY, gridZ, blockX, blockY, blockZ,"
	                          " registersPerThread, staticSharedMemory, dynamicSharedMemory, NULL, NULL"
	                          " FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY correlationId, streamId",
	                          &st))
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		uint32_t v[11];
		struct ss_launch l;
		bool ok = true;
		const char *full = (const char *)sqlite3_column_text(st, 11), *brief;

		for (int i = 0; i < 11 && ok; i++) {
			sqlite3_int64 x = sqlite3_column_int64(st, i);

			ok = sqlite3_column_type(st, i) == SQLITE_INTEGER && x >= 0 && x <= UINT32_MAX;
			v[i] = (uint32_t)x;
		}
		if (!ok || v[2] == 0 || v[5] == 0)
			continue;
		brief = (const char *)sqlite3_column_text(st, 12);
		if (full != NULL && brief != NULL && strcmp(full, brief) == 0)
			full = NULL; /* the record's own name (streamscope's exports write it to both columns) */
		l = (struct ss_launch){.correlation = v[0],
		                       .raw_stream = v[1],
		                       .grid = {v[2], v[3], v[4]},
		                       .block = {v[5], v[6], v[7]},
		                       .registers = v[8],
		                       .static_smem = v[9],
		                       .dynamic_smem = v[10],
		                       .flags = v[8] > 0 ? SS_LAUNCH_ATTRS : 0,
		                       .full_name = full != NULL && full[0] != '\0' ? timeline_intern(t, full) : 0};
		timeline_add_launch(t, &l);
	}
	sqlite3_finalize(st);
}

/* import_sqlite_watch opens c's file a second time, so that import_sqlite_changed can tell at the end whether it
 * changed while SQLite read it (SQLite, trusting an immutable file, would read zeros or half a table). */
static void import_sqlite_watch(struct import_sqlite_ctx *c)
{
	c->fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (c->fd >= 0 && fstat(c->fd, &c->st) != 0) {
		close(c->fd);
		c->fd = -1;
	}
}

/* import_sqlite_changed says whether c's file changed since import_sqlite_watch: then *c->cause says so (what it
 * held before is freed). Closes the watch. */
static bool import_sqlite_changed(struct import_sqlite_ctx *c)
{
	char *changed = NULL;
	bool yes;

	if (c->fd < 0)
		return false;
	yes = importer_unchanged(c->fd, c->path, &c->st, &changed) != 0;
	if (yes) {
		free(*c->cause);
		*c->cause = changed;
	}
	close(c->fd);
	c->fd = -1;
	return yes;
}

int import_sqlite(const char *path, struct ss_timeline *t, char **cause)
{
	struct import_sqlite_ctx c = {.path = path, .cause = cause, .fd = -1};
	bool present[IMPORT_SQLITE_NTABLES], any = false, own;
	struct idmap flags;
	uint64_t total = 0;
	int nstreams;

	importer_begin(t);
	*cause = NULL;
	import_sqlite_watch(&c);
	if (import_sqlite_open(&c) != 0)
		goto fail;
	importer_opened(path);
	for (size_t i = 0; i < IMPORT_SQLITE_NTABLES; i++) {
		present[i] = import_sqlite_has_table(&c, import_sqlite_tables[i].name);
		any |= present[i];
		if (present[i] && import_sqlite_count(&c, import_sqlite_tables[i].name, &total) != 0)
			goto fail;
	}
	if (!any) {
		*cause = xasprintf(
		    "%s: no CUDA activity tables (CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _RUNTIME, ...): not an "
		    "Nsight Systems or streamscope trace",
		    path);
		goto fail;
	}
	if (total > SS_IMPORT_MAX_RECORDS) {
		*cause = xasprintf("%s: %llu records, more than the %u streamscope opens", path,
		                   (unsigned long long)total, SS_IMPORT_MAX_RECORDS);
		goto fail;
	}
	own = import_sqlite_has_table(&c, "STREAMSCOPE_META");
	c.has_strings = import_sqlite_has_table(&c, "StringIds") && import_sqlite_has_column(&c, "StringIds", "id") &&
	                import_sqlite_has_column(&c, "StringIds", "value");
	import_sqlite_mem_kinds(&c);
	idmap_init(&c.names);
	if (c.has_strings &&
	    sqlite3_prepare_v2(c.db, "SELECT value FROM StringIds WHERE id = ?1", -1, &c.string, NULL) != SQLITE_OK) {
		import_sqlite_fail(&c, "cannot read StringIds");
		goto fail;
	}
	importer_reserve(t, (size_t)total);
	for (size_t i = 0; i < IMPORT_SQLITE_NTABLES; i++)
		if (present[i] && import_sqlite_table(&c, &import_sqlite_tables[i], t) != 0)
			goto fail;
	import_sqlite_labels(&c, t, own);
	import_sqlite_launches(&c, t);
	idmap_init(&flags);
	if (own) { /* STREAMSCOPE_STREAM, not the flags: older streamscope files wrote guessed ones */
		import_sqlite_own_streams(&c, t);
	} else {
		import_sqlite_stream_flags(&c, &flags);
		timeline_sync_threads(t); /* nsys's sync records have no thread: their API call's */
	}
	sqlite3_finalize(c.string);
	idmap_free(&c.names);
	sqlite3_close(c.db);
	if (import_sqlite_changed(&c)) {
		idmap_free(&flags);
		importer_begin(t);
		return importer_oneline(*cause);
	}
	nstreams = t->nstreams;
	importer_finish(t, path);
	if (own && nstreams > t->nstreams)
		t->nstreams = nstreams;
	import_sqlite_apply_flags(t, &flags);
	idmap_free(&flags);
	return 0;

fail:
	sqlite3_finalize(c.string);
	idmap_free(&c.names);
	sqlite3_close(c.db);
	import_sqlite_changed(&c); /* a file that changed: that is the message */
	importer_begin(t);
	return importer_oneline(*cause);
}

int import_sqlite_experiment(const char *path, struct ss_experiment *e, bool *own_work, char **cause)
{
	struct import_sqlite_ctx c = {.path = path, .cause = cause, .fd = -1};
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (own_work != NULL)
		*own_work = false;

	if (import_sqlite_open(&c) != 0) {
		sqlite3_close(c.db);
		return -1;
	}
	if (!import_sqlite_has_table(&c, "STREAMSCOPE_EXPERIMENT")) {
		sqlite3_close(c.db);
		return 0;
	}
	if (sqlite3_prepare_v2(
	        c.db,
	        "SELECT preset, streams, elements, chunks, elemSize, work, issueOrder, sync, defaultStream,"
	        " nonBlocking, hostMem, connections, threads, repeats, warmup FROM STREAMSCOPE_EXPERIMENT",
	        -1, &st, NULL) != SQLITE_OK) {
		import_sqlite_fail(&c, "cannot read STREAMSCOPE_EXPERIMENT");
		sqlite3_close(c.db);
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *preset = (const char *)sqlite3_column_text(st, 0);
		int p = preset != NULL ? experiment_preset_parse(preset) : -1;
		int v;

		if (p >= 0) {
			experiment_preset(e, (enum ss_preset)p);
			e->streams = sqlite3_column_int(st, 1);
			e->elements = (uint64_t)sqlite3_column_int64(st, 2);
			e->chunks = sqlite3_column_int(st, 3);
			e->elem_size = (uint32_t)sqlite3_column_int(st, 4);
			e->work = (uint32_t)sqlite3_column_int64(st, 5);
			if (sqlite3_column_text(st, 6) &&
			    (v = experiment_order_parse((const char *)sqlite3_column_text(st, 6))) >= 0)
				e->order = (enum ss_order)v;
			if (sqlite3_column_text(st, 7) &&
			    (v = experiment_sync_parse((const char *)sqlite3_column_text(st, 7))) >= 0)
				e->sync = (enum ss_sync)v;
			if (sqlite3_column_text(st, 8) &&
			    (v = experiment_defstream_parse((const char *)sqlite3_column_text(st, 8))) >= 0)
				e->defstream = (enum ss_defstream)v;
			e->nonblocking = sqlite3_column_int(st, 9) != 0;
			if (sqlite3_column_text(st, 10) &&
			    (v = experiment_hostmem_parse((const char *)sqlite3_column_text(st, 10))) >= 0)
				e->hostmem = (enum ss_hostmem)v;
			e->connections = sqlite3_column_int(st, 11);
			e->threads = sqlite3_column_int(st, 12);
			e->repeat = sqlite3_column_int(st, 13);
			e->warmup = sqlite3_column_int(st, 14);
			found = 1;
		}
	}
	sqlite3_finalize(st);
	/* added later: files without the column keep auto */
	if (found &&
	    sqlite3_prepare_v2(c.db, "SELECT prefetchEvents FROM STREAMSCOPE_EXPERIMENT", -1, &st, NULL) == SQLITE_OK) {
		int v;

		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL &&
		    (v = experiment_pfevents_parse((const char *)sqlite3_column_text(st, 0))) >= 0)
			e->prefetch_events = (enum ss_pfevents)v;
		sqlite3_finalize(st);
	}
	/* added later still: the step program, NULL for the preset's own work; files without it cannot say */
	if (found && own_work != NULL &&
	    sqlite3_prepare_v2(c.db, "SELECT program IS NULL FROM STREAMSCOPE_EXPERIMENT", -1, &st, NULL) ==
	        SQLITE_OK) {
		*own_work = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) != 0;
		sqlite3_finalize(st);
	}
	sqlite3_close(c.db);
	if (found && experiment_validate(e, cause) != 0) {
		char *inner = *cause;

		*cause = xasprintf("%s: stored experiment is invalid: %s", path, inner);
		free(inner);
		return -1;
	}
	return found;
}
