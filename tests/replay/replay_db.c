/* replay_db.c: what an H200 trace stored about its own run, read straight from its SQLite file. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "replay_db.h"

#include <setjmp.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>

void replay_db_makespans(const char *path, long long *cupti, long long *events)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT makespanNs, eventsNs FROM STREAMSCOPE_ANALYSIS", -1, &st, NULL),
	                 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	*cupti = sqlite3_column_int64(st, 0);
	*events = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
}
