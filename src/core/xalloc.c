/* xalloc.c: allocation wrappers that never return NULL. */
#include "core/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sigexit.h"

static void (*xalloc_hook)(void);

void xalloc_set_fatal_hook(void (*hook)(void))
{
	xalloc_hook = hook;
}

void xfatal(int status, const char *fmt, ...)
{
	va_list ap;

	if (xalloc_hook != NULL) {
		void (*hook)(void) = xalloc_hook;
		xalloc_hook = NULL;
		hook();
	}
	sigexit_cleanup(); /* the temporary files of exports in progress */
	fputs("streamscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n == 0 ? 1 : n);

	if (p == NULL)
		xfatal(1, "out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size);

	if (p == NULL)
		xfatal(1, "out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n == 0 ? 1 : n);

	if (q == NULL)
		xfatal(1, "out of memory (%zu bytes)", n);
	return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		xfatal(1, "out of memory (%zu x %zu bytes)", n, size);
	return xrealloc(p, n * size);
}

void *xalloc_ctx_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return xmalloc(n);
}

void *xalloc_ctx_realloc(void *ctx, void *p, size_t n)
{
	(void)ctx;
	return xrealloc(p, n);
}

void xalloc_ctx_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}

FILE *xopen_memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (f == NULL)
		xfatal(1, "out of memory");
	return f;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		xfatal(1, "out of memory");
	va_end(ap);
	return s;
}
