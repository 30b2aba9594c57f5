/* xalloc.h: allocation wrappers that abort with a message (after the registered cleanup) on failure. */
#ifndef SS_CORE_XALLOC_H
#define SS_CORE_XALLOC_H

#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* xreallocarray grows p to n elements of size bytes, aborting on overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
/* xopen_memstream opens a stream writing into *buf (*len bytes; both valid after fflush or fclose, the caller frees
 * *buf), as open_memstream does. */
FILE *xopen_memstream(char **buf, size_t *len);
/* xasprintf formats into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for libraries that allocate through callbacks with a context pointer (yajl's yajl_alloc_funcs): ctx is
 * not used. */
void *xalloc_ctx_malloc(void *ctx, size_t n);
void *xalloc_ctx_realloc(void *ctx, void *p, size_t n);
void xalloc_ctx_free(void *ctx, void *p);
/* xalloc_set_fatal_hook registers a function run before aborting (the TUI restores the terminal there). */
void xalloc_set_fatal_hook(void (*hook)(void));
/* xfatal restores what the hook restores, prints "streamscope: msg" and exits with status. */
void xfatal(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

#endif
