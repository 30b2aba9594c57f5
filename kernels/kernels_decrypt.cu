/* kernels_decrypt.cu: an invertible 64-bit permutation applied `rounds` times on the host, undone on the GPU
 * (the decrypt preset). */
#include <cuda_runtime.h>
#include <pthread.h>
#include <unistd.h>

#include "kernels.h"

#define DECRYPT_MUL 0x9e3779b97f4a7c15ull /* odd: invertible modulo 2^64 */
#define DECRYPT_ADD 0x632be59bd9b4e019ull
#define DECRYPT_STEP 0x8cb92ba72f3d8dd7ull
#define DECRYPT_SHIFT 29
#define DECRYPT_ROT 23

/* One forward round r: xorshift, multiply by an odd constant, rotate, add a round constant. */
static __host__ __device__ inline uint64_t decrypt_round(uint64_t x, uint32_t r)
{
	x ^= x >> DECRYPT_SHIFT;
	x *= DECRYPT_MUL;
	x = (x << DECRYPT_ROT) | (x >> (64 - DECRYPT_ROT));
	return x + DECRYPT_ADD + (uint64_t)r * DECRYPT_STEP;
}

/* The inverse of decrypt_round(., r); inv is DECRYPT_MUL's inverse modulo 2^64. */
static __host__ __device__ inline uint64_t decrypt_unround(uint64_t x, uint32_t r, uint64_t inv)
{
	x -= DECRYPT_ADD + (uint64_t)r * DECRYPT_STEP;
	x = (x >> DECRYPT_ROT) | (x << (64 - DECRYPT_ROT));
	x *= inv;
	return x ^ (x >> DECRYPT_SHIFT) ^ (x >> (2 * DECRYPT_SHIFT));
}

/* Document 000's decrypt_gpu: a grid-stride loop over the entries, each decrypted in place. */
extern "C" __global__ void ss_decrypt(uint64_t *data, uint64_t num_entries, uint32_t num_iters, uint64_t inv)
{
	const uint64_t thrdID = blockIdx.x * blockDim.x + threadIdx.x;
	const uint64_t stride = blockDim.x * gridDim.x;

	for (uint64_t entry = thrdID; entry < num_entries; entry += stride) {
		uint64_t x = data[entry];
		for (uint32_t r = num_iters; r > 0; r--)
			x = decrypt_unround(x, r - 1, inv);
		data[entry] = x;
	}
}

/* The inverse of an odd number modulo 2^64 by Newton's iteration (each step doubles the correct low bits). */
static uint64_t decrypt_inverse(uint64_t m)
{
	uint64_t inv = m; /* correct to 3 bits for odd m */

	for (int k = 0; k < 5; k++)
		inv *= 2 - m * inv;
	return inv;
}

extern "C" int kernels_decrypt_launch(uint64_t *data, uint64_t n, uint32_t rounds, uint32_t grid, uint32_t block,
                                      void *stream)
{
	if (grid == 0 || block == 0 || grid > 0x7fffffffu)
		return (int)cudaErrorInvalidConfiguration;
	uint64_t inv = decrypt_inverse(DECRYPT_MUL);
	void *args[] = {(void *)&data, (void *)&n, (void *)&rounds, (void *)&inv};
	return (int)cudaLaunchKernel((const void *)ss_decrypt, dim3(grid), dim3(block), args, 0, (cudaStream_t)stream);
}

extern "C" void kernels_decrypt_host(const uint64_t *in, uint64_t *out, uint64_t n, uint32_t rounds)
{
	uint64_t inv = decrypt_inverse(DECRYPT_MUL);

	for (uint64_t i = 0; i < n; i++) {
		uint64_t x = in[i];
		for (uint32_t r = rounds; r > 0; r--)
			x = decrypt_unround(x, r - 1, inv);
		out[i] = x;
	}
}

/* A slice of the host-side encryption. */
struct decrypt_slice {
	uint64_t *data;
	uint64_t first, n;
	uint32_t rounds;
};

/* Encrypt a slice, eight independent elements at a time so the host core overlaps their dependent chains. */
static void *decrypt_encrypt_slice(void *arg)
{
	struct decrypt_slice *s = (struct decrypt_slice *)arg;
	uint64_t i = 0;

	for (; i + 8 <= s->n; i += 8) {
		uint64_t x[8];
		for (int k = 0; k < 8; k++)
			x[k] = s->first + i + k;
		for (uint32_t r = 0; r < s->rounds; r++)
			for (int k = 0; k < 8; k++)
				x[k] = decrypt_round(x[k], r);
		for (int k = 0; k < 8; k++)
			s->data[i + k] = x[k];
	}
	for (; i < s->n; i++) {
		uint64_t x = s->first + i;
		for (uint32_t r = 0; r < s->rounds; r++)
			x = decrypt_round(x, r);
		s->data[i] = x;
	}
	return NULL;
}

extern "C" void kernels_decrypt_encrypt(uint64_t *data, uint64_t first, uint64_t n, uint32_t rounds)
{
	enum { MAX_THREADS = 64 };
	struct decrypt_slice slice[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	bool started[MAX_THREADS] = {false};
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
	uint64_t per;

	if (n < (1u << 16))
		nt = 1;
	per = (n + (uint64_t)nt - 1) / (uint64_t)nt;
	for (int t = 0; t < nt; t++) {
		uint64_t lo = per * (uint64_t)t < n ? per * (uint64_t)t : n;
		uint64_t hi = lo + per < n ? lo + per : n;
		slice[t].data = data + lo;
		slice[t].first = first + lo;
		slice[t].n = hi - lo;
		slice[t].rounds = rounds;
		/* A thread that cannot start is done inline: the result is the same. */
		started[t] = t > 0 && pthread_create(&tid[t], NULL, decrypt_encrypt_slice, &slice[t]) == 0;
		if (t > 0 && !started[t])
			decrypt_encrypt_slice(&slice[t]);
	}
	decrypt_encrypt_slice(&slice[0]);
	for (int t = 1; t < nt; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
}

extern "C" int kernels_decrypt_verify(const uint64_t *data, uint64_t first, uint64_t n, uint64_t *bad)
{
	for (uint64_t i = 0; i < n; i++) {
		if (data[i] != first + i) {
			*bad = i;
			return -1;
		}
	}
	return 0;
}
