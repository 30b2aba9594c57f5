/* managed_probe.c: H200 diagnostic for the managed preset (document 001's add kernel on managed memory,
 * 2^22 floats an array, one chunk a stream, prefetches to the device of x and y, the kernel writing z unprefetched,
 * a prefetch of z to the host). Which part of that work makes some stream counts faster than others?
 *
 * Each measurement starts as the CUDA backend's runs do: x and y filled and z set on the host, the device idle.
 * It then issues one variant's work on k streams (k = 1, 2, 4, ..., 128; chunks of 16 MiB / k), depth-first,
 * and synchronises the streams in order; the time is the host's clock from before the first call to after the
 * last sync (no events, no tracing). Variants:
 *   full     the preset: prefetch x, y to the device, add, prefetch z to the host, per stream
 *   nod2h    full without the prefetch of z to the host
 *   zdev     full with z moved to the device before the clock starts (the kernel faults nothing)
 *   serial   full with every chunk on one stream
 *   h2d      the prefetches of x and y only
 *   fault    the kernels only, x and y on the device first, z on the host (the kernels fault z in)
 *   d2h      the prefetches of z to the host only, z on the device first
 * Repeats are interleaved (every variant and k once a round) so drift hits them alike. The hardware queue count is
 * the process's CUDA_DEVICE_MAX_CONNECTIONS. PROBE_OFFSET_KIB (default 0) starts each array that many KiB into an
 * allocation made that much larger (cudaMallocManaged returns 2 MiB-aligned memory, the driver's migration block:
 * 1024 makes every 2 MiB chunk of 8 streams straddle two blocks, each shared with a neighbour); PROBE_VARIANTS
 * (a comma-separated list of the names above, default all) picks the variants. Prints one line per measurement,
 * then a median per variant and k.
 * Usage: managed_probe [ROUNDS] (default 11). Exit 2 on bad usage, 3 on a CUDA error, 4 on a wrong result. */
#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "probe.h"

#define PROBE_N (1u << 22) /* elements an array, as the preset */
#define PROBE_BLOCK 128u
#define PROBE_MAXK 128
#define PROBE_NK 8
#define PROBE_NV 7

enum probe_variant { PV_FULL, PV_NOD2H, PV_ZDEV, PV_SERIAL, PV_H2D, PV_FAULT, PV_D2H };
static const char *const probe_names[PROBE_NV] = {"full", "nod2h", "zdev", "serial", "h2d", "fault", "d2h"};

/* probe_prefetch moves [off, off+n) elements of a to loc on stream s. */
static void probe_prefetch(float *a, uint64_t off, uint64_t n, int to_dev, cudaStream_t s)
{
	struct cudaMemLocation loc = {.type = to_dev ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost, .id = 0};

	probe_check(cudaMemPrefetchAsync(a + off, n * sizeof *a, loc, 0, s), "cudaMemPrefetchAsync");
}

/* probe_one measures variant v on k streams once and returns its time in us (the setup outside the clock). */
static double probe_one(enum probe_variant v, int k, float *x, float *y, float *z, cudaStream_t *st)
{
	uint64_t cnt = PROBE_N / (uint64_t)k;
	double t0, t1;

	kernels_add_fill(x, y, 0, PROBE_N);
	memset(z, 0xff, (size_t)PROBE_N * sizeof *z);
	if (v == PV_ZDEV || v == PV_D2H)
		probe_prefetch(z, 0, PROBE_N, 1, st[0]);
	if (v == PV_FAULT || v == PV_D2H) {
		probe_prefetch(x, 0, PROBE_N, 1, st[0]);
		probe_prefetch(y, 0, PROBE_N, 1, st[0]);
	}
	if (v == PV_D2H)
		probe_check((cudaError_t)kernels_add_launch(x, y, z, PROBE_N, KERNELS_ADD_DOC_REPEATS,
		                                            (PROBE_N + PROBE_BLOCK - 1) / PROBE_BLOCK, PROBE_BLOCK,
		                                            st[0]),
		            "add launch");
	probe_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
	t0 = probe_now_us();
	for (int i = 0; i < k; i++) {
		cudaStream_t s = st[v == PV_SERIAL ? 0 : i];
		uint64_t off = (uint64_t)i * cnt;

		if (v != PV_FAULT && v != PV_D2H) {
			probe_prefetch(x, off, cnt, 1, s);
			probe_prefetch(y, off, cnt, 1, s);
		}
		if (v != PV_H2D && v != PV_D2H)
			probe_check((cudaError_t)kernels_add_launch(
			                x + off, y + off, z + off, cnt, KERNELS_ADD_DOC_REPEATS,
			                (uint32_t)((cnt + PROBE_BLOCK - 1) / PROBE_BLOCK), PROBE_BLOCK, s),
			            "add launch");
		if (v == PV_FULL || v == PV_ZDEV || v == PV_SERIAL || v == PV_D2H)
			probe_prefetch(z, off, cnt, 0, s);
	}
	for (int i = 0; i < (v == PV_SERIAL ? 1 : k); i++)
		probe_check(cudaStreamSynchronize(st[i]), "cudaStreamSynchronize");
	t1 = probe_now_us();
	if (v != PV_H2D) {
		uint64_t bad = 0;

		probe_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
		if (kernels_add_verify(x, y, z, PROBE_N, &bad) != 0) {
			fprintf(stderr, "managed_probe: %s on %d streams: z[%llu] wrong\n", probe_names[v], k,
			        (unsigned long long)bad);
			exit(4);
		}
	}
	return t1 - t0;
}

/* probe_pick parses PROBE_VARIANTS (NULL: every variant) into on[]; -1 when a name is not a variant. */
static int probe_pick(const char *list, bool *on)
{
	char buf[256], *save = NULL;

	for (int v = 0; v < PROBE_NV; v++)
		on[v] = list == NULL;
	if (list == NULL)
		return 0;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *w = strtok_r(buf, ",", &save); w != NULL; w = strtok_r(NULL, ",", &save)) {
		int v = 0;

		while (v < PROBE_NV && strcmp(w, probe_names[v]) != 0)
			v++;
		if (v == PROBE_NV)
			return -1;
		on[v] = true;
	}
	return 0;
}

/* probe_alloc returns a managed array of PROBE_N floats starting off_kib KiB into its allocation. */
static float *probe_alloc(long off_kib)
{
	size_t off = (size_t)off_kib * 1024 / sizeof(float);
	float *a;

	probe_check(cudaMallocManaged((void **)&a, (PROBE_N + off) * sizeof *a, cudaMemAttachGlobal),
	            "cudaMallocManaged");
	return a + off;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 11;
	const char *conn = getenv("CUDA_DEVICE_MAX_CONNECTIONS"), *offs = getenv("PROBE_OFFSET_KIB");
	long off_kib = offs != NULL ? atol(offs) : 0;
	static double t[PROBE_NV][PROBE_NK][1000];
	cudaStream_t st[PROBE_MAXK];
	bool on[PROBE_NV];
	float *x, *y, *z;

	if (rounds < 1 || rounds > 1000) {
		fprintf(stderr, "managed_probe: ROUNDS must be 1..1000\n");
		return 2;
	}
	if (off_kib < 0 || off_kib > 65536 || probe_pick(getenv("PROBE_VARIANTS"), on) != 0) {
		fprintf(stderr, "managed_probe: PROBE_OFFSET_KIB must be 0..65536 and PROBE_VARIANTS a comma-separated "
		                "list of full, nod2h, zdev, serial, h2d, fault, d2h\n");
		return 2;
	}
	probe_check(cudaSetDevice(0), "cudaSetDevice");
	for (int i = 0; i < PROBE_MAXK; i++)
		probe_check(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking), "cudaStreamCreate");
	x = probe_alloc(off_kib);
	y = probe_alloc(off_kib);
	z = probe_alloc(off_kib);
	printf("# managed_probe: %d rounds, CUDA_DEVICE_MAX_CONNECTIONS=%s, offset %ld KiB, x %p y %p z %p\n", rounds,
	       conn != NULL ? conn : "(unset: 8)", off_kib, (void *)x, (void *)y, (void *)z);
	for (int r = -1; r < rounds; r++) /* r = -1: warm-up, not kept */
		for (int ki = 0; ki < PROBE_NK; ki++)
			for (int v = 0; v < PROBE_NV; v++) {
				double us;

				if (!on[v])
					continue;
				us = probe_one((enum probe_variant)v, 1 << ki, x, y, z, st);

				if (r < 0)
					continue;
				t[v][ki][r] = us;
				printf("%-6s %3d streams round %2d: %9.1f us\n", probe_names[v], 1 << ki, r, us);
			}
	printf("# medians (us) [min..max] of %d rounds\n%-6s", rounds, "k");
	for (int ki = 0; ki < PROBE_NK; ki++)
		printf(" %20d", 1 << ki);
	printf("\n");
	for (int v = 0; v < PROBE_NV; v++) {
		if (!on[v])
			continue;
		printf("%-6s", probe_names[v]);
		for (int ki = 0; ki < PROBE_NK; ki++) {
			double *a = t[v][ki], med = probe_median(a, rounds);

			printf(" %7.0f [%5.0f..%5.0f]", med, a[0], a[rounds - 1]);
		}
		printf("\n");
	}
	return 0;
}
