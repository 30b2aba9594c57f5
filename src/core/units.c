/* units.c: human formatting of times, sizes and rates, and reading the counts people write (4M, 0x2a). */
#include "core/units.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

char *units_time(uint64_t ns, char *buf, size_t len)
{
	double v = (double)ns;

	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.*f us", v < 1e4 ? 2 : v < 1e5 ? 1 : 0, v / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.*f ms", v < 1e7 ? 3 : v < 1e8 ? 2 : 1, v / 1e6);
	else
		snprintf(buf, len, "%.*f s", v < 1e10 ? 2 : v < 1e11 ? 1 : 0, v / 1e9);
	return buf;
}

char *units_bytes(uint64_t bytes, char *buf, size_t len)
{
	double v = (double)bytes;

	if (bytes < 1024)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (bytes < (1ull << 20))
		snprintf(buf, len, "%.1f KiB", v / 1024.0);
	else if (bytes < (1ull << 30))
		snprintf(buf, len, "%.1f MiB", v / 1048576.0);
	else
		snprintf(buf, len, "%.2f GiB", v / 1073741824.0);
	return buf;
}

char *units_rate(uint64_t bytes, uint64_t ns, char *buf, size_t len)
{
	if (ns == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f GB/s", (double)bytes / (double)ns);
	return buf;
}

const char *units_plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

uint64_t units_tick(uint64_t span, int target)
{
	uint64_t step = 1;

	if (target < 1)
		target = 1;
	for (;;) {
		static const int mult[3] = {1, 2, 5};

		for (int i = 0; i < 3; i++)
			if (span / (step * (uint64_t)mult[i]) <= (uint64_t)target)
				return step * (uint64_t)mult[i];
		if (step > UINT64_MAX / 100)
			return step * 10;
		step *= 10;
	}
}

int units_parse_count(const char *s, long long lo, long long hi, int flags, long long *out)
{
	bool hex = (flags & UNITS_HEX) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = hex ? s + 2 : s;
	char *end;
	long long v;
	int shift = 0;

	if (!(hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
		return -1;
	errno = 0;
	v = strtoll(d, &end, hex ? 16 : 10);
	if (errno != 0)
		return -1;
	if ((flags & UNITS_SUFFIX) && !hex && *end != '\0' && end[1] == '\0') {
		shift = *end == 'k' || *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : -1;
		if (shift < 0 || v > (hi >> shift))
			return -1;
		end++;
	}
	if (*end != '\0')
		return -1;
	v <<= shift;
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}
