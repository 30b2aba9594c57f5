/* profile.c: the calibration profile: key table, built-in H200 values, text file load/save. */
#include "model/profile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/vec.h"
#include "core/xalloc.h"

/* The tag after a profile line's value, by enum ss_prov (no tag: an estimate). */
static const char *const prov_names[] = {"estimate", "measured", "fitted", "modelled"};
#define NPROV ((int)(sizeof prov_names / sizeof prov_names[0]))

/* How a key's value is stored in struct ss_profile. */
enum key_type { KEY_DOUBLE, KEY_INT };

/* One key of the file format: where it lives, its range, its built-in H200 value and why that value. */
struct profile_key {
	const char *name;
	size_t off;
	enum key_type type;
	double min, max;
	double builtin;
	enum ss_prov prov;
	const char *desc; /* what the value is, written as the line's comment */
	const char *why;  /* where the built-in value comes from, added while the value is the built-in one */
};

/* The why of the host call costs: the median of n H200 measurements reduced as calibrate reduces them (the
 * strings it starts are each key's range and adjustments). */
#define HOST_PROBES(n)                                                                                                 \
	"median of the " #n " H200 measurements made with calibrate's reduction: the smoke timelines, five "           \
	"calibrate runs (tests/data/h200/calibrate, validate-queues/calibrate, calibrate2), the host probes before "   \
	"the matrices of validate-host, host-probe and validate-queues (the last two also after them) and 8 probe "    \
	"runs (validate-queues/probes) (ns, untraced): "

#define D(field) offsetof(struct ss_profile, field), KEY_DOUBLE
#define I(field) offsetof(struct ss_profile, field), KEY_INT
#define M SS_PROV_MEASURED
#define E SS_PROV_ESTIMATE
#define F SS_PROV_FITTED

/* The built-in values, each with where it comes from (its why, written beside a built-in value in a saved profile;
 * docs/results.md names the data): "measured" marks values measured on the H200 (shared/H200.md's facts, the
 * H200's timelines and calibrate runs), "estimate" values that were not. */
static const struct profile_key profile_keys[] = {
    {"copy.h2d.bw_gbs", D(h2d.bw_gbs), 0.01, 10000, 55.4, M, "pinned H2D bandwidth",
     "fit of H2D copies alone, 128 KiB..1 GiB, in the smoke timelines"},
    {"copy.h2d.latency_ns", D(h2d.latency_ns), 0, 1e7, 2700, M, "pinned H2D fixed cost per copy", "same fit"},
    {"copy.d2h.bw_gbs", D(d2h.bw_gbs), 0.01, 10000, 55.5, M, "pinned D2H bandwidth",
     "fit of D2H copies alone, 128 KiB..1 GiB, in the smoke timelines"},
    {"copy.d2h.latency_ns", D(d2h.latency_ns), 0, 1e7, 1800, M, "pinned D2H fixed cost per copy", "same fit"},
    {"copy.gap_ns", D(copy_gap_ns), 0, 1e8, 497, M, "a copy engine's idle time between two queued copies (untraced)",
     "calibrate's back-to-back probe (one stream, 512 H2D then 256 D2H copies of 256 KiB, untraced) ran 6.084-6.100 "
     "ms in 4 H200 runs (tests/data/h200/copy-gap); this profile's other keys match their median with 497 ns (the "
     "three calibrations' own profiles, with copy latencies 0.7-1.1 us lower, with 956-1168 ns); traced copies are "
     "1.4 us apart, CUPTI's timestamping included"},
    {"copy.switch_ns", D(copy_switch_ns), 0, 1e8, 300, M,
     "extra idle time of a copy engine when its next copy comes from another hardware queue",
     "bench sweeps, 16..128 streams: back-to-back copies from another queue end 0.3 us later than from the same "
     "queue (median of 12 direction x order x stream-count cells)"},
    {"copy.queues_slow", D(copy_queues_slow), 0, 1, 0.049, M,
     "copies take this fraction longer x (1 - 1/q) with q hardware queues in use",
     "median of 4 calibrate runs on the H200 (tests/data/h200/queue-penalty/calibrate): 0.048, 0.036, 0.059, "
     "0.050; queue-penalty's 4 MiB copies: H2D 5.5%, D2H 3.3% slower on 8 queues"},
    {"copy.both_gbs", D(both_gbs), 0.01, 20000, 100.5, M, "H2D + D2H together when both directions run",
     "copies overlapped by the other direction in the smoke timelines: 49.9 + 46.5 = 96.4 on 8 queues, x (1 + "
     "7/8 copy.queues_slow) for one (H200.md: 101 at 1 GiB; the 4 calibrate runs of copy.queues_slow: 102.5-105.5)"},
    {"copy.both_h2d_share", D(both_h2d_share), 0.01, 0.99, 0.518, M, "H2D's share of copy.both_gbs", "same copies"},
    {"pageable.h2d.bw_gbs", D(pageable_h2d.bw_gbs), 0.01, 10000, 52.6, M,
     "pageable H2D DMA bandwidth (of each piece, once staged)",
     "H200 pageable timelines (tests/data/h200/pageable-start): the DMA of a 128 KiB copy, staged whole, 4.99 us "
     "(median of 256), of a 512 KiB one 12.46 us (64): a line through both"},
    {"pageable.h2d.latency_ns", D(pageable_h2d.latency_ns), 0, 1e8, 2500, M,
     "pageable H2D DMA fixed cost (of each piece)", "same line"},
    {"pageable.h2d.stage_gbs", D(pageable_h2d_stage_gbs), 0.01, 10000, 5.92988, F,
     "host copy into the staging buffer: the call returns once its data are staged",
     "fitted (streamscope validate --fit, docs/results.md) to the 32 pageable rows of the H200 documents' matrix "
     "(test_validate's documents_csv: copies of 16 MiB..128 KiB, eight runs): 6.12 on 1, 4, 16, 64 streams alone, "
     "5.69 on 2, 8, 32, 128; the traced calls of tests/data/h200/pageable-start, a session whose one-stream preset "
     "took 4.2 ms against the matrix's 7.8-8.2, staged 8.7 GB/s (128 KiB) to 12.7 (16 MiB)"},
    {"pageable.h2d.stage_bytes", D(pageable_h2d_stage_bytes), 0, 1e12, 1048576, M,
     "piece a pageable H2D is staged by: its DMA starts once the first is staged and goes at the staging's pace, "
     "the last piece's DMA after the call returns (0: one piece, the DMA after the whole copy is staged)",
     "H200 pageable timelines (tests/data/h200/pageable-start): copies of 2, 8 and 16 MiB start their DMA once "
     "1053971, 1089284 and 1048968 bytes are staged (medians; at the call's staging rate) and end it 21-22 us "
     "after the call returns; copies of 512 KiB and less start it 2 us after"},
    {"pageable.d2h.bw_gbs", D(pageable_d2h.bw_gbs), 0.01, 10000, 51.0, M, "pageable D2H DMA bandwidth",
     "2 MiB pageable copies in the smoke timelines: ~41 us"},
    {"pageable.d2h.latency_ns", D(pageable_d2h.latency_ns), 0, 1e8, 0, E, "pageable D2H DMA fixed cost", "none seen"},
    {"pageable.d2h.stage_gbs", D(pageable_d2h_stage_gbs), 0.01, 10000, 15.0, M,
     "host copy out of the staging buffer, after the DMA", "a 2 MiB call returns ~140 us after its DMA"},
    {"pageable.d2h.stage_bytes", D(pageable_d2h_stage_bytes), 0, 1e12, 2097152, M,
     "staging buffer of a pageable D2H: a larger copy's DMA goes a buffer at a time, each once the host has "
     "copied the one before out, so its record spans the copy-out of all but the last buffer (0: one piece)",
     "H200 pageable timelines (tests/data/h200/pageable-start): D2H records of 2 MiB 41 us, 8 MiB 459-473 us, 16 "
     "MiB 996 us; 2 MiB / pageable.d2h.bw_gbs + the rest / pageable.d2h.stage_gbs gives 41, 460 and 1019 us (1 MiB: "
     "510 and 1069, 4 MiB: 362 and 921); calibrate, traced, measured 1290528 (tests/data/h200/pageable-stage/"
     "second), which leaves the documents' matrix as it is"},
    {"managed.prefetch_gbs", D(prefetch_gbs), 0.01, 10000, 50.9, M,
     "cudaMemPrefetchAsync to the device: bandwidth alone (prefetches and faulting kernels share the migration)",
     "H200 managed_probe (tests/data/h200/managed-probe, untraced, 4 processes of 11 rounds): x and y (32 MiB) "
     "prefetched in 2k prefetches on k = 2, 4, 8 streams take 840 us (median of 12 medians, 805-938), less "
     "2k x managed.prefetch_latency_ns at k = 4"},
    {"managed.prefetch_latency_ns", D(prefetch_latency_ns), 0, 1e8, 22600, M,
     "cudaMemPrefetchAsync to the device: fixed cost, done inside the migration the other prefetches and faulting "
     "kernels share",
     "same probe: from 32 to 128 streams the prefetches of x and y take 22.6 us longer a prefetch (median of 4 "
     "processes: 21.5-31.9)"},
    {"managed.prefetch_host_gbs", D(prefetch_host_gbs), 0.01, 10000, 15.5, M,
     "cudaMemPrefetchAsync to the host: bandwidth (one prefetch at a time)",
     "same probe: z's 16 MiB prefetched to the host in one prefetch takes 1095 us (median of 4 processes: "
     "1057-1593), less managed.prefetch_host_latency_ns"},
    {"managed.prefetch_host_latency_ns", D(prefetch_host_latency_ns), 0, 1e8, 15800, M,
     "cudaMemPrefetchAsync to the host: fixed cost of each prefetch (one prefetch at a time)",
     "same probe: z's 16 MiB prefetched to the host in k prefetches on k streams takes 15.8 us longer a prefetch "
     "from 8 to 128 streams (median of 4 processes: 10.9-18.4)"},
    {"managed.prefetch_wait_ns", D(prefetch_wait_ns), 0, 1e8, 21972.3, F,
     "a prefetch waiting on its stream's earlier work starts this much later than a copy would",
     "fitted (streamscope validate --fit, docs/results.md) to the 32 managed rows of the H200 documents' matrix, "
     "nine runs (tests/data/h200/documents, documents-repeat, managed-probe), the other managed keys measured by "
     "the probe: 1.9 us on 1, 4, 16, 64 streams alone, 22.0 us on 2, 8, 32, 128 (read off traced timelines "
     "before: 51.2 us, with the prefetch events' waits in it)"},
    {"managed.fault_gbs", D(fault_gbs), 0.01, 10000, 3.97, M,
     "on-demand migration of managed memory kernels write unprefetched, alone (shared with the prefetches to the "
     "device and other faulting kernels)",
     "same probe: the add kernels alone on k = 1..128 streams, x and y on the device, writing z's 16 MiB from the "
     "host, take 4225 us (median of 32 medians: 3612-4883) whatever k and the queues (their arithmetic, 1.2 ms, "
     "overlaps the migration)"},
    /* the multi-GPU keys: the two-GPU machine (nvidia-h200-x2) was not available, so none of them is measured or
     * fitted; calibrate them there (tests/gpu/multi_gpu.sh) */
    {"multi.host_link_gbs", D(host_link_gbs), 0.01, 10000, 55.4, E,
     "--devices: the bandwidth one direction of the host link gives every device's copies together",
     "not measured (no two-GPU machine was available): copy.h2d.bw_gbs, i.e. GPUs behind one PCIe link; GPUs on "
     "links of their own share nothing and would want this at devices x that"},
    {"multi.peer_gbs", D(peer_gbs), 0.01, 10000, 300, E, "--peer: peer copy bandwidth between two devices",
     "not measured (no two-GPU machine was available): an estimate for NVLink between H200s (450 GB/s per "
     "direction on paper, about 2/3 of it reached by cudaMemcpyPeerAsync)"},
    {"multi.peer_latency_ns", D(peer_latency_ns), 0, 1e7, 5000, E, "--peer: fixed cost of one peer copy",
     "not measured (no two-GPU machine was available): about twice copy.h2d.latency_ns"},
    {"memset.gbs", D(memset_gbs), 0.01, 100000, 3000, E,
     "cudaMemsetAsync of device memory (a step program's memset step), the whole device filling",
     "not measured: about 2/3 of the H200's 4.8 TB/s HBM3e peak"},
    {"managed.attach_gbs", D(attach_gbs), 0.01, 10000, 69.1508, F,
     "a launch migrating its chunk's attached managed memory (host-synchronous)",
     "fitted (streamscope validate --fit, docs/results.md) with managed.attach_latency_ns and host.process_* to "
     "the medians of the managed-threads rows the H200 measured with the timer before each task's attach, its data "
     "made afresh each run (64 MiB..1 MiB a task), in eight runs: tests/data/h200/documents-bench-mt/after/mt-1.csv "
     "(13 rows) and tests/data/h200/documents-mt-free (seven, each task ending with its cudaFree): 87.3 on 1, 4, 16, "
     "64 tasks alone, 41.3 on 2, 8, 32, 128; 72.99 fitted to mt-1 alone"},
    {"managed.attach_latency_ns", D(attach_latency_ns), 0, 1e8, 181787, F,
     "fixed cost of that migration (each launch that migrates, in turn with the other threads' calls)",
     "fitted with managed.attach_gbs (the same rows): 183 us on 1, 4, 16, 64 tasks alone, 154 us on 2, 8, 32, 128; "
     "every task's launch after its host_process pays it each pass, what makes 32..128 tasks slower than 16"},
    {"kernel.add.ns_per_unit", D(kernel[SS_KERNEL_ADD].ns_per_unit), 1e-12, 1e6, 8.0e-4, E,
     "add (document 001's): ns per element x repeat, whole device",
     "three times the fma kernel's: document 001's kernel took about three times as long as the fma chain at work "
     "400 on the H200 (issue 18); calibrate measures it"},
    {"kernel.add.ns_per_elem", D(kernel[SS_KERNEL_ADD].ns_per_elem), 0, 1e6, 2.2e-3, E,
     "add (document 001's): ns per element besides the repeats, whole device", "the fma kernel's"},
    {"kernel.add.saturation", D(kernel[SS_KERNEL_ADD].saturation), 1, 1e10, 67471, E,
     "add (document 001's): launch size (elements) from which it is throughput-bound", "the fma kernel's"},
    {"kernel.add.misalign", D(kernel[SS_KERNEL_ADD].misalign), 0, 100, 1.65, F,
     "add (document 001's): its repeats take this many times as long when the launch's data do not start on a "
     "128-byte line",
     "fitted to the 47 H200 makespans of document 001's workload in tests/data/h200/advise-run3 but 3-4 streams of 37 "
     "chunks, whose error is another (20 and 35-38 streams, 5-6 streams of 20 or 37 chunks among them; "
     "docs/results.md): 20 streams' kernels were busy 1.89 ms where 16 and 32 streams' took 1.28-1.32 "
     "(tests/data/h200/documents/claims); decrypt and vector-add, one pass over their data, showed no such cost"},
    {"kernel.fma.ns_per_unit", D(kernel[SS_KERNEL_FMA].ns_per_unit), 1e-12, 1e6, 2.645e-4, M,
     "fma: ns per element x repeat, whole device",
     "work 400 vs 800 on 2^22 elements in the smoke log (measured as kernel-transfer's kernel before issue 18)"},
    {"kernel.fma.ns_per_elem", D(kernel[SS_KERNEL_FMA].ns_per_elem), 0, 1e6, 2.2e-3, M,
     "fma: ns per element besides the repeats, whole device", "intercept of the same runs less kernel.min_ns"},
    {"kernel.fma.saturation", D(kernel[SS_KERNEL_FMA].saturation), 1, 1e10, 67471, M,
     "fma: launch size (elements) from which it is throughput-bound",
     "H200 calibrate: fma kernels of 1024 and 4096 elements"},
    {"kernel.decrypt.ns_per_unit", D(kernel[SS_KERNEL_DECRYPT].ns_per_unit), 1e-12, 1e6, 7.93e-4, M,
     "decrypt: ns per entry x round, whole device", "decrypt preset in the smoke log: 54.5 ms of kernels"},
    {"kernel.decrypt.ns_per_elem", D(kernel[SS_KERNEL_DECRYPT].ns_per_elem), 0, 1e6, 1.663e-3, M,
     "decrypt: ns per entry besides the rounds, whole device", "H200 calibrate: intercept of the work scan"},
    {"kernel.decrypt.share", D(kernel[SS_KERNEL_DECRYPT].share), 0.01, 1, 0.917, F,
     "decrypt: share of the device one <<<80*32, 64>>> launch keeps busy (its last wave leaves SMs idle that "
     "the next stream's launch fills)",
     "validate on the H200 (tests/data/h200/documents/validate-1.csv): 32..128 streams' kernel-bound makespans "
     "54.6-55.3 ms against 59.5 ms of kernels alone in the 1-stream run"},
    {"kernel.fma.misalign", D(kernel[SS_KERNEL_FMA].misalign), 0, 100, 1, E,
     "fma: its repeats take this many times as long when the launch's data do not start on a 128-byte line",
     "none: its repeats are FMAs in registers, one load and one store per element"},
    {"kernel.decrypt.misalign", D(kernel[SS_KERNEL_DECRYPT].misalign), 0, 100, 1, M,
     "decrypt: its rounds take this many times as long when the launch's data do not start on a 128-byte line",
     "none: on the H200 (tests/data/h200/advise-run3) 3-5 streams of 224 chunks (offsets off a line) measured 0.97 of "
     "the model, as 32 and 128 streams of aligned chunks did"},
    {"kernel.decrypt.saturation", D(kernel[SS_KERNEL_DECRYPT].saturation), 1, 1e10, 45934, M,
     "decrypt: launch size (entries) from which it is throughput-bound",
     "H200 calibrate: decrypt kernels of 256 and 1024 entries"},
    {"kernel.spin.ns_per_unit", D(kernel[SS_KERNEL_SPIN].ns_per_unit), 1e-12, 1e6, 2.24, M,
     "spin: ns per iteration of its one-thread block", "449.5 us for 200000 iterations in the smoke timelines"},
    {"kernel.spin.ns_per_elem", D(kernel[SS_KERNEL_SPIN].ns_per_elem), 0, 1e6, 0, E, "spin: unused", "none"},
    {"kernel.spin.saturation", D(kernel[SS_KERNEL_SPIN].saturation), 1, 1e10, 4224, E,
     "spin: one-thread blocks running at once", "132 SMs x 32 blocks"},
    {"host.process_ns", D(host_process_ns), 0, 1e6, 1.30585, F,
     "host_process (document 004's task): ns per element on a host thread while others are inside one too, its "
     "managed data faulted back included (alone: host.process_alone_ns)",
     "fitted (streamscope validate --fit) with host.process_gbs and managed.attach_* to the medians of the H200's "
     "managed-threads rows of eight runs (tests/data/h200/documents-bench-mt/after/mt-1.csv, "
     "tests/data/h200/documents-mt-free): 1.32 on 1, 4, 16, 64 tasks alone, 1.22 on 2, 8, 32, 128; 1.43 fitted to "
     "mt-1 alone (then also the cost of one thread alone), 1.14 to the rows before the timer started before the "
     "attach"},
    {"host.process_gbs", D(host_process_gbs), 0.01, 1e4, 20.0751, F,
     "host_process: the host memory every thread inside one at once shares (each element waits for the other "
     "threads' bytes as well as its own host.process_ns)",
     "fitted with host.process_ns (the same rows): 20.7 on 1, 4, 16, 64 tasks alone, 21.3 on 2, 8, 32, 128"},
    {"host.process_alone_ns", D(host_process_alone_ns), 0, 1e6, 1.1328, F,
     "host_process: ns per element on a host thread while no other thread is inside one (host.process_ns is "
     "its cost with others)",
     "fitted with host.process_* and managed.attach_* (the same rows; only the 1-task rows have one thread alone "
     "there, so a fold without them cannot place it): 1.134 on 1, 4, 16, 64 tasks; the 1-task rows were +17% "
     "with host.process_ns alone. Check: the traced 1-task runs (tests/data/h200/documents-bench-mt/before) take "
     "~25 ms a pass of 2^24 ints, host_process and its migration (1.5 ns an int, traced)"},
    {"host.cores", I(host_cores), 1, 100000, 16, M,
     "the host's CPU cores: host threads beyond them take turns at host_process",
     "the H200 host: nproc and lscpu, 16 cores, one socket, one thread a core (tests/data/h200/host-spread/pinning/"
     "cpus.txt)"},
    {"kernel.task.ns_per_unit", D(kernel[SS_KERNEL_TASK].ns_per_unit), 1e-12, 1e6, 0.0161, M,
     "task (document 004's transform and convert): ns per element of one pass, whole device",
     "the same trace: 64 launches over 2^22 ints, 67.9 us on average (63.3-71.8), transform no slower than "
     "convert: the data it reads back from the host costs it no fault time"},
    {"kernel.task.ns_per_elem", D(kernel[SS_KERNEL_TASK].ns_per_elem), 0, 1e6, 0, E, "task: none besides", "none"},
    {"kernel.task.saturation", D(kernel[SS_KERNEL_TASK].saturation), 1, 1e10, 25600, E,
     "task: threads from which a launch is throughput-bound", "its own <<<100, 256>>>"},
    {"kernel.min_ns", D(kernel_min_ns), 0, 1e8, 700, M, "fixed part of every kernel's duration",
     "the one-thread default-stream kernels in the smoke timelines: 672 ns"},
    {"launch.latency_ns", D(launch_ns), 0, 1e8, 2250, M, "call returned -> idle GPU starts the work",
     "first op of each smoke run"},
    {"gpu.dep_kernel_ns", D(dep_kernel_ns), 0, 1e8, 5200, M,
     "a kernel waiting on another engine's or queue's work starts this long after it (one queue in use)",
     "H2D -> kernel gaps in the smoke sweeps with 1 and 2 streams: 5.5, 5.1 us"},
    {"gpu.dep_copy_ns", D(dep_copy_ns), 0, 1e8, 3000, M,
     "a copy (or event) waiting on another engine's or queue's work starts this long after it (one queue in use)",
     "kernel -> D2H gap in the smoke sweep with 1 stream: 2.9 us"},
    {"gpu.dep_kernel_queues_ns", D(dep_kernel_queues_ns), 0, 1e8, 2700, M,
     "added to gpu.dep_kernel_ns x (1 - 1/q) with q hardware queues in use (the GPU serves more queues in turn)",
     "H2D -> kernel gaps of the smoke default-stream run (8 streams on 8 queues, serialised, no engine busy): 7.6 us"},
    {"gpu.dep_copy_queues_ns", D(dep_copy_queues_ns), 0, 1e8, 4300, M,
     "added to gpu.dep_copy_ns x (1 - 1/q) with q hardware queues in use",
     "kernel -> D2H gaps of the same run: 6.8 us"},
    {"api.copy_ns", D(api_copy_ns), 0, 1e8, 2648, M, "cudaMemcpyAsync host cost (untraced)",
     HOST_PROBES(46) "1370..3807, the 20 taken before api.copy_queues_ns (with 8 queues) less 7/8 of it"},
    {"api.launch_ns", D(api_launch_ns), 0, 1e8, 5035, M, "cudaLaunchKernel host cost (untraced)",
     HOST_PROBES(46) "3095..7214"},
    {"api.event_ns", D(api_event_ns), 0, 1e8, 707, M, "cudaEventRecord host cost (untraced)",
     HOST_PROBES(46) "136..1746"},
    {"api.sync_ns", D(api_sync_ns), 0, 1e8, 1400, M, "sync call with nothing to wait for (untraced)",
     "shortest cudaStreamSynchronize of the 16..128-stream smoke timelines (2.3 us traced), less "
     "api.trace_overhead_ns"},
    {"api.attach_ns", D(api_attach_ns), 0, 1e8, 170, M, "cudaStreamAttachMemAsync host cost (untraced)",
     "median 1.07 us traced in the smoke timelines, less api.trace_overhead_ns"},
    {"api.prefetch_ns", D(api_prefetch_ns), 0, 1e8, 7900, M, "cudaMemPrefetchAsync host cost (untraced)",
     "prefetches after a call on their own stream in the three H200 managed timelines (bench preset-managed, smoke "
     "preset-managed and managed-prefetch-breadth): 12.1 us to the device, 5.5 us to the host traced (means of 24 "
     "each: the costs add up and their distributions are skewed), averaged, less api.trace_overhead_ns"},
    {"api.free_ns", D(api_free_ns), 0, 1e9, 294000, M, "cudaFree of a managed allocation (untraced)",
     "document 004's program traced at 32 tasks, each freeing its 2 MiB of data once every task was done "
     "(tests/data/h200/documents-bench-mt/free/late-32.csv.gz, its warm-up run): median 295 us of 32 (129..10664), "
     "less api.trace_overhead_ns"},
    {"api.switch_ns", D(api_switch_ns), 0, 1e8, 280, M,
     "extra cost of a call on another stream than the thread's previous call",
     HOST_PROBES(45) "0..540, the 19 taken before api.switch_queues_ns (with 8 queues) less 7/8 of it"},
    {"api.copy_queues_ns", D(api_copy_queues_ns), 0, 1e8, 386, M,
     "added to api.copy_ns x (1 - 1/q) with q hardware queues in use (the driver feeds more channels)",
     "median of the 26 H200 measurements of it (calibrate's one-queue twin of its tracing run: the validate-h7..h9 "
     "host probes before and after, 8 probe runs, four calibrate runs; tests/data/h200/validate-queues): 0..2585 ns; "
     "the validation rows' own copy calls agree (8 vs 1 queue, 9 matrices: +0.36 us median)"},
    {"api.switch_queues_ns", D(api_switch_queues_ns), 0, 1e8, 142, M,
     "added to api.switch_ns x (1 - 1/q) with q hardware queues in use",
     "median of the same 26 measurements: 0..628 ns; the rows' own switches: +0.15 us on 8 queues"},
    {"api.prefetch_switch_ns", D(api_prefetch_switch_ns), 0, 1e8, 46700, M,
     "extra cost of a cudaMemPrefetchAsync to the device on another stream than the thread's previous call",
     "same timelines, both orders: such prefetches 56.0 us traced (mean of 21, median 46.9), less "
     "api.trace_overhead_ns, api.prefetch_ns and api.switch_ns"},
    {"api.launch_wait_ns", D(api_launch_wait_ns), 0, 1e8, 82, M,
     "extra cost of a launch whose stream's previous work is a copy (compute waits for a copy engine)",
     HOST_PROBES(45) "0..2800"},
    {"api.launch_prefetch_wait_ns", D(api_launch_prefetch_wait_ns), 0, 1e8, 6700, M,
     "extra cost of a launch whose stream's previous work is a prefetch to the device",
     "bench and smoke managed timelines, depth-first: such launches 10.9 us traced (mean of 14, median 9.1; each "
     "run's first launch left out, a one-time cost), less api.trace_overhead_ns and api.launch_ns"},
    {"api.trace_overhead_ns", D(trace_ns), 0, 1e8, 900, M,
     "CUPTI's cost per traced call: traced minus untraced makespan per call (api.* are untraced costs)",
     "bench sweeps at 64 and 128 streams, both orders: 0.65-1.0 us, median 0.9"},
    {"sync.wake_ns", D(sync_wake_ns), 0, 1e8, 3750, M, "work done -> waiting host call returns",
     "cudaStreamSynchronize after its stream's last record in the smoke timelines"},
    {"host.gap_ns", D(host_gap_ns), 0, 1e8, 300, M, "a host thread's own time between two calls",
     "gaps between consecutive calls in the smoke timelines (traced)"},
    {"host.thread_start_ns", D(thread_start_ns), 0, 1e9, 20000, E, "stagger between host threads' first calls",
     "pthread_create"},
    {"gpu.copy_queues", I(copy_queues), 0, 1, 1, M,
     "1: copies queue per direction apart from kernels (a waiting copy holds up only copies); 0: one queue for all",
     "validate.csv: kernel-transfer depth-first with 1 queue overlaps copies and kernels as much as with 8 "
     "(0.70 vs 0.66 at 8 streams), where one shared queue would allow only D2H/H2D overlap"},
    {"device.sms", I(sms), 1, 100000, 132, M, "streaming multiprocessors (informational)", "H200, H200.md"},
    {"device.memory_mib", I(memory_mib), 1, 1 << 24, 143771, M,
     "the device's memory in MiB: the model refuses an experiment whose arrays and 256 MiB for the context do not "
     "fit, as the CUDA backend does",
     "nvidia-smi on the H200: 143771 MiB (tests/data/h200/advise/nvidia-smi.txt); calibrate: cudaMemGetInfo's total"},
    {"device.max_kernels", I(max_kernels), 1, 100000, 128, M, "kernels running at once",
     "H200 calibrate: 128 concurrent one-element kernels (compute capability 9.0: 128)"},
};

#undef D
#undef I
#undef M
#undef E
#undef F
#undef HOST_PROBES

#define NKEYS ((int)(sizeof(profile_keys) / sizeof(profile_keys[0])))
_Static_assert(sizeof(profile_keys) / sizeof(profile_keys[0]) <= SS_PROFILE_MAX_KEYS, "raise SS_PROFILE_MAX_KEYS");

int profile_key_count(void)
{
	return NKEYS;
}

const char *profile_key_name(int i)
{
	return i >= 0 && i < NKEYS ? profile_keys[i].name : "";
}

void profile_key_range(int i, double *min, double *max)
{
	*min = i >= 0 && i < NKEYS ? profile_keys[i].min : 0;
	*max = i >= 0 && i < NKEYS ? profile_keys[i].max : 0;
}

int profile_key_find(const char *key)
{
	for (int i = 0; i < NKEYS; i++)
		if (strcmp(profile_keys[i].name, key) == 0)
			return i;
	return -1;
}

double profile_get(const struct ss_profile *p, int i)
{
	const char *base = (const char *)p;

	if (i < 0 || i >= NKEYS)
		return 0;
	if (profile_keys[i].type == KEY_INT)
		return *(const int *)(base + profile_keys[i].off);
	return *(const double *)(base + profile_keys[i].off);
}

void profile_set(struct ss_profile *p, int i, double v, enum ss_prov prov)
{
	char *base = (char *)p;

	if (i < 0 || i >= NKEYS)
		return;
	if (profile_keys[i].type == KEY_INT)
		*(int *)(base + profile_keys[i].off) = (int)lround(v);
	else
		*(double *)(base + profile_keys[i].off) = v;
	p->prov[i] = (unsigned char)prov;
}

void profile_builtin(struct ss_profile *p)
{
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "H200");
	snprintf(p->device, sizeof p->device, "NVIDIA H200");
	snprintf(p->source, sizeof p->source, "built-in");
	for (int i = 0; i < NKEYS; i++)
		profile_set(p, i, profile_keys[i].builtin, profile_keys[i].prov);
}

int profile_validate(const struct ss_profile *p, char **cause)
{
	for (int i = 0; i < NKEYS; i++) {
		double v = profile_get(p, i);

		if (!isfinite(v) || v < profile_keys[i].min || v > profile_keys[i].max) {
			*cause = xasprintf("profile key %s = %g is out of range (%g..%g)", profile_keys[i].name, v,
			                   profile_keys[i].min, profile_keys[i].max);
			return -1;
		}
	}
	return 0;
}

/* trim strips leading and trailing white space in place and returns the start. */
static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* profile_nearest_key returns the key nearest to name by edit distance (letters added, removed or changed) when one
 * is within 3 of it, else the first key name begins (4 letters or more), else NULL: the likely typo behind an
 * unknown key. */
static const char *profile_nearest_key(const char *name)
{
	size_t n = strlen(name);
	const char *best = NULL;
	int bestd = 4;

	if (n > 63)
		return NULL;
	for (int k = 0; k < NKEYS; k++) {
		const char *key = profile_keys[k].name;
		size_t m = strlen(key);
		int row[64];

		if (m > 63)
			continue;
		for (size_t j = 0; j <= m; j++)
			row[j] = (int)j;
		for (size_t i = 1; i <= n; i++) {
			int diag = row[0];

			row[0] = (int)i;
			for (size_t j = 1; j <= m; j++) {
				int up = row[j], d = diag + (name[i - 1] != key[j - 1]);

				d = up + 1 < d ? up + 1 : d;
				d = row[j - 1] + 1 < d ? row[j - 1] + 1 : d;
				diag = up;
				row[j] = d;
			}
		}
		if (row[m] < bestd) {
			bestd = row[m];
			best = key;
		}
	}
	for (int k = 0; k < NKEYS && best == NULL && n >= 4; k++) /* else a key it begins: copy.h2d.bw */
		if (strncmp(profile_keys[k].name, name, n) == 0)
			best = profile_keys[k].name;
	return best;
}

char *profile_key_unknown(const char *key)
{
	const char *near = profile_nearest_key(key);

	return xasprintf("unknown key '%s'%s%s%s (data/profiles/h200.profile lists every key)", key,
	                 near != NULL ? ": did you mean '" : "", near != NULL ? near : "", near != NULL ? "'?" : "");
}

/* parse_line handles one line: comments and blank lines are ignored; "key = value [measured|estimate]" sets a
 * value, each key once (seen[k]: the line that set key k, NKEYS + 0/1 for name and device). Returns 0, or -1 with
 * *cause naming origin and line. */
static int parse_line(struct ss_profile *p, char *line, const char *origin, int lineno, char **cause, int *keys,
                      int *seen)
{
	char *hash = strchr(line, '#'), *eq, *key, *val, *tag, *end;
	double v;
	int k, prov = SS_PROV_ESTIMATE;

	if (hash != NULL)
		*hash = '\0';
	line = trim(line);
	if (*line == '\0')
		return 0;
	eq = strchr(line, '=');
	if (eq == NULL) {
		*cause = xasprintf("%s:%d: expected key = value", origin, lineno);
		return -1;
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	k = strcmp(key, "name") == 0 ? NKEYS : strcmp(key, "device") == 0 ? NKEYS + 1 : profile_key_find(key);
	if (k >= 0 && seen[k] > 0) {
		*cause = xasprintf("%s:%d: key '%s' is given twice (first on line %d): give each key once", origin,
		                   lineno, key, seen[k]);
		return -1;
	}
	if (k >= 0)
		seen[k] = lineno;
	if (strcmp(key, "name") == 0 || strcmp(key, "device") == 0) {
		char *dst = strcmp(key, "name") == 0 ? p->name : p->device;
		size_t len = strcmp(key, "name") == 0 ? sizeof p->name : sizeof p->device;

		if (*val == '\0' || strlen(val) >= len) {
			*cause = xasprintf("%s:%d: %s must be 1..%zu characters", origin, lineno, key, len - 1);
			return -1;
		}
		memcpy(dst, val, strlen(val) + 1);
		(*keys)++;
		return 0;
	}
	if (k < 0) {
		char *unknown = profile_key_unknown(key);

		*cause = xasprintf("%s:%d: %s", origin, lineno, unknown);
		free(unknown);
		return -1;
	}
	errno = 0;
	v = strtod(val, &end);
	if (end == val || errno != 0) {
		*cause = xasprintf("%s:%d: %s: '%s' is not a number", origin, lineno, key, val);
		return -1;
	}
	tag = trim(end);
	if (*tag != '\0')
		for (prov = 0; prov < NPROV && strcmp(tag, prov_names[prov]) != 0; prov++)
			;
	if (prov == NPROV) {
		*cause =
		    xasprintf("%s:%d: %s: expected 'measured', 'fitted', 'estimate' or 'modelled' after the value, "
		              "not '%s'",
		              origin, lineno, key, tag);
		return -1;
	}
	if (!isfinite(v) || v < profile_keys[k].min || v > profile_keys[k].max) {
		*cause = xasprintf("%s:%d: %s = %g is out of range (%g..%g)", origin, lineno, key, v,
		                   profile_keys[k].min, profile_keys[k].max);
		return -1;
	}
	profile_set(p, k, v, (enum ss_prov)prov);
	(*keys)++;
	return 0;
}

int profile_parse(struct ss_profile *p, const char *text, const char *origin, char **cause)
{
	char *copy = xstrdup(text), *line = copy, *nl;
	int lineno = 0, rc = 0, keys = 0, *seen = xcalloc((size_t)NKEYS + 2, sizeof *seen);

	profile_builtin(p);
	snprintf(p->source, sizeof p->source, "%s", origin);
	while (line != NULL && rc == 0) {
		nl = strchr(line, '\n');
		if (nl != NULL)
			*nl = '\0';
		rc = parse_line(p, line, origin, ++lineno, cause, &keys, seen);
		line = nl != NULL ? nl + 1 : NULL;
	}
	free(seen);
	free(copy);
	if (rc == 0 && keys == 0) {
		/* nothing but the built-in values would be left: not a profile (e.g. /dev/null, an empty file) */
		*cause =
		    xasprintf("%s: no keys: an empty profile (the format: key = value, see data/profiles/)", origin);
		return -1;
	}
	return rc;
}

int profile_load(struct ss_profile *p, const char *path, char **cause)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	struct stat st;
	int rc;

	if (f == NULL) {
		*cause = xasprintf("cannot open profile %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
		fclose(f);
		*cause = xasprintf("profile %s: is a directory (a profile is the file 'streamscope calibrate -o FILE' "
		                   "writes)",
		                   path);
		return -1;
	}
	do {
		if (vec_capacity(cap, len + 4096, 1, 8192) > (1u << 20)) {
			fclose(f);
			free(text);
			*cause = xasprintf("profile %s is larger than 1 MiB", path);
			return -1;
		}
		VEC_RESERVE(text, len, cap, 4096, 8192);
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	if (ferror(f)) {
		fclose(f);
		free(text);
		*cause = xasprintf("cannot read profile %s: %s", path, strerror(errno));
		return -1;
	}
	fclose(f);
	text[len] = '\0';
	rc = profile_parse(p, text, path, cause);
	free(text);
	return rc;
}

char *profile_format(const struct ss_profile *p)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = xopen_memstream(&out, &len);

	fprintf(
	    f,
	    "# streamscope calibration profile: the model's engine speeds and costs of one GPU.\n"
	    "# key = value [measured|fitted|estimate|modelled]  # comment. Bandwidths in GB/s (= bytes/ns), times in "
	    "ns.\n"
	    "# 'measured': from `streamscope calibrate` or a measurement on the device; 'fitted': chosen so the model\n"
	    "# matches measured makespans; 'estimate': not measured; 'modelled': calibrate on the model (no GPU).\n");
	if (strcmp(p->source, "built-in") == 0)
		fprintf(f,
		        "# source: built-in values (measured: shared/H200.md and tests/data/h200/gpu_smoke/run3; the "
		        "rest estimates)\n");
	else if (p->source[0] != '\0')
		fprintf(f, "# source: %s\n", p->source);
	fprintf(f, "name = %s\ndevice = %s\n", p->name, p->device);
	for (int i = 0; i < NKEYS; i++) {
		char num[64];
		int n;

		snprintf(num, sizeof num, "%.10g", profile_get(p, i));
		n = fprintf(f, "%s = %s %s", profile_keys[i].name, num, prov_names[p->prov[i]]);
		fprintf(f, "%*s# %s", n < 44 ? 44 - n : 1, "", profile_keys[i].desc);
		if (profile_get(p, i) == profile_keys[i].builtin)
			fprintf(f, " (built-in: %s)", profile_keys[i].why);
		fputc('\n', f);
	}
	fclose(f);
	return out;
}

/* exe_dir writes the directory of the running executable into buf; false when unknown. */
static bool exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash == NULL)
		return false;
	*slash = '\0';
	return true;
}

int profile_default(struct ss_profile *p, char **cause)
{
	const char *env = getenv("STREAMSCOPE_PROFILE");
	char dir[PATH_MAX], path[PATH_MAX + 64];
	/* relative to the binary: an installed prefix (P/bin -> P/share/streamscope/profiles, CMakeLists.txt's install
	 * section), then the source tree's data/ from a binary in it or one or two folders below it (build trees) */
	static const char *const rel[] = {"/../share/streamscope/profiles/h200.profile", "/data/profiles/h200.profile",
	                                  "/../data/profiles/h200.profile", "/../../data/profiles/h200.profile"};

	if (env != NULL && *env != '\0')
		return profile_load(p, env, cause);
	if (access("data/profiles/h200.profile", R_OK) == 0)
		return profile_load(p, "data/profiles/h200.profile", cause);
	if (exe_dir(dir, sizeof dir)) {
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(path, sizeof path, "%s%s", dir, rel[i]);
			if (access(path, R_OK) == 0)
				return profile_load(p, path, cause);
		}
	}
	profile_builtin(p);
	return 0;
}
