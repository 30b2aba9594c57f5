/* json_tree.h: tests read JSON back with yajl_tree (the project's one JSON library): a file or a string parsed into a
 * tree, and accessors that take NULL and values of the wrong type (giving NULL, 0 or false, as jansson's do), so that
 * a missing member fails an assertion rather than the test program. Header-only: a test is one source file. */
#ifndef SS_TESTS_JSON_TREE_H
#define SS_TESTS_JSON_TREE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

/* json_tree_parse parses the NUL-terminated text (one JSON value; yajl_tree lets comments by). NULL on failure,
 * yajl's message in err (errlen bytes). The caller frees the tree with json_tree_free. */
static inline yajl_val json_tree_parse(const char *text, char *err, size_t errlen)
{
	if (errlen > 0)
		err[0] = '\0';
	return yajl_tree_parse(text, err, errlen);
}

/* json_tree_read reads the file at path whole into a NUL-terminated string the caller frees (a JSON document, or a
 * command's text output kept beside one). NULL on failure, why in err (errlen bytes); a NUL byte in it is a
 * failure. */
static inline char *json_tree_read(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long n;

	if (f == NULL) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		snprintf(err, errlen, "cannot seek: %s", strerror(errno));
		return NULL;
	}
	text = malloc((size_t)n + 1);
	if (text == NULL || fread(text, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, errlen, "cannot read");
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	text[n] = '\0';
	if (strlen(text) != (size_t)n) {
		snprintf(err, errlen, "a NUL byte in the file");
		free(text);
		return NULL;
	}
	return text;
}

/* json_tree_load reads the file at path and parses it: NULL on failure, the reason (without the path) in err. */
static inline yajl_val json_tree_load(const char *path, char *err, size_t errlen)
{
	char *text = json_tree_read(path, err, errlen);
	yajl_val v = text != NULL ? json_tree_parse(text, err, errlen) : NULL;

	free(text);
	return v;
}

static inline void json_tree_free(yajl_val v)
{
	yajl_tree_free(v);
}

/* json_tree_get returns the member key of the object obj (the last one when the key repeats, as jansson keeps it),
 * NULL when obj is no object or has no such member. */
static inline yajl_val json_tree_get(yajl_val obj, const char *key)
{
	if (!YAJL_IS_OBJECT(obj))
		return NULL;
	for (size_t i = obj->u.object.len; i > 0; i--)
		if (strcmp(obj->u.object.keys[i - 1], key) == 0)
			return obj->u.object.values[i - 1];
	return NULL;
}

/* json_tree_len is the number of elements of the array arr (0 when it is no array); json_tree_at the i-th, NULL
 * past the end. */
static inline size_t json_tree_len(yajl_val arr)
{
	return YAJL_IS_ARRAY(arr) ? arr->u.array.len : 0;
}

static inline yajl_val json_tree_at(yajl_val arr, size_t i)
{
	return i < json_tree_len(arr) ? arr->u.array.values[i] : NULL;
}

/* json_tree_foreach runs its body for each element v (index i, a size_t) of the array arr (none when it is no
 * array). */
#define json_tree_foreach(arr, i, v)                                                                                   \
	for ((i) = 0; (i) < json_tree_len(arr) && ((v) = json_tree_at(arr, i)) != NULL; (i)++)

/* json_tree_str is a string's text, NULL for anything else. */
static inline const char *json_tree_str(yajl_val v)
{
	return YAJL_IS_STRING(v) ? v->u.string : NULL;
}

/* json_tree_is_int says v is a number written as an integer that fits a long long; json_tree_is_real that it is
 * written with a fraction or an exponent (jansson's "real"). */
static inline bool json_tree_is_int(yajl_val v)
{
	return YAJL_IS_INTEGER(v);
}

static inline bool json_tree_is_real(yajl_val v)
{
	return YAJL_IS_NUMBER(v) && strpbrk(v->u.number.r, ".eE") != NULL;
}

/* json_tree_int is an integer's value, 0 for anything else (a real included). */
static inline long long json_tree_int(yajl_val v)
{
	return YAJL_IS_INTEGER(v) ? v->u.number.i : 0;
}

/* json_tree_num is a number's value as a double (integer or real), 0 for anything else. */
static inline double json_tree_num(yajl_val v)
{
	if (YAJL_IS_INTEGER(v))
		return (double)v->u.number.i;
	return YAJL_IS_DOUBLE(v) ? v->u.number.d : 0.0;
}

static inline bool json_tree_is_true(yajl_val v)
{
	return YAJL_IS_TRUE(v);
}

static inline bool json_tree_is_false(yajl_val v)
{
	return YAJL_IS_FALSE(v);
}

static inline bool json_tree_is_null(yajl_val v)
{
	return YAJL_IS_NULL(v);
}

static inline bool json_tree_is_object(yajl_val v)
{
	return YAJL_IS_OBJECT(v);
}

static inline bool json_tree_is_array(yajl_val v)
{
	return YAJL_IS_ARRAY(v);
}

#endif
