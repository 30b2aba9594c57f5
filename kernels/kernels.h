/* kernels.h: the presets' CUDA kernels behind C-callable launch wrappers, and their host-side references.
 * No CUDA types here: streams are passed as void * (a cudaStream_t, including cudaStreamLegacy and
 * cudaStreamPerThread), results as int (a cudaError_t, 0 = success; cudaGetErrorString names it). */
#ifndef SS_KERNELS_H
#define SS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The repeats of document 001's add kernel (kernel-transfer.cu): launched with a constant loop bound. */
#define KERNELS_ADD_DOC_REPEATS 400
/* Floating-point operations per element and `work` repeat of the fma kernel's inner statement. */
#define KERNELS_FMA_OPS_PER_WORK 8

/* kernels_add_launch: document 001's add, z[i] = x[i] + y[i] for i < n stored `repeats` times, <<<grid, block>>>
 * (grid * block must cover n; n < 2^31, the kernel's int index). Returns the launch error. n = 0 still launches. */
int kernels_add_launch(const float *x, const float *y, float *z, uint64_t n, uint32_t repeats, uint32_t grid,
                       uint32_t block, void *stream);
/* kernels_fma_launch: z[i] = x[i] + y[i] for i < n at the end of a chain of KERNELS_FMA_OPS_PER_WORK x work
 * dependent FMAs that always ends at x + y (exact, its time set by work), <<<grid, block>>> covering n. */
int kernels_fma_launch(const float *x, const float *y, float *z, uint64_t n, uint32_t work, uint32_t grid,
                       uint32_t block, void *stream);
/* kernels_add_fill writes the inputs of elements [first, first+n): positive values whose sums are exact (add
 * and fma). */
void kernels_add_fill(float *x, float *y, uint64_t first, uint64_t n);
/* kernels_add_verify checks z[i] == x[i] + y[i] over [0, n). Returns 0, or -1 with *bad the first wrong index. */
int kernels_add_verify(const float *x, const float *y, const float *z, uint64_t n, uint64_t *bad);

/* kernels_decrypt_launch is document 000's decrypt_gpu: undoes `rounds` rounds of the permutation
 * kernels_decrypt_encrypt applied, in place over data[0, n), <<<grid, block>>> with a grid-stride loop (any grid
 * covers any n). */
int kernels_decrypt_launch(uint64_t *data, uint64_t n, uint32_t rounds, uint32_t grid, uint32_t block, void *stream);
/* kernels_decrypt_encrypt sets data[i] = E^rounds(first + i) for i < n, E an invertible 64-bit permutation
 * (xorshift, multiply by an odd constant, rotate, add a round constant). Uses all host cores. */
void kernels_decrypt_encrypt(uint64_t *data, uint64_t first, uint64_t n, uint32_t rounds);
/* kernels_decrypt_host is the decrypt kernel's arithmetic run on the host (for tests of the permutation). */
void kernels_decrypt_host(const uint64_t *in, uint64_t *out, uint64_t n, uint32_t rounds);
/* kernels_decrypt_verify checks data[i] == first + i (the identity). Returns 0, or -1 with *bad the index. */
int kernels_decrypt_verify(const uint64_t *data, uint64_t first, uint64_t n, uint64_t *bad);

/* kernels_spin_launch: one block of one thread iterates the 32-bit LCG x = x * a + c `iterations` times on
 * *slot (a dependent chain: time ~ iterations, a few ns each). Two launches on one slot compose. */
int kernels_spin_launch(uint32_t *slot, uint64_t iterations, void *stream);
/* kernels_spin_expect gives the value of a slot that held seed after `iterations` LCG steps in total
 * (closed form, O(log iterations)). */
uint32_t kernels_spin_expect(uint32_t seed, uint64_t iterations);

/* Document 004's run_task: kernels_task_transform_launch, data[i] = 2 in[i] + 1; kernels_task_host (the host's
 * host_process), data[i] += 1; kernels_task_convert_launch, out[i] = data[i] - 3: grid-stride loops over n < 2^31
 * ints, <<<grid, block>>>. kernels_task_fill writes in[] for elements [first, first+n); kernels_task_verify checks
 * out[i] == 2 in[i] - 1 (0, or -1 with *bad the first wrong index). */
int kernels_task_transform_launch(const int *in, int *data, uint64_t n, uint32_t grid, uint32_t block, void *stream);
int kernels_task_convert_launch(int *out, const int *data, uint64_t n, uint32_t grid, uint32_t block, void *stream);
void kernels_task_host(int *data, uint64_t n);
void kernels_task_fill(int *in, uint64_t first, uint64_t n);
int kernels_task_verify(const int *in, const int *out, uint64_t n, uint64_t *bad);

/* kernels_touch_launch: one block of one thread writes value to *slot (the small interfering operation put on the
 * legacy or per-thread default stream). */
int kernels_touch_launch(uint32_t *slot, uint32_t value, void *stream);

#ifdef __cplusplus
}
#endif

#endif
