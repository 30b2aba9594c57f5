/* units.h: human formatting of times, sizes and rates, shared by every view, and reading the counts people write. */
#ifndef SS_CORE_UNITS_H
#define SS_CORE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* units_time writes ns with a unit that keeps 3-4 significant digits: "850 ns", "12.3 us", "4.567 ms", "1.20 s", "12.3
 * s". */
char *units_time(uint64_t ns, char *buf, size_t len);
/* units_bytes writes "512 B", "16.0 MiB", "1.00 GiB". */
char *units_bytes(uint64_t bytes, char *buf, size_t len);
/* units_rate writes bytes per ns as "55.1 GB/s" (decimal GB, as PCIe is quoted); "-" when ns is 0. */
char *units_rate(uint64_t bytes, uint64_t ns, char *buf, size_t len);
/* units_plural is one when n is 1, else many: "%llu %s" of a count reads "1 chunk", "0 chunks", "2 chunks". */
const char *units_plural(unsigned long long n, const char *one, const char *many);
/* units_parse_count flags: a k, M or G suffix (x 2^10, 2^20, 2^30) allowed; 0x hexadecimal allowed. */
enum { UNITS_SUFFIX = 1, UNITS_HEX = 2 };
/* units_parse_count reads s as a whole number in lo..hi into *out: decimal digits (a leading 0 is not octal), or
 * with UNITS_HEX 0x and hex digits, then with UNITS_SUFFIX one of k, K, M, G; nothing else (no sign, no space).
 * 0, or -1 when s is not such a number or is out of range (*out unchanged). */
int units_parse_count(const char *s, long long lo, long long hi, int flags, long long *out);
/* units_tick picks a "nice" axis step (1, 2, 5 x 10^k ns) so that span/step is about target ticks. */
uint64_t units_tick(uint64_t span, int target);

#endif
