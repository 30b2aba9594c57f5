/* replay_db.h: what an H200 trace stored about its own run, read straight from its SQLite file. */
#ifndef SS_REPLAY_DB_H
#define SS_REPLAY_DB_H

/* replay_db_makespans reads the run's makespans from path's STREAMSCOPE_ANALYSIS: CUPTI's span (*cupti) and the
 * cudaEvent makespan of the same run (*events). Fails the calling cmocka test when the file or row is missing. */
void replay_db_makespans(const char *path, long long *cupti, long long *events);

#endif
