/* small-copies.cu: pathology small-copies: a 64 MiB table is uploaded in one copy (the link's real bandwidth),
 * then 4 non-blocking streams gather rows for 16 rounds each: 64 separate 4 KiB cudaMemcpyAsync per chunk (4096
 * in all, pinned), a kernel mapping the gathered rows, and one 256 KiB copy back. Each 4 KiB copy costs a fixed
 * latency far above its bytes' time at that bandwidth. Expected: small-copies, its evidence the 4 KiB H2D copies. */
#include "common.cuh"

const char *app_name = "small-copies";

#define STREAMS 4
#define ROUNDS 16
#define ROWS_PER_CHUNK 64
#define ROW_ELEMS 1024 /* 4 KiB */
#define TABLE_ROWS 1024

/* The source row of chunk c's j-th row: scattered over the table. */
static int row_of(int c, int j)
{
	return (c * 131 + j * 17) % TABLE_ROWS;
}

int main(void)
{
	size_t table_elems = (size_t)16 << 20, chunk_elems = (size_t)ROWS_PER_CHUNK * ROW_ELEMS, bad = 0;
	size_t row_bytes = ROW_ELEMS * sizeof(uint32_t), chunk_bytes = chunk_elems * sizeof(uint32_t);
	int chunks = STREAMS * ROUNDS, grid = app_grid();
	uint32_t *htable, *rows, *hout, *dtable, *part, *drows[STREAMS], *dout[STREAMS];
	cudaStream_t s[STREAMS];
	uint32_t want;
	double t0, ms;
	char extra[160];

	app_init();
	CHECK(cudaMallocHost((void **)&htable, table_elems * sizeof(uint32_t)));
	CHECK(cudaMallocHost((void **)&rows, (size_t)TABLE_ROWS * row_bytes));
	CHECK(cudaMallocHost((void **)&hout, (size_t)chunks * chunk_bytes));
	CHECK(cudaHostAlloc((void **)&part, (size_t)grid * sizeof(uint32_t), cudaHostAllocMapped));
	CHECK(cudaMalloc((void **)&dtable, table_elems * sizeof(uint32_t)));
	app_fill(htable, 0, table_elems);
	app_fill(rows, 1u << 30, (size_t)TABLE_ROWS * ROW_ELEMS);
	for (int k = 0; k < STREAMS; k++) {
		CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
		CHECK(cudaMalloc((void **)&drows[k], chunk_bytes));
		CHECK(cudaMalloc((void **)&dout[k], chunk_bytes));
	}
	t0 = app_now_ms();
	/* the bulk upload, summed on the device (checked at the end: no host work between it and the gathers) */
	CHECK(cudaMemcpyAsync(dtable, htable, table_elems * sizeof(uint32_t), cudaMemcpyHostToDevice, s[0]));
	app_sum<<<grid, 256, 0, s[0]>>>(dtable, 0, table_elems, 7u, part, 0);
	CHECK(cudaGetLastError());
	/* the gathers: one copy per row */
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < STREAMS; k++) {
			int c = r * STREAMS + k;

			for (int j = 0; j < ROWS_PER_CHUNK; j++)
				CHECK(cudaMemcpyAsync(drows[k] + (size_t)j * ROW_ELEMS,
				                      rows + (size_t)row_of(c, j) * ROW_ELEMS, row_bytes,
				                      cudaMemcpyHostToDevice, s[k]));
			app_map<<<grid, 256, 0, s[k]>>>(drows[k], dout[k], chunk_elems, (uint32_t)c, 150000ull);
			CHECK(cudaGetLastError());
			CHECK(cudaMemcpyAsync(hout + (size_t)c * chunk_elems, dout[k], chunk_bytes,
			                      cudaMemcpyDeviceToHost, s[k]));
		}
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	want = app_sum_host(htable, 0, table_elems, 7u);
	for (int b = 0; b < grid; b++)
		want -= part[b];
	bad += want != 0;
	for (int c = 0; c < chunks; c++)
		for (int j = 0; j < ROWS_PER_CHUNK; j++)
			bad += app_check_map(rows + (size_t)row_of(c, j) * ROW_ELEMS, 0,
			                     hout + (size_t)c * chunk_elems + (size_t)j * ROW_ELEMS, ROW_ELEMS,
			                     (uint32_t)c);
	snprintf(extra, sizeof extra, "streams=4 small_copies=%d small_bytes=%zu table_bytes=%zu",
	         chunks * ROWS_PER_CHUNK, row_bytes, table_elems * sizeof(uint32_t));
	return app_done(bad, ms, extra);
}
