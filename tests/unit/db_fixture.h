/* db_fixture.h: an SQLite file made from SQL, for the tests that import hand-made databases. Include after
 * cmocka.h (its assertions). */
#ifndef SS_TEST_DB_FIXTURE_H
#define SS_TEST_DB_FIXTURE_H

#include <sqlite3.h>
#include <unistd.h>

/* fx_make_db writes a new SQLite file at path (what was there is removed first) from sql; fails the test on an SQL
 * error. */
static inline void fx_make_db(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	char *err = NULL;

	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s", err);
	sqlite3_close(db);
}

#endif
