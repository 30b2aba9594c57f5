/* ref_decrypt.cu: document 000's exercise (../shared/seeds/000_*.txt), overlapping copies and compute, written
 * plainly from its text: the reference `streamscope bench` holds the decrypt preset to. Only cudart; no streamscope
 * code.
 *
 * What it runs, as the document does: num_entries = 2^26 uint64 in pinned memory (cudaMallocHost) and one device
 * array (cudaMalloc), num_iters = 2^10, num_streams blocking streams (cudaStreamCreate; 32 by default), chunk_size =
 * sdiv(num_entries, num_streams), and per stream: lower = chunk_size * stream, upper = min(lower + chunk_size,
 * num_entries) (the tail), width = upper - lower, cudaMemcpyAsync H2D of width entries at lower,
 * decrypt_gpu<<<80*32, 64, 0, stream>>>(data_gpu + lower, width, num_iters) with its grid-stride loop, and the
 * D2H back to data_cpu + lower; then cudaStreamSynchronize of each stream in order; then check_result_cpu (each
 * entry equal to its index).
 *
 * The document's encryption.cuh (permute64 / unpermute64) is not given: here they are the permutation
 * streamscope's decrypt kernel applies (kernels/kernels_decrypt.cu: decrypt_round, decrypt_unround, the
 * multiplier's inverse modulo 2^64), num_iters rounds, so each entry costs the same work. encrypt_cpu runs on every
 * host core (std::thread, eight entries interleaved per thread so that their dependent rounds overlap; the
 * document's is an OpenMP loop); the result is the same.
 *
 * What is timed: the document's Timer is a host timer around stream creation, the issue loop, the syncs and the
 * destruction. Here two cudaEvents on the legacy default stream time the issue loop through the syncs: start
 * recorded just before the first cudaMemcpyAsync, stop recorded after the last cudaStreamSynchronize, then
 * cudaEventSynchronize(stop). The streams are created once before the repeats and destroyed after them.
 *
 * Repeats: one warm-up, then REPEATS timed ones. Every repeat decrypts encrypted data: a pristine encrypted copy is
 * kept in pageable memory and copied into data_cpu before each repeat (outside the timed interval); after each
 * repeat cudaGetLastError and check_result_cpu, also outside it.
 *
 * The other issue order, breadth, is not the document's loop but the same calls regrouped, as streamscope's
 * --order breadth issues them: every stream's H2D in turn, then every stream's decrypt_gpu, then every stream's D2H;
 * the syncs as before.
 *
 * Usage: ref_decrypt [--encrypted FILE] [--order depth|breadth] [STREAMS [REPEATS]]: STREAMS 1..128 (default 32,
 * the document's), REPEATS 1..1000 (default 3), the order by default depth (the document's). --encrypted FILE is not
 * the document's: encrypting 2^26 entries takes seconds, so bench encrypts once for all its runs: a FILE of exactly
 * num_entries * 8 bytes is read as the encrypted data instead of encrypting, any other (or none) is replaced by the
 * data this run encrypts. A wrong file cannot pass: the result must still be the identity.
 *
 * Output on stdout, one line each, a stable format (bench parses it: src/run/refrun.h):
 *   ref=decrypt streams=S order=ORDER repeat=R ms=T    each timed repeat R = 1..REPEATS, T its event time in ms
 *   ref=decrypt verified=1                             last, when every repeat's result was the identity
 * order=depth is streamscope's name for the document's issue order (each stream's copy, kernel and copy in turn).
 * Errors: one line on stderr naming the CUDA call and its error, exit 1; a wrong result: "verified=0" on stdout,
 * the entry on stderr, exit 1; a bad argument: usage on stderr, exit 2. */
#include <algorithm>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <vector>

/* CHECK(call): the call's text and CUDA's words on stderr, exit 1. */
#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		const cudaError_t error_code = call;                                                                   \
		if (error_code != cudaSuccess) {                                                                       \
			fprintf(stderr, "ref_decrypt: %s: %s (%s)\n", #call, cudaGetErrorString(error_code),           \
			        cudaGetErrorName(error_code));                                                         \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)

/* kernels/kernels_decrypt.cu's round constants: an odd multiplier (invertible modulo 2^64), an additive constant
 * and a per-round step, a xorshift and a rotation. */
#define DECRYPT_MUL 0x9e3779b97f4a7c15ull
#define DECRYPT_ADD 0x632be59bd9b4e019ull
#define DECRYPT_STEP 0x8cb92ba72f3d8dd7ull
#define DECRYPT_SHIFT 29
#define DECRYPT_ROT 23

/* The inverse of an odd m modulo 2^64 by Newton's iteration (each step doubles the correct low bits). */
static constexpr uint64_t inverse64(uint64_t m)
{
	uint64_t inv = m; /* correct to 3 bits for odd m */
	for (int k = 0; k < 5; k++)
		inv *= 2 - m * inv;
	return inv;
}

static constexpr uint64_t DECRYPT_INV = inverse64(DECRYPT_MUL);
static_assert(DECRYPT_MUL * DECRYPT_INV == 1, "DECRYPT_INV is the multiplier's inverse");

/* One forward round r: xorshift, multiply by the odd constant, rotate, add a round constant. */
__host__ __device__ inline uint64_t decrypt_round(uint64_t x, uint32_t r)
{
	x ^= x >> DECRYPT_SHIFT;
	x *= DECRYPT_MUL;
	x = (x << DECRYPT_ROT) | (x >> (64 - DECRYPT_ROT));
	return x + DECRYPT_ADD + (uint64_t)r * DECRYPT_STEP;
}

/* The inverse of decrypt_round(., r). */
__host__ __device__ inline uint64_t decrypt_unround(uint64_t x, uint32_t r)
{
	x -= DECRYPT_ADD + (uint64_t)r * DECRYPT_STEP;
	x = (x >> DECRYPT_ROT) | (x << (64 - DECRYPT_ROT));
	x *= DECRYPT_INV;
	return x ^ (x >> DECRYPT_SHIFT) ^ (x >> (2 * DECRYPT_SHIFT));
}

/* encryption.cuh's permute64: num_iters rounds forward (counted in 32 bits, as streamscope's kernel counts them:
 * the same instructions per round). */
__host__ __device__ inline uint64_t permute64(uint64_t x, uint64_t num_iters)
{
	for (uint32_t r = 0; r < (uint32_t)num_iters; r++)
		x = decrypt_round(x, r);
	return x;
}

/* encryption.cuh's unpermute64: the rounds undone, last first (counted as permute64's). */
__host__ __device__ inline uint64_t unpermute64(uint64_t x, uint64_t num_iters)
{
	for (uint32_t r = (uint32_t)num_iters; r > 0; r--)
		x = decrypt_unround(x, r - 1);
	return x;
}

/* helpers.cuh's sdiv: the round-up division. */
static uint64_t sdiv(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* data[entry] = permute64(entry) for entries [lo, hi), eight at a time (independent chains, overlapped). */
static void encrypt_slice(uint64_t *data, uint64_t lo, uint64_t hi, uint64_t num_iters)
{
	uint64_t entry = lo;

	for (; entry + 8 <= hi; entry += 8) {
		uint64_t x[8];
		for (int k = 0; k < 8; k++)
			x[k] = entry + k;
		for (uint32_t r = 0; r < (uint32_t)num_iters; r++)
			for (int k = 0; k < 8; k++)
				x[k] = decrypt_round(x[k], r);
		for (int k = 0; k < 8; k++)
			data[entry + k] = x[k];
	}
	for (; entry < hi; entry++)
		data[entry] = permute64(entry, num_iters);
}

/* The document's encrypt_cpu: data[entry] = permute64(entry, num_iters), on every host core. */
static void encrypt_cpu(uint64_t *data, uint64_t num_entries, uint64_t num_iters)
{
	unsigned nt = std::max(1u, std::thread::hardware_concurrency());
	uint64_t per = sdiv(num_entries, nt);
	std::vector<std::thread> threads;

	for (unsigned t = 1; t < nt; t++) {
		uint64_t lo = std::min<uint64_t>(per * t, num_entries), hi = std::min<uint64_t>(lo + per, num_entries);
		threads.emplace_back(encrypt_slice, data, lo, hi, num_iters);
	}
	encrypt_slice(data, 0, std::min(per, num_entries), num_iters);
	for (auto &t : threads)
		t.join();
}

/* The document's decrypt_gpu: a grid-stride loop over num_entries, each entry unpermuted in place. */
__global__ void decrypt_gpu(uint64_t *data, uint64_t num_entries, uint64_t num_iters)
{
	const uint64_t thrdID = blockIdx.x * blockDim.x + threadIdx.x;
	const uint64_t stride = blockDim.x * gridDim.x;
	for (uint64_t entry = thrdID; entry < num_entries; entry += stride)
		data[entry] = unpermute64(data[entry], num_iters);
}

/* The document's check_result_cpu: every entry equal to its index; reports the first that is not. */
static bool check_result_cpu(const uint64_t *data, uint64_t num_entries)
{
	for (uint64_t entry = 0; entry < num_entries; entry++)
		if (data[entry] != entry) {
			fprintf(stderr, "ref_decrypt: data[%llu] = %#llx after decryption, expected %llu\n",
			        (unsigned long long)entry, (unsigned long long)data[entry], (unsigned long long)entry);
			return false;
		}
	return true;
}

/* Reads path into enc (bytes) when it holds exactly that many bytes; false otherwise. */
static bool read_encrypted(const char *path, uint64_t *enc, size_t bytes)
{
	FILE *f = fopen(path, "rb");
	bool ok;

	if (f == NULL)
		return false;
	ok = fseek(f, 0, SEEK_END) == 0 && ftell(f) == (long)bytes && fseek(f, 0, SEEK_SET) == 0 &&
	     fread(enc, 1, bytes, f) == bytes;
	fclose(f);
	return ok;
}

/* Writes enc to path through path.tmp renamed into place, so a reader never sees half a file; a failure is said on
 * stderr and is not an error (the next run encrypts again). */
static void write_encrypted(const char *path, const uint64_t *enc, size_t bytes)
{
	std::vector<char> tmp(strlen(path) + 5);
	FILE *f;

	snprintf(tmp.data(), tmp.size(), "%s.tmp", path);
	f = fopen(tmp.data(), "wb");
	if (f == NULL || fwrite(enc, 1, bytes, f) != bytes || fclose(f) != 0 || rename(tmp.data(), path) != 0) {
		fprintf(stderr, "ref_decrypt: note: cannot keep the encrypted data in %s\n", path);
		remove(tmp.data());
	}
}

/* A whole-number argument in [lo, hi], else -1. */
static long parse_number(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || *end != '\0' || v < lo || v > hi ? -1 : v;
}

int main(int argc, char **argv)
{
	const uint64_t num_entries = 1UL << 26;
	const uint64_t num_iters = 1UL << 10;
	const size_t bytes = sizeof(uint64_t) * num_entries;
	const char *encrypted = NULL;
	long num_streams = 32, repeats = 3;
	int a = 1;

	bool breadth = false, bad_order = false;

	if (a + 1 < argc && strcmp(argv[a], "--encrypted") == 0) {
		encrypted = argv[a + 1];
		a += 2;
	}
	if (a < argc && strcmp(argv[a], "--order") == 0) {
		bad_order = a + 1 >= argc || (strcmp(argv[a + 1], "depth") != 0 && strcmp(argv[a + 1], "breadth") != 0);
		breadth = !bad_order && strcmp(argv[a + 1], "breadth") == 0;
		a += 2;
	}
	if (bad_order || (a < argc && (num_streams = parse_number(argv[a++], 1, 128)) < 0) ||
	    (a < argc && (repeats = parse_number(argv[a++], 1, 1000)) < 0) || a < argc) {
		fprintf(stderr, "usage: ref_decrypt [--encrypted FILE] [--order depth|breadth] [STREAMS [REPEATS]]: "
		                "STREAMS 1..128, REPEATS 1..1000\n");
		return 2;
	}

	uint64_t *data_cpu, *data_gpu;
	CHECK(cudaMallocHost(&data_cpu, bytes));
	CHECK(cudaMalloc(&data_gpu, bytes));
	std::vector<uint64_t> enc(num_entries); /* the pristine encrypted data */
	if (encrypted == NULL || !read_encrypted(encrypted, enc.data(), bytes)) {
		encrypt_cpu(enc.data(), num_entries, num_iters);
		if (encrypted != NULL)
			write_encrypted(encrypted, enc.data(), bytes);
	}

	std::vector<cudaStream_t> streams(num_streams);
	for (long stream = 0; stream < num_streams; stream++)
		CHECK(cudaStreamCreate(&streams[stream]));
	cudaEvent_t start, stop;
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	const uint64_t chunk_size = sdiv(num_entries, num_streams);

	bool success = true;
	for (long repeat = 0; repeat <= repeats && success; repeat++) {
		memcpy(data_cpu, enc.data(), bytes);
		CHECK(cudaEventRecord(start));
		if (!breadth) {
			for (long stream = 0; stream < num_streams; stream++) {
				const uint64_t lower = chunk_size * stream;
				const uint64_t upper = std::min(lower + chunk_size, num_entries);
				const uint64_t width = upper - lower;
				CHECK(cudaMemcpyAsync(data_gpu + lower, data_cpu + lower, sizeof(uint64_t) * width,
				                      cudaMemcpyHostToDevice, streams[stream]));
				decrypt_gpu<<<80 * 32, 64, 0, streams[stream]>>>(data_gpu + lower, width, num_iters);
				CHECK(cudaMemcpyAsync(data_cpu + lower, data_gpu + lower, sizeof(uint64_t) * width,
				                      cudaMemcpyDeviceToHost, streams[stream]));
			}
		} else {
			for (long stream = 0; stream < num_streams; stream++) {
				const uint64_t lower = chunk_size * stream;
				const uint64_t width = std::min(lower + chunk_size, num_entries) - lower;
				CHECK(cudaMemcpyAsync(data_gpu + lower, data_cpu + lower, sizeof(uint64_t) * width,
				                      cudaMemcpyHostToDevice, streams[stream]));
			}
			for (long stream = 0; stream < num_streams; stream++) {
				const uint64_t lower = chunk_size * stream;
				const uint64_t width = std::min(lower + chunk_size, num_entries) - lower;
				decrypt_gpu<<<80 * 32, 64, 0, streams[stream]>>>(data_gpu + lower, width, num_iters);
			}
			for (long stream = 0; stream < num_streams; stream++) {
				const uint64_t lower = chunk_size * stream;
				const uint64_t width = std::min(lower + chunk_size, num_entries) - lower;
				CHECK(cudaMemcpyAsync(data_cpu + lower, data_gpu + lower, sizeof(uint64_t) * width,
				                      cudaMemcpyDeviceToHost, streams[stream]));
			}
		}
		for (long stream = 0; stream < num_streams; stream++)
			CHECK(cudaStreamSynchronize(streams[stream]));
		CHECK(cudaEventRecord(stop));
		CHECK(cudaEventSynchronize(stop));
		float ms;
		CHECK(cudaEventElapsedTime(&ms, start, stop));
		CHECK(cudaGetLastError()); /* check_last_error: a launch that failed */
		success = check_result_cpu(data_cpu, num_entries);
		if (repeat > 0 && success)
			printf("ref=decrypt streams=%ld order=%s repeat=%ld ms=%.6f\n", num_streams,
			       breadth ? "breadth" : "depth", repeat, (double)ms);
		fflush(stdout);
	}
	printf("ref=decrypt verified=%d\n", success ? 1 : 0);
	fflush(stdout);

	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(stop));
	for (long stream = 0; stream < num_streams; stream++)
		CHECK(cudaStreamDestroy(streams[stream]));
	CHECK(cudaFreeHost(data_cpu));
	CHECK(cudaFree(data_gpu));
	return success ? 0 : 1;
}
