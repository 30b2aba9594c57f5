/* export_sqlite.c: the timeline as an SQLite database in the Nsight Systems export schema.
 *
 * Tables and columns are named as `nsys export --type sqlite` names them, so SQL written for nsys reports runs on
 * ours: CUPTI_ACTIVITY_KIND_{MEMCPY,MEMSET,KERNEL,RUNTIME,SYNCHRONIZATION}, NVTX_EVENTS, StringIds, the ENUM_*
 * tables they reference, TARGET_INFO_GPU, TARGET_INFO_CUDA_STREAM and META_DATA_EXPORT. Kernels' launch details
 * (grid, block, registers, shared memory) come from the timeline's launch table. Columns we cannot know hold 0
 * where nsys declares them NOT NULL and NULL otherwise. Each activity table has a
 * few extra columns prefixed "ss" (kind, experiment stream index, thread, flags, and name/bytes/stream/
 * correlation where nsys has no column for them) so that streamscope reads its own files back exactly; nsys
 * queries ignore them. The experiment, the backend (measured or modelled) and the analysis go to
 * STREAMSCOPE_META, STREAMSCOPE_EXPERIMENT and STREAMSCOPE_ANALYSIS; each labelled stream index (its CUPTI id and
 * enum ss_stream_kind, including the per-thread default streams CUPTI's flag cannot tell) to STREAMSCOPE_STREAM.
 *
 * Written in one transaction with prepared statements into a temporary file that is renamed into place. */
#include "io/export/export_sqlite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/atomic.h"
#include "core/vec.h"
#include "core/xalloc.h"

/* nsys ENUM_CUDA_MEM_KIND ids (nsys's own numbering, not CUPTI's). */
#define MEMKIND_PAGEABLE 0
#define MEMKIND_PINNED 1
#define MEMKIND_DEVICE 2
#define MEMKIND_MANAGED 4
#define MEMKIND_UNKNOWN 7

static const char export_sqlite_schema[] =
    "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_CUPTI_SYNC_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_CUPTI_STREAM_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_CUDA_KERNEL_LAUNCH_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_CUDA_FUNC_CACHE_CONFIG (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);"
    "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
    "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT,"
    " isDiscrete INTEGER, l2CacheSize INTEGER, totalMemory INTEGER, memoryBandwidth INTEGER, clockRate INTEGER,"
    " smCount INTEGER, pwGpuId INTEGER, uuid TEXT, luid INTEGER, chipName TEXT, cuDevice INTEGER,"
    " ctxswDevPath TEXT, ctrlDevPath TEXT, revision INTEGER, nodeMask INTEGER, constantMemory INTEGER,"
    " maxIPC INTEGER, maxRegistersPerBlock INTEGER, maxShmemPerBlock INTEGER, maxShmemPerBlockOptin INTEGER,"
    " maxShmemPerSm INTEGER, maxRegistersPerSm INTEGER, threadsPerWarp INTEGER, asyncEngines INTEGER,"
    " maxWarpsPerSm INTEGER, maxBlocksPerSm INTEGER, maxThreadsPerBlock INTEGER, maxBlockDimX INTEGER,"
    " maxBlockDimY INTEGER, maxBlockDimZ INTEGER, maxGridDimX INTEGER, maxGridDimY INTEGER, maxGridDimZ INTEGER,"
    " computeMajor INTEGER, computeMinor INTEGER, smMajor INTEGER, smMinor INTEGER);"
    "CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL,"
    " processId INTEGER NOT NULL, contextId INTEGER NOT NULL, priority INTEGER NOT NULL, flag INTEGER NOT NULL);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,"
    " eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,"
    " returnValue INTEGER NOT NULL, callchainId INTEGER,"
    " ssKind INTEGER, ssStream INTEGER, ssThread INTEGER, ssFlags INTEGER, ssRawStream INTEGER, ssBytes INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,"
    " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,"
    " correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL,"
    " deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER,"
    " dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER,"
    " virtualAddress INTEGER, copyCount INTEGER,"
    " ssKind INTEGER, ssStream INTEGER, ssThread INTEGER, ssFlags INTEGER, ssNameId INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,"
    " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,"
    " correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL,"
    " graphNodeId INTEGER, memKind INTEGER,"
    " ssKind INTEGER, ssStream INTEGER, ssThread INTEGER, ssFlags INTEGER, ssNameId INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
    " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,"
    " correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL,"
    " mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,"
    " gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,"
    " blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,"
    " dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL,"
    " localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER,"
    " graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER,"
    " ssKind INTEGER, ssStream INTEGER, ssThread INTEGER, ssFlags INTEGER, ssBytes INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,"
    " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,"
    " correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL,"
    " eventSyncId INTEGER,"
    " ssKind INTEGER, ssStream INTEGER, ssThread INTEGER, ssFlags INTEGER, ssNameId INTEGER, ssBytes INTEGER);"
    "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,"
    " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
    " domainId INTEGER,"
    " ssKind INTEGER, ssStream INTEGER, ssThread INTEGER, ssFlags INTEGER, ssRawStream INTEGER, ssBytes INTEGER,"
    " ssCorrelation INTEGER);"
    "CREATE TABLE STREAMSCOPE_META (name TEXT NOT NULL PRIMARY KEY, value TEXT);"
    "CREATE TABLE STREAMSCOPE_STREAM (ssStream INTEGER NOT NULL PRIMARY KEY, streamId INTEGER NOT NULL,"
    " kind INTEGER NOT NULL, kindName TEXT);"
    "CREATE TABLE STREAMSCOPE_EXPERIMENT (preset TEXT, kernel TEXT, streams INTEGER, elements INTEGER,"
    " chunks INTEGER, elemSize INTEGER, work INTEGER, issueOrder TEXT, sync TEXT, defaultStream TEXT,"
    " nonBlocking INTEGER, hostMem TEXT, connections INTEGER, threads INTEGER, repeats INTEGER, warmup INTEGER,"
    " description TEXT, prefetchEvents TEXT, program TEXT);"
    "CREATE TABLE STREAMSCOPE_ANALYSIS (backend TEXT NOT NULL, modelled INTEGER NOT NULL, label TEXT,"
    " t0 INTEGER, t1 INTEGER, makespanNs INTEGER,"
    " h2dBusyNs INTEGER, h2dUtil REAL, h2dCount INTEGER, h2dBytes INTEGER,"
    " computeBusyNs INTEGER, computeUtil REAL, computeCount INTEGER,"
    " d2hBusyNs INTEGER, d2hUtil REAL, d2hCount INTEGER, d2hBytes INTEGER,"
    " overlapNs INTEGER, overlap REAL, speedup REAL, boundNs INTEGER, gap REAL, boundChunks INTEGER,"
    " tracedNs INTEGER, untracedNs INTEGER, overhead REAL, usedUntraced INTEGER, eventsNs INTEGER);";

/* Rows of the ENUM tables we write: the values nsys writes, for the ids our tables reference. */
static const char export_sqlite_enums[] =
    "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES"
    " (0,'CUDA_MEMCPY_KIND_UNKNOWN','Unknown'),(1,'CUDA_MEMCPY_KIND_HTOD','Host-to-Device'),"
    " (2,'CUDA_MEMCPY_KIND_DTOH','Device-to-Host'),(3,'CUDA_MEMCPY_KIND_HTOA','Host-to-Array'),"
    " (4,'CUDA_MEMCPY_KIND_ATOH','Array-to-Host'),(5,'CUDA_MEMCPY_KIND_ATOA','Array-to-Array'),"
    " (6,'CUDA_MEMCPY_KIND_ATOD','Array-to-Device'),(7,'CUDA_MEMCPY_KIND_DTOA','Device-to-Array'),"
    " (8,'CUDA_MEMCPY_KIND_DTOD','Device-to-Device'),(9,'CUDA_MEMCPY_KIND_HTOH','Host-to-Host'),"
    " (10,'CUDA_MEMCPY_KIND_PTOP','Peer-to-Peer'),(11,'CUDA_MEMCPY_KIND_UVM_HTOD','Unified Host-to-Device'),"
    " (12,'CUDA_MEMCPY_KIND_UVM_DTOH','Unified Device-to-Host'),"
    " (13,'CUDA_MEMCPY_KIND_UVM_DTOD','Unified Device-to-Device');"
    "INSERT INTO ENUM_CUDA_MEM_KIND VALUES"
    " (0,'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE','Pageable'),(1,'CUDA_MEMOPR_MEMORY_KIND_PINNED','Pinned'),"
    " (2,'CUDA_MEMOPR_MEMORY_KIND_DEVICE','Device'),(3,'CUDA_MEMOPR_MEMORY_KIND_ARRAY','Array'),"
    " (4,'CUDA_MEMOPR_MEMORY_KIND_MANAGED','Managed'),(5,'CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC','Device Static'),"
    " (6,'CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC','Managed Static'),(7,'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN','Unknown');"
    "INSERT INTO ENUM_CUPTI_SYNC_TYPE VALUES"
    " (0,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN','Unknown'),"
    " (1,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE','Event sync'),"
    " (2,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT','Stream wait sync'),"
    " (3,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE','Stream sync'),"
    " (4,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE','Context sync');"
    "INSERT INTO ENUM_CUPTI_STREAM_TYPE VALUES"
    " (0,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN','Unknown stream type'),"
    " (1,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT','Default stream'),"
    " (2,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING','Non-blocking stream'),"
    " (3,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL','Null stream');"
    "INSERT INTO ENUM_CUDA_KERNEL_LAUNCH_TYPE VALUES"
    " (0,'CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN','Unknown'),(1,'CUDA_KERNEL_LAUNCH_TYPE_REGULAR','Regular'),"
    " (2,'CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE','Coop Single Device'),"
    " (3,'CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE','Coop Multi Device');"
    "INSERT INTO ENUM_CUDA_FUNC_CACHE_CONFIG VALUES"
    " (0,'CU_FUNC_CACHE_PREFER_NONE','None'),(1,'CU_FUNC_CACHE_PREFER_SHARED','Shared'),"
    " (2,'CU_FUNC_CACHE_PREFER_L1','L1'),(3,'CU_FUNC_CACHE_PREFER_EQUAL','Equal');"
    "INSERT INTO ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG VALUES"
    " (0,'CUDA_SHARED_MEM_LIMIT_DEFAULT','Default'),(1,'CUDA_SHARED_MEM_LIMIT_OPTIN','Opt in');"
    "INSERT INTO ENUM_NSYS_EVENT_CLASS VALUES"
    " (0,'TRACE_PROCESS_EVENT_CUDA_RUNTIME','CUDA runtime'),(1,'TRACE_PROCESS_EVENT_CUDA_DRIVER','CUDA driver');"
    "INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES"
    " (34,'NvtxMark','NvtxMark'),(35,'NvtxPushRange','NvtxPushRange'),(36,'NvtxPopRange','NvtxPopRange'),"
    " (59,'NvtxPushPopRange','NvtxPushPopRange'),(60,'NvtxStartEndRange','NvtxStartEndRange');";

/* The ss columns an activity table has past ssKind, ssStream, ssThread and ssFlags, in this order: what its nsys
 * columns do not hold. */
enum {
	SS_COL_NAME = 1 << 0,        /* ssNameId */
	SS_COL_RAW_STREAM = 1 << 1,  /* ssRawStream */
	SS_COL_BYTES = 1 << 2,       /* ssBytes */
	SS_COL_CORRELATION = 1 << 3, /* ssCorrelation */
};

/* The insert of one activity table: its columns and one row's VALUES template, whose '?' are bound in order. */
struct export_sqlite_ins {
	const char *table;
	const char *cols;
	const char *row;
	int text_at;   /* the parameter bound as text (NVTX's text), -1 for none */
	unsigned more; /* its SS_COL_* columns */
};

enum { INS_MEMCPY = 0, INS_MEMSET, INS_KERNEL, INS_RUNTIME, INS_SYNC, INS_NVTX, INS_COUNT };

static const struct export_sqlite_ins export_sqlite_ins[INS_COUNT] = {
    [INS_MEMCPY] = {"CUPTI_ACTIVITY_KIND_MEMCPY",
                    "start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind, srcKind,"
                    " dstKind, srcDeviceId, dstDeviceId, copyCount, ssKind, ssStream, ssThread, ssFlags, ssNameId",
                    "(?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)", -1, SS_COL_NAME},
    [INS_MEMSET] =
        {"CUPTI_ACTIVITY_KIND_MEMSET",
         "start, end, deviceId, contextId, streamId, correlationId, globalPid, value, bytes, memKind, ssKind,"
         " ssStream, ssThread, ssFlags, ssNameId",
         "(?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?)", -1, SS_COL_NAME},
    [INS_KERNEL] = {"CUPTI_ACTIVITY_KIND_KERNEL",
                    "start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName,"
                    " mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY,"
                    " blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,"
                    " sharedMemoryExecuted, sharedMemoryLimitConfig, ssKind, ssStream, ssThread, ssFlags, ssBytes",
                    "(?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, 0, 0, ?, ?, ?, ?, ?)",
                    -1, SS_COL_BYTES},
    [INS_RUNTIME] =
        {"CUPTI_ACTIVITY_KIND_RUNTIME",
         "start, end, eventClass, globalTid, correlationId, nameId, returnValue, ssKind, ssStream, ssThread,"
         " ssFlags, ssRawStream, ssBytes",
         "(?, ?, 0, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)", -1, SS_COL_RAW_STREAM | SS_COL_BYTES},
    [INS_SYNC] = {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                  "start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, eventId, ssKind,"
                  " ssStream, ssThread, ssFlags, ssNameId, ssBytes",
                  "(?, ?, 0, 1, ?, ?, 0, ?, 0, ?, ?, ?, ?, ?, ?)", -1, SS_COL_NAME | SS_COL_BYTES},
    [INS_NVTX] = {"NVTX_EVENTS",
                  "start, end, eventType, rangeId, text, globalTid, endGlobalTid, textId, domainId, ssKind, ssStream,"
                  " ssThread, ssFlags, ssRawStream, ssBytes, ssCorrelation",
                  "(?, ?, 59, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)", 3,
                  SS_COL_RAW_STREAM | SS_COL_BYTES | SS_COL_CORRELATION},
};

/* Rows per multi-row INSERT: one statement execution carries this many records. */
#define EXPORT_SQLITE_BATCH 64
#define EXPORT_SQLITE_MAXP 24

/* One row's parameters, in the order of its template's '?'. */
struct export_sqlite_row {
	sqlite3_int64 v[EXPORT_SQLITE_MAXP];
	const char *text;
};

/* An export in progress: per table a one-row and a batch statement, and the rows queued for the batch. */
struct export_sqlite_ctx {
	sqlite3 *db;
	const char *path;
	char **cause;
	sqlite3_stmt *one[INS_COUNT], *batch[INS_COUNT];
	int nparams[INS_COUNT];
	struct export_sqlite_row queue[INS_COUNT][EXPORT_SQLITE_BATCH];
	int nqueued[INS_COUNT];
};

/* export_sqlite_fail sets *cause from the connection's last error. Always returns -1. */
static int export_sqlite_fail(struct export_sqlite_ctx *c, const char *what)
{
	*c->cause = xasprintf("cannot write %s: SQLite %s: %s", c->path, what,
	                      c->db != NULL ? sqlite3_errmsg(c->db) : "out of memory");
	return -1;
}

/* export_sqlite_compile prepares sql into *st; 0, or -1 with *cause (export_sqlite_fail). */
static int export_sqlite_compile(struct export_sqlite_ctx *c, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(c->db, sql, -1, st, NULL) != SQLITE_OK)
		return export_sqlite_fail(c, "prepare");
	return 0;
}

/* export_sqlite_insert prepares into *st the insert of one row of n values, bound as ?1..?n, into table; 0, or -1
 * with *cause. */
static int export_sqlite_insert(struct export_sqlite_ctx *c, const char *table, int n, sqlite3_stmt **st)
{
	char sql[512];
	size_t len = (size_t)snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (", table);

	for (int i = 1; i <= n && len < sizeof sql; i++)
		len += (size_t)snprintf(sql + len, sizeof sql - len, i > 1 ? ", ?%d" : "?%d", i);
	if (len < sizeof sql)
		snprintf(sql + len, sizeof sql - len, ")");
	return export_sqlite_compile(c, sql, st);
}

static int export_sqlite_exec(struct export_sqlite_ctx *c, const char *sql)
{
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return export_sqlite_fail(c, "error");
	return 0;
}

/* export_sqlite_step runs a bound insert once and resets it. */
static int export_sqlite_step(struct export_sqlite_ctx *c, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return export_sqlite_fail(c, "insert");
	return 0;
}

/* export_sqlite_prepare makes the one-row and batch inserts of every activity table. */
static int export_sqlite_prepare(struct export_sqlite_ctx *c)
{
	for (int k = 0; k < INS_COUNT; k++) {
		const struct export_sqlite_ins *ins = &export_sqlite_ins[k];
		size_t rowlen = strlen(ins->row);
		char *sql, *p;
		int n = 0;

		for (const char *q = ins->row; *q != '\0'; q++)
			n += *q == '?';
		c->nparams[k] = n;
		sql = xmalloc(strlen(ins->table) + strlen(ins->cols) + 64 + (rowlen + 2) * EXPORT_SQLITE_BATCH);
		p = sql + sprintf(sql, "INSERT INTO %s (%s) VALUES %s", ins->table, ins->cols, ins->row);
		if (export_sqlite_compile(c, sql, &c->one[k]) != 0) {
			free(sql);
			return -1;
		}
		for (int i = 1; i < EXPORT_SQLITE_BATCH; i++)
			p += sprintf(p, ", %s", ins->row);
		if (export_sqlite_compile(c, sql, &c->batch[k]) != 0) {
			free(sql);
			return -1;
		}
		free(sql);
	}
	return 0;
}

static void export_sqlite_bind(sqlite3_stmt *st, int base, int n, int text_at, const struct export_sqlite_row *row)
{
	for (int i = 0; i < n; i++) {
		if (i == text_at)
			sqlite3_bind_text(st, base + i + 1, row->text, -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, base + i + 1, row->v[i]);
	}
}

/* export_sqlite_flush inserts the queued rows of table k: one batch statement when the queue is full, one-row
 * statements otherwise (the tail at the end). */
static int export_sqlite_flush(struct export_sqlite_ctx *c, int k)
{
	int n = c->nqueued[k], np = c->nparams[k], text_at = export_sqlite_ins[k].text_at;

	c->nqueued[k] = 0;
	if (n == EXPORT_SQLITE_BATCH) {
		for (int i = 0; i < n; i++)
			export_sqlite_bind(c->batch[k], i * np, np, text_at, &c->queue[k][i]);
		return export_sqlite_step(c, c->batch[k]);
	}
	for (int i = 0; i < n; i++) {
		export_sqlite_bind(c->one[k], 0, np, text_at, &c->queue[k][i]);
		if (export_sqlite_step(c, c->one[k]) != 0)
			return -1;
	}
	return 0;
}

/* export_sqlite_host_kind maps a copy's host-side flags to nsys's ENUM_CUDA_MEM_KIND. */
static int export_sqlite_host_kind(unsigned flags)
{
	if (flags & SS_REC_MANAGED)
		return MEMKIND_MANAGED;
	if (flags & SS_REC_PAGEABLE)
		return MEMKIND_PAGEABLE;
	if (flags & SS_REC_PINNED)
		return MEMKIND_PINNED;
	return MEMKIND_UNKNOWN;
}

/* export_sqlite_sync_type guesses the CUPTI synchronization type from the API name of a sync record. */
static int export_sqlite_sync_type(const char *name)
{
	if (strstr(name, "StreamWaitEvent") != NULL)
		return 2;
	if (strstr(name, "Event") != NULL)
		return 1;
	if (strstr(name, "StreamSynchronize") != NULL)
		return 3;
	if (strstr(name, "DeviceSynchronize") != NULL || strstr(name, "CtxSynchronize") != NULL)
		return 4;
	return 0;
}

/* export_sqlite_context is the contextId written for device's rows: the CUDA context the timeline knows for it,
 * else 1 + the device (one context per device, as a program that does not create its own has). */
static sqlite3_int64 export_sqlite_context(const struct ss_timeline *t, int device)
{
	const struct ss_device_info *d = timeline_device(t, device);

	return d != NULL && d->context != 0 ? (sqlite3_int64)d->context : device + 1;
}

/* export_sqlite_record queues one record for the table of its kind; the values follow the table's template. */
static int export_sqlite_record(struct export_sqlite_ctx *c, const struct ss_timeline *t, const struct ss_record *r,
                                uint64_t *grid_id)
{
	struct export_sqlite_row *row;
	sqlite3_int64 *v;
	int k;

	switch (r->kind) {
	case SS_KIND_H2D:
	case SS_KIND_D2H:
	case SS_KIND_D2D:
		k = INS_MEMCPY;
		break;
	case SS_KIND_MEMSET:
		k = INS_MEMSET;
		break;
	case SS_KIND_KERNEL:
		k = INS_KERNEL;
		break;
	case SS_KIND_API:
		k = INS_RUNTIME;
		break;
	case SS_KIND_SYNC:
		k = INS_SYNC;
		break;
	case SS_KIND_MARKER:
		k = INS_NVTX;
		break;
	default:
		return 0; /* not a kind we know: nothing to write */
	}
	row = &c->queue[k][c->nqueued[k]++];
	v = row->v;
	*v++ = (sqlite3_int64)r->start;
	*v++ = (sqlite3_int64)r->end;
	if (k == INS_MEMCPY || k == INS_MEMSET || k == INS_KERNEL) {
		*v++ = r->device;
		*v++ = export_sqlite_context(t, r->device);
	}
	switch (k) {
	case INS_MEMCPY: {
		int host = export_sqlite_host_kind(r->flags);
		int dev = (r->flags & SS_REC_MANAGED) ? MEMKIND_MANAGED : MEMKIND_DEVICE;

		*v++ = r->raw_stream;
		*v++ = r->correlation;
		*v++ = (sqlite3_int64)r->bytes;
		*v++ = r->kind == SS_KIND_H2D ? 1 : r->kind == SS_KIND_D2H ? 2 : (r->flags & SS_REC_PEER) ? 10 : 8;
		*v++ = r->kind == SS_KIND_H2D ? host : dev;
		*v++ = r->kind == SS_KIND_D2H ? host : dev;
		*v++ = record_peer_src(r);
		*v++ = record_peer_dst(r);
		break;
	}
	case INS_MEMSET:
		*v++ = r->raw_stream;
		*v++ = r->correlation;
		*v++ = (sqlite3_int64)r->bytes;
		*v++ = (r->flags & SS_REC_MANAGED) ? MEMKIND_MANAGED : MEMKIND_DEVICE;
		break;
	case INS_KERNEL: {
		/* the launch where the timeline knows it; else 0, as nsys's NOT NULL columns need (no launch has a
		 * 0 grid or block, no kernel CUPTI reports 0 registers: import reads those as unknown) */
		const struct ss_launch *l = timeline_launch(t, r);
		bool attrs = l != NULL && (l->flags & SS_LAUNCH_ATTRS);

		*v++ = r->raw_stream;
		*v++ = r->correlation;
		*v++ = l != NULL && l->full_name != 0 ? l->full_name : r->name; /* demangledName */
		*v++ = r->name;                                                 /* shortName */
		*v++ = attrs ? l->registers : 0;
		for (int i = 0; i < 3; i++)
			*v++ = l != NULL ? l->grid[i] : 0;
		for (int i = 0; i < 3; i++)
			*v++ = l != NULL ? l->block[i] : 0;
		*v++ = attrs ? l->static_smem : 0;
		*v++ = attrs ? l->dynamic_smem : 0;
		*v++ = (sqlite3_int64)++ * grid_id;
		break;
	}
	case INS_RUNTIME:
		*v++ = r->thread & 0xffffffu; /* globalTid: the tid in nsys's low 24 bits */
		*v++ = r->correlation;
		*v++ = r->name;
		break;
	case INS_SYNC:
		*v++ = r->raw_stream;
		*v++ = r->correlation;
		*v++ = export_sqlite_sync_type(timeline_name(t, r->name));
		break;
	case INS_NVTX:
		*v++ = r->correlation; /* rangeId */
		row->text = timeline_name(t, r->name);
		v++;
		*v++ = r->thread & 0xffffffu;
		*v++ = r->thread & 0xffffffu;
		*v++ = r->name;
		break;
	}
	/* streamscope's own columns: kind, stream index, thread, flags, then what the nsys table lacks */
	*v++ = r->kind;
	*v++ = r->stream;
	*v++ = r->thread;
	*v++ = r->flags;
	if (export_sqlite_ins[k].more & SS_COL_NAME)
		*v++ = r->name;
	if (export_sqlite_ins[k].more & SS_COL_RAW_STREAM)
		*v++ = r->raw_stream;
	if (export_sqlite_ins[k].more & SS_COL_BYTES)
		*v++ = (sqlite3_int64)r->bytes;
	if (export_sqlite_ins[k].more & SS_COL_CORRELATION)
		*v++ = r->correlation;
	if (v - row->v != c->nparams[k]) {
		*c->cause =
		    xasprintf("cannot write %s: internal error (%s parameters)", c->path, export_sqlite_ins[k].table);
		return -1;
	}
	return c->nqueued[k] == EXPORT_SQLITE_BATCH ? export_sqlite_flush(c, k) : 0;
}

/* export_sqlite_meta inserts one name/value pair into table (META_DATA_EXPORT or STREAMSCOPE_META). */
static int export_sqlite_meta(struct export_sqlite_ctx *c, const char *table, const char *name, const char *value)
{
	char *sql = xasprintf("INSERT INTO %s (name, value) VALUES (?1, ?2)", table);
	sqlite3_stmt *st = NULL;
	int rc;

	rc = export_sqlite_compile(c, sql, &st);
	free(sql);
	if (rc != 0)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	rc = export_sqlite_step(c, st);
	sqlite3_finalize(st);
	return rc;
}

/* export_sqlite_labels writes META_DATA_EXPORT, STREAMSCOPE_META and TARGET_INFO_GPU. */
static int export_sqlite_labels(struct export_sqlite_ctx *c, const struct ss_export_input *in)
{
	const struct ss_timeline *t = in->t;
	char label[512], num[32], when[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	sqlite3_stmt *st = NULL;
	int rc;

	if (gmtime_r(&now, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	export_input_label(in, label, sizeof label);
	if (export_sqlite_meta(c, "META_DATA_EXPORT", "EXPORT_PRODUCT_NAME", "streamscope") != 0 ||
	    export_sqlite_meta(c, "META_DATA_EXPORT", "EXPORT_PRODUCT_VERSION", SS_VERSION) != 0 ||
	    export_sqlite_meta(c, "META_DATA_EXPORT", "EXPORT_TIME_UTC", when) != 0)
		return -1;
	if (export_sqlite_meta(c, "STREAMSCOPE_META", "format", "1") != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "generator", "streamscope " SS_VERSION) != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "backend", t->backend) != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "measurement", t->modelled ? "MODELLED" : "measured") != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "label", label) != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "device", t->device) != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "source", t->source) != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "incomplete", t->incomplete ? "1" : "0") != 0 ||
	    export_sqlite_meta(c, "STREAMSCOPE_META", "streamIds", t->stream_ids ? "1" : "0") != 0)
		return -1;
	snprintf(num, sizeof num, "%d", t->nstreams);
	if (export_sqlite_meta(c, "STREAMSCOPE_META", "nstreams", num) != 0)
		return -1;
	snprintf(num, sizeof num, "%llu", (unsigned long long)t->dropped);
	if (export_sqlite_meta(c, "STREAMSCOPE_META", "dropped", num) != 0)
		return -1;
	snprintf(num, sizeof num, "%zu", t->n);
	if (export_sqlite_meta(c, "STREAMSCOPE_META", "records", num) != 0)
		return -1;
	/* record --twin: the program's wall-clock time traced and untraced, both or neither */
	if (t->wall_traced_ns > 0 && t->wall_untraced_ns > 0) {
		snprintf(num, sizeof num, "%llu", (unsigned long long)t->wall_traced_ns);
		if (export_sqlite_meta(c, "STREAMSCOPE_META", "wallTracedNs", num) != 0)
			return -1;
		snprintf(num, sizeof num, "%llu", (unsigned long long)t->wall_untraced_ns);
		if (export_sqlite_meta(c, "STREAMSCOPE_META", "wallUntracedNs", num) != 0)
			return -1;
	}
	/* one row per device: device 0 always (named by the run's device label unless the table names it), every
	 * other device the timeline describes */
	if (export_sqlite_compile(c,
	                          "INSERT INTO TARGET_INFO_GPU (vmId, id, name, uuid, cuDevice, asyncEngines) VALUES "
	                          "(0, ?1, ?2, ?3, ?1, ?4)",
	                          &st) != 0)
		return -1;
	rc = 0;
	for (int d = 0; d < SS_TIMELINE_MAX_DEVICES && rc == 0; d++) {
		const struct ss_device_info *di = timeline_device(t, d);

		if (d > 0 && di == NULL)
			continue;
		sqlite3_bind_int(st, 1, d);
		sqlite3_bind_text(st, 2,
		                  di != NULL && di->name[0] != '\0' ? di->name
		                  : d == 0                          ? t->device
		                                                    : "",
		                  -1, SQLITE_STATIC);
		if (di != NULL && di->uuid[0] != '\0')
			sqlite3_bind_text(st, 3, di->uuid, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 3);
		if (di != NULL && di->copy_engines > 0)
			sqlite3_bind_int(st, 4, di->copy_engines);
		else
			sqlite3_bind_null(st, 4);
		rc = export_sqlite_step(c, st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* export_sqlite_flag gives the CUpti_ActivityStreamFlag of r's stream: from the timeline's stream table when it
 * knows the kind, else from the record and the experiment (1 default/blocking, 2 non-blocking, 3 NULL stream). */
static int export_sqlite_flag(const struct ss_export_input *in, const struct ss_record *r)
{
	const struct ss_stream_info *si = timeline_stream(in->t, r->stream);

	if (r->stream == SS_STREAM_LEGACY)
		return 3;
	if (si != NULL && si->kind == SS_SKIND_NONBLOCKING)
		return 2;
	if (si != NULL && si->kind == SS_SKIND_LEGACY)
		return 3;
	if (si != NULL && si->kind != SS_SKIND_UNKNOWN)
		return 1;
	return in->e != NULL && in->e->nonblocking ? 2 : 1;
}

/* export_sqlite_streams writes one TARGET_INFO_CUDA_STREAM row per distinct raw stream id of GPU records, and one
 * STREAMSCOPE_STREAM row per labelled stream index (its kind, also the ones CUPTI's flag cannot tell apart). */
static int export_sqlite_streams(struct export_sqlite_ctx *c, const struct ss_export_input *in)
{
	const struct ss_timeline *t = in->t;
	uint32_t *seen = NULL;
	size_t nseen = 0, cap = 0;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (export_sqlite_compile(c, "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (?1, 0, 0, 0, 1, 0, ?2)", &st) != 0)
		return -1;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		const struct ss_record *r = &t->rec[i];
		size_t j;

		if (r->kind >= SS_KIND_COUNT || !(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			continue;
		/* streams are few: a linear search over the distinct ids seen (capped, so never quadratic) */
		for (j = 0; j < nseen && seen[j] != r->raw_stream; j++)
			;
		if (j < nseen || nseen >= 4096)
			continue;
		*VEC_PUSH(seen, nseen, cap, 16) = r->raw_stream;
		sqlite3_bind_int64(st, 1, r->raw_stream);
		sqlite3_bind_int(st, 2, export_sqlite_flag(in, r));
		rc = export_sqlite_step(c, st);
	}
	free(seen);
	sqlite3_finalize(st);
	st = NULL;
	if (rc == 0 && export_sqlite_insert(c, "STREAMSCOPE_STREAM", 4, &st) != 0)
		return -1;
	for (int s = 0; s < t->nstream_info && rc == 0; s++) {
		const struct ss_stream_info *si = timeline_stream(t, s);

		if (si == NULL)
			continue;
		sqlite3_bind_int(st, 1, s);
		sqlite3_bind_int64(st, 2, si->raw_id);
		sqlite3_bind_int(st, 3, si->kind);
		sqlite3_bind_text(st, 4, timeline_stream_kind_name(si->kind), -1, SQLITE_STATIC);
		rc = export_sqlite_step(c, st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* export_sqlite_experiment writes e (NULL: nothing, a trace of no experiment) as the one row of
 * STREAMSCOPE_EXPERIMENT: its settings by name, its description, and its step program where it has one. Returns 0,
 * or -1 with the context's error set. */
static int export_sqlite_experiment(struct export_sqlite_ctx *c, const struct ss_experiment *e)
{
	sqlite3_stmt *st = NULL;
	char desc[512], program[SS_MAX_STEPS * 128 + 256];
	int rc;

	if (e == NULL)
		return 0;
	if (export_sqlite_insert(c, "STREAMSCOPE_EXPERIMENT", 19, &st) != 0)
		return -1;
	experiment_describe(e, desc, sizeof desc);
	sqlite3_bind_text(st, 1, experiment_preset_name(e->preset), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, experiment_kernel_name(e->kernel), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, e->streams);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)e->elements);
	sqlite3_bind_int(st, 5, e->chunks);
	sqlite3_bind_int(st, 6, (int)e->elem_size);
	sqlite3_bind_int64(st, 7, e->work);
	sqlite3_bind_text(st, 8, experiment_order_name(e->order), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, experiment_sync_name(e->sync), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, experiment_defstream_name(e->defstream), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 11, e->nonblocking);
	sqlite3_bind_text(st, 12, experiment_hostmem_name(e->hostmem), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 13, e->connections);
	sqlite3_bind_int(st, 14, e->threads);
	sqlite3_bind_int(st, 15, e->repeat);
	sqlite3_bind_int(st, 16, e->warmup);
	sqlite3_bind_text(st, 17, desc, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 18, experiment_pfevents_name(e->prefetch_events), -1, SQLITE_STATIC);
	experiment_program_describe(e, program, sizeof program);
	if (program[0] != '\0') /* an experiment file's step program; NULL: the preset's work */
		sqlite3_bind_text(st, 19, program, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 19);
	rc = export_sqlite_step(c, st);
	sqlite3_finalize(st);
	return rc;
}

/* export_sqlite_analysis writes the analysis of in's timeline (the input's, or one made from the timeline) as the
 * one row of STREAMSCOPE_ANALYSIS, with whether the trace is modelled and its label. Returns 0, or -1 with the
 * context's error set. */
static int export_sqlite_analysis(struct export_sqlite_ctx *c, const struct ss_export_input *in)
{
	struct ss_analysis tmp;
	const struct ss_analysis *a = export_input_analysis(in, &tmp);
	sqlite3_stmt *st = NULL;
	char label[512];
	int rc, k = 1;

	if (export_sqlite_insert(c, "STREAMSCOPE_ANALYSIS", 28, &st) != 0)
		return -1;
	export_input_label(in, label, sizeof label);
	sqlite3_bind_text(st, k++, in->t->backend, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, k++, in->t->modelled);
	sqlite3_bind_text(st, k++, label, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, k++, (sqlite3_int64)a->t0);
	sqlite3_bind_int64(st, k++, (sqlite3_int64)a->t1);
	sqlite3_bind_int64(st, k++, (sqlite3_int64)a->makespan_ns);
	for (int e = 0; e < SS_ENG_COUNT; e++) {
		sqlite3_bind_int64(st, k++, (sqlite3_int64)a->eng[e].busy_ns);
		sqlite3_bind_double(st, k++, a->eng[e].util);
		sqlite3_bind_int64(st, k++, (sqlite3_int64)a->eng[e].count);
		if (e != SS_ENG_COMPUTE)
			sqlite3_bind_int64(st, k++, (sqlite3_int64)a->eng[e].bytes);
	}
	sqlite3_bind_int64(st, k++, (sqlite3_int64)a->overlap_ns);
	sqlite3_bind_double(st, k++, a->overlap);
	/* invalid optional values stay NULL */
	if (a->have_speedup)
		sqlite3_bind_double(st, k, a->speedup);
	k++;
	if (a->have_bound) {
		sqlite3_bind_int64(st, k, (sqlite3_int64)a->bound_ns);
		sqlite3_bind_double(st, k + 1, a->gap);
		sqlite3_bind_int(st, k + 2, a->n);
	}
	k += 3;
	if (a->have_overhead) {
		sqlite3_bind_int64(st, k, (sqlite3_int64)a->traced_ns);
		sqlite3_bind_int64(st, k + 1, (sqlite3_int64)a->untraced_ns);
		sqlite3_bind_double(st, k + 2, a->overhead);
		sqlite3_bind_int(st, k + 3, a->used_untraced);
	}
	k += 4;
	if (a->have_events)
		sqlite3_bind_int64(st, k, (sqlite3_int64)a->events_ns);
	rc = export_sqlite_step(c, st);
	sqlite3_finalize(st);
	return rc;
}

/* export_sqlite_fill writes everything into the open database c->db. */
static int export_sqlite_fill(struct export_sqlite_ctx *c, const struct ss_export_input *in)
{
	const struct ss_timeline *t = in->t;
	uint64_t grid_id = 0;
	sqlite3_stmt *strings = NULL;

	/* big pages for big traces (fewer B-tree splits); small ones stay small files */
	if (export_sqlite_exec(c, t->n > 100000 ? "PRAGMA page_size = 65536" : "PRAGMA page_size = 4096") != 0 ||
	    export_sqlite_exec(c, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
	                          " PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536;") != 0 ||
	    export_sqlite_exec(c, "BEGIN") != 0 || export_sqlite_exec(c, export_sqlite_schema) != 0 ||
	    export_sqlite_exec(c, export_sqlite_enums) != 0)
		return -1;
	if (export_sqlite_prepare(c) != 0)
		return -1;
	if (export_sqlite_compile(c, "INSERT INTO StringIds (id, value) VALUES (?1, ?2)", &strings) != 0)
		return -1;
	for (uint32_t id = 0; id < t->names.n; id++) {
		sqlite3_bind_int64(strings, 1, id);
		sqlite3_bind_text(strings, 2, timeline_name(t, id), -1, SQLITE_STATIC);
		if (export_sqlite_step(c, strings) != 0) {
			sqlite3_finalize(strings);
			return -1;
		}
	}
	sqlite3_finalize(strings);
	for (size_t i = 0; i < t->n; i++)
		if (export_sqlite_record(c, t, &t->rec[i], &grid_id) != 0)
			return -1;
	for (int k = 0; k < INS_COUNT; k++)
		if (export_sqlite_flush(c, k) != 0)
			return -1;
	if (export_sqlite_labels(c, in) != 0 || export_sqlite_streams(c, in) != 0 ||
	    export_sqlite_experiment(c, in->e) != 0 || export_sqlite_analysis(c, in) != 0)
		return -1;
	return export_sqlite_exec(c, "COMMIT");
}

int export_sqlite(const char *path, const struct ss_export_input *in, char **cause)
{
	struct export_sqlite_ctx *c = xcalloc(1, sizeof *c); /* the row queues are ~50 kB: not on the stack */
	struct atomic_file af;
	sqlite3 *db;
	int rc;

	c->path = path;
	c->cause = cause;
	if (atomic_open(&af, path, cause) != 0) {
		free(c);
		return -1;
	}
	if (sqlite3_open_v2(af.tmp, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		export_sqlite_fail(c, "open");
		sqlite3_close(c->db);
		free(c);
		atomic_abort(&af);
		return -1;
	}
	rc = export_sqlite_fill(c, in);
	for (int k = 0; k < INS_COUNT; k++) {
		sqlite3_finalize(c->one[k]);
		sqlite3_finalize(c->batch[k]);
	}
	db = c->db;
	free(c);
	if (sqlite3_close(db) != SQLITE_OK && rc == 0) {
		*cause = xasprintf("cannot write %s: SQLite close failed", path);
		rc = -1;
	}
	if (rc != 0) {
		atomic_abort(&af);
		return -1;
	}
	return atomic_commit(&af, cause);
}
