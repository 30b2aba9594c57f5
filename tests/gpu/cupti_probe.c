/* cupti_probe.c: H200 diagnostic for bench's reference comparison: what CUPTI's presence in a process costs the
 * untraced issue of document 001's kernel-transfer loop, where many streams make it host-bound.
 *
 * The loop is ref_kernel_transfer's (2^22 floats; per stream the H2Ds of x and y, add<<<N1/128, 128>>> storing
 * z = x + y 400 times, the D2H of z; two events on the legacy stream, cudaEventQuery(start) after the first),
 * depth-first or breadth-first, issued through streamscope's kernel launcher (kernels_add_launch). MODE says what
 * the process does to CUPTI first:
 *   plain      nothing: CUPTI is never loaded (as in the reference program)
 *   attached   what the CUDA backend does before its untraced twins: cupti_capture_load and _init (buffer
 *              callbacks, CONTEXT records), one traced pass of the loop (cupti_capture_enable on, off, flush,
 *              collect), then the timed passes with tracing off
 *   alternate  as attached, and a traced pass before every timed one (the CUDA backend's traced and untraced twins
 *              alternate)
 *   finished   as attached, then cupti_capture_finish (every kind off, CONTEXT too, buffers flushed) before the
 *              timed passes
 *   detached   as finished, then cuptiFinalize (CUPTI detached from the process) before the timed passes
 *   traced     as attached, but the timed passes are traced too
 * One warm-up pass, then REPEATS timed ones. Output, one line a timed pass:
 *   probe mode=MODE streams=S order=ORDER repeat=R ms=T issue_us=U
 * T the events' time, U the host's time for the issue loop alone. z is checked against x + y after the last pass
 * ("probe verified=1"). Errors: one line on stderr, exit 3 (probe_check); bad arguments: usage, exit 2.
 *
 * Usage: cupti_probe plain|attached|alternate|finished|detached|traced STREAMS depth|breadth [REPEATS] (STREAMS a power
 * of two 1..128, REPEATS 1..100, default 10). */
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cupti_capture.h"
#include "kernels.h"
#include "probe.h"

#define PROBE_N (1 << 22)
#define PROBE_MAX_STREAMS 128

/* What one process measures. */
struct probe {
	float *h_x, *h_y, *h_z, *d_x, *d_y, *d_z;
	cudaStream_t streams[PROBE_MAX_STREAMS];
	int num;
	int breadth;
};

/* One stream's H2Ds (part 0), kernel (1) or D2H (2). */
static void probe_part(const struct probe *p, int i, int part)
{
	int n1 = PROBE_N / p->num, off = i * n1;
	size_t m1 = (size_t)n1 * sizeof(float);

	if (part == 0) {
		probe_check(cudaMemcpyAsync(p->d_x + off, p->h_x + off, m1, cudaMemcpyHostToDevice, p->streams[i]),
		            "cudaMemcpyAsync x");
		probe_check(cudaMemcpyAsync(p->d_y + off, p->h_y + off, m1, cudaMemcpyHostToDevice, p->streams[i]),
		            "cudaMemcpyAsync y");
	} else if (part == 1) {
		probe_check((cudaError_t)kernels_add_launch(p->d_x + off, p->d_y + off, p->d_z + off, (uint64_t)n1, 400,
		                                            (uint32_t)((n1 - 1) / 128 + 1), 128, p->streams[i]),
		            "add");
	} else {
		probe_check(cudaMemcpyAsync(p->h_z + off, p->d_z + off, m1, cudaMemcpyDeviceToHost, p->streams[i]),
		            "cudaMemcpyAsync z");
	}
}

/* One pass of the loop: its event time (ms) and the host's issue time (us). */
static void probe_pass(const struct probe *p, float *ms, double *issue_us)
{
	cudaEvent_t start, stop;
	double t0;

	probe_check(cudaEventCreate(&start), "cudaEventCreate");
	probe_check(cudaEventCreate(&stop), "cudaEventCreate");
	probe_check(cudaEventRecord(start, 0), "cudaEventRecord start");
	cudaEventQuery(start);
	t0 = probe_now_us();
	if (p->breadth) {
		for (int part = 0; part < 3; part++)
			for (int i = 0; i < p->num; i++)
				probe_part(p, i, part);
	} else {
		for (int i = 0; i < p->num; i++)
			for (int part = 0; part < 3; part++)
				probe_part(p, i, part);
	}
	*issue_us = probe_now_us() - t0;
	probe_check(cudaEventRecord(stop, 0), "cudaEventRecord stop");
	probe_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
	probe_check(cudaEventElapsedTime(ms, start, stop), "cudaEventElapsedTime");
	probe_check(cudaGetLastError(), "a launch");
	probe_check(cudaEventDestroy(start), "cudaEventDestroy");
	probe_check(cudaEventDestroy(stop), "cudaEventDestroy");
}

/* exit 3 with cause when rc < 0 (a CUPTI step). */
static void probe_cupti(int rc, char *cause)
{
	if (rc < 0) {
		fprintf(stderr, "cupti_probe: %s\n", cause != NULL ? cause : "CUPTI failed");
		exit(3);
	}
}

/* One traced pass, its records collected and dropped: the CUDA backend's traced twin before an untraced one. */
static void probe_traced_pass(const struct probe *p)
{
	struct cupti_convert_map map;
	struct cupti_capture_batch b = {0};
	char *cause = NULL;
	float ms;
	double us;

	memset(&map, 0, sizeof map);
	probe_cupti(cupti_capture_enable(true, &cause), cause);
	probe_pass(p, &ms, &us);
	probe_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
	probe_cupti(cupti_capture_enable(false, &cause), cause);
	probe_cupti(cupti_capture_flush(&cause), cause);
	probe_cupti(cupti_capture_collect(&map, 0, &b, &cause), cause);
	cupti_capture_batch_free(&b);
}

int main(int argc, char **argv)
{
	struct probe p;
	const char *mode = argc > 1 ? argv[1] : "";
	int alternate = strcmp(mode, "alternate") == 0, detached = strcmp(mode, "detached") == 0;
	int finished = detached || strcmp(mode, "finished") == 0;
	int attached = alternate || finished || strcmp(mode, "attached") == 0, traced = strcmp(mode, "traced") == 0;
	long repeats = argc > 4 ? strtol(argv[4], NULL, 10) : 10;
	char *cause = NULL;
	int ok = 1;

	memset(&p, 0, sizeof p);
	p.num = argc > 2 ? atoi(argv[2]) : 0;
	p.breadth = argc > 3 && strcmp(argv[3], "breadth") == 0;
	if (argc < 4 || argc > 5 || (!attached && !traced && strcmp(mode, "plain") != 0) || p.num < 1 ||
	    p.num > PROBE_MAX_STREAMS || (p.num & (p.num - 1)) != 0 || (!p.breadth && strcmp(argv[3], "depth") != 0) ||
	    repeats < 1 || repeats > 100) {
		fprintf(stderr, "usage: cupti_probe plain|attached|alternate|finished|detached|traced STREAMS "
		                "depth|breadth [REPEATS]: STREAMS a "
		                "power of two 1..128, REPEATS 1..100\n");
		return 2;
	}
	if (attached || traced) {
		probe_cupti(cupti_capture_load(&cause), cause);
		probe_cupti(cupti_capture_init(&cause), cause);
	}
	probe_check(cudaMallocHost((void **)&p.h_x, PROBE_N * sizeof(float)), "cudaMallocHost");
	probe_check(cudaMallocHost((void **)&p.h_y, PROBE_N * sizeof(float)), "cudaMallocHost");
	probe_check(cudaMallocHost((void **)&p.h_z, PROBE_N * sizeof(float)), "cudaMallocHost");
	for (int n = 0; n < PROBE_N; n++) {
		p.h_x[n] = 1.23f;
		p.h_y[n] = 2.34f;
	}
	probe_check(cudaMalloc((void **)&p.d_x, PROBE_N * sizeof(float)), "cudaMalloc");
	probe_check(cudaMalloc((void **)&p.d_y, PROBE_N * sizeof(float)), "cudaMalloc");
	probe_check(cudaMalloc((void **)&p.d_z, PROBE_N * sizeof(float)), "cudaMalloc");
	for (int i = 0; i < PROBE_MAX_STREAMS; i++)
		probe_check(cudaStreamCreate(&p.streams[i]), "cudaStreamCreate");
	if (attached)
		probe_traced_pass(&p);
	if (finished)
		cupti_capture_finish();
	if (detached) {
		/* cuptiFinalize from the library cupti_capture_load opened */
		void *lib = dlopen("libcupti.so.13", RTLD_LAZY | RTLD_NOLOAD);
		int (*finalize)(void) = lib != NULL ? (int (*)(void))dlsym(lib, "cuptiFinalize") : NULL;

		if (finalize == NULL || finalize() != 0) {
			fprintf(stderr, "cupti_probe: cuptiFinalize: %s\n", finalize == NULL ? "not found" : "failed");
			return 3;
		}
	}
	if (traced)
		probe_cupti(cupti_capture_enable(true, &cause), cause);
	for (long r = 0; r <= repeats; r++) {
		float ms;
		double us;

		if (alternate)
			probe_traced_pass(&p);
		probe_pass(&p, &ms, &us);
		if (r > 0)
			printf("probe mode=%s streams=%d order=%s repeat=%ld ms=%.6f issue_us=%.1f\n", mode, p.num,
			       p.breadth ? "breadth" : "depth", r, (double)ms, us);
		if (traced) {
			struct cupti_convert_map map;
			struct cupti_capture_batch b = {0};

			memset(&map, 0, sizeof map);
			probe_cupti(cupti_capture_flush(&cause), cause);
			probe_cupti(cupti_capture_collect(&map, 0, &b, &cause), cause);
			cupti_capture_batch_free(&b);
		}
	}
	for (int n = 0; n < PROBE_N && ok; n++)
		ok = p.h_z[n] == p.h_x[n] + p.h_y[n];
	printf("probe verified=%d\n", ok);
	if ((attached || traced) && !finished)
		cupti_capture_finish();
	return ok ? 0 : 1;
}
