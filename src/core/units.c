/* units.c: human formatting of times, sizes and rates. */
#include "core/units.h"

#include <stdio.h>

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
