# streamscope calibration profile: the model's engine speeds and costs of one GPU.
# key = value [measured|fitted|estimate]  # comment. Bandwidths in GB/s (= bytes/ns), times in ns.
# 'measured': from `streamscope calibrate` or a measurement on the device; 'fitted': chosen so the model
# matches measured makespans; 'estimate': not measured.
# source: measured on the H200 from timelines, not from the validation matrix: tests/data/h200/gpu_smoke/run3 (smoke
# timelines, traced), tests/data/h200/bench (bench traces and their untraced twins), shared/H200.md. Call costs
# (api.*) are untraced: traced call durations less api.trace_overhead_ns. The host's call costs (api.copy_ns,
# api.launch_ns, api.event_ns, api.switch_ns, api.launch_wait_ns, api.copy_queues_ns, api.switch_queues_ns) are the
# medians of every H200 measurement of them (the smoke timelines, the calibrate runs, validate's host probes before
# and after its matrices, probe runs): they move by up to 2x on the same machine within seconds
# (tests/data/h200/host-probe). One structural value comes from the
# validation matrix itself (tests/data/h200/validate.csv, the rows the model is held to): gpu.copy_queues, read
# off its overlap column (`streamscope calibrate` now measures it with a run of its own). Values marked 'H200
# calibrate' are timeline measurements of tests/data/h200/calibrate. No value is fitted to validate.csv's
# makespans (copy.gap_ns is solved on an untraced probe of its own, tests/data/h200/copy-gap). The managed keys (managed.prefetch_host_gbs, managed.prefetch_wait_ns, api.launch_prefetch_wait_ns) and
# copy.switch_ns are read off the bench and smoke timelines (tests/data/h200/bench/preset-managed.sqlite and the
# sweeps, gpu_smoke/run3 preset-managed and managed-prefetch-breadth). The estimates were not measured on the H200
# (managed.prefetch_latency_ns and managed.prefetch_gbs, to the device: calibrate's old joint fit gave 241 us and
# 23.8 GB/s with a model whose prefetches ran beside the faults, rejected, see calibrate.c);
# tests/unit/test_validate.c lists the rows that miss and the H200's run-to-run spread they are held to.
name = H200
device = NVIDIA H200
copy.h2d.bw_gbs = 55.4 measured             # pinned H2D bandwidth (built-in: fit of H2D copies alone, 128 KiB..1 GiB, in the smoke timelines)
copy.h2d.latency_ns = 2700 measured         # pinned H2D fixed cost per copy (built-in: same fit)
copy.d2h.bw_gbs = 55.5 measured             # pinned D2H bandwidth (built-in: fit of D2H copies alone, 128 KiB..1 GiB, in the smoke timelines)
copy.d2h.latency_ns = 1800 measured         # pinned D2H fixed cost per copy (built-in: same fit)
copy.gap_ns = 497 measured                  # a copy engine's idle time between two queued copies (untraced) (built-in: calibrate's back-to-back probe (one stream, 512 H2D then 256 D2H copies of 256 KiB, untraced) ran 6.084-6.100 ms in 4 H200 runs (tests/data/h200/copy-gap); this profile's other keys match their median with 497 ns (the three calibrations' own profiles, with copy latencies 0.7-1.1 us lower, with 956-1168 ns); traced copies are 1.4 us apart, CUPTI's timestamping included)
copy.switch_ns = 300 measured               # extra idle time of a copy engine when its next copy comes from another hardware queue (built-in: bench sweeps, 16..128 streams: back-to-back copies from another queue end 0.3 us later than from the same queue (median of 12 direction x order x stream-count cells))
copy.queues_slow = 0.049 measured           # copies take this fraction longer x (1 - 1/q) with q hardware queues in use (built-in: median of 4 calibrate runs on the H200 (tests/data/h200/queue-penalty/calibrate): 0.048, 0.036, 0.059, 0.050; queue-penalty's 4 MiB copies: H2D 5.5%, D2H 3.3% slower on 8 queues)
copy.both_gbs = 100.5 measured              # H2D + D2H together when both directions run (built-in: copies overlapped by the other direction in the smoke timelines: 49.9 + 46.5 = 96.4 on 8 queues, x (1 + 7/8 copy.queues_slow) for one (H200.md: 101 at 1 GiB; the 4 calibrate runs of copy.queues_slow: 102.5-105.5))
copy.both_h2d_share = 0.518 measured        # H2D's share of copy.both_gbs (built-in: same copies)
pageable.h2d.bw_gbs = 14.25 measured        # pageable H2D DMA bandwidth (built-in: 2 MiB pageable copies in the H200 timelines, paced by the host's staging: 106 us in the smoke run, 189 us in the bench run (medians); their mean, 147 us (the runs between measure the 8-stream preset 5.2-6.5 ms against 4.9 and 7.2))
pageable.h2d.latency_ns = 0 estimate        # pageable H2D DMA fixed cost (built-in: none seen)
pageable.h2d.stage_gbs = 15.6 measured      # host copy into the staging buffer, ahead of the DMA (built-in: the DMA starts 92 us (smoke run) and 176 us (bench run) into a 2 MiB call (medians); their mean, 134 us)
pageable.d2h.bw_gbs = 51 measured           # pageable D2H DMA bandwidth (built-in: 2 MiB pageable copies in the smoke timelines: ~41 us)
pageable.d2h.latency_ns = 0 estimate        # pageable D2H DMA fixed cost (built-in: none seen)
pageable.d2h.stage_gbs = 15 measured        # host copy out of the staging buffer, after the DMA (built-in: a 2 MiB call returns ~140 us after its DMA)
managed.prefetch_gbs = 40 estimate          # cudaMemPrefetchAsync to the device: bandwidth alone (prefetches and faulting kernels share the migration) (built-in: below pinned copies)
managed.prefetch_latency_ns = 20000 estimate # cudaMemPrefetchAsync to the device: fixed cost, done inside the migration the other prefetches and faulting kernels share (built-in: page table work; held inside the shared migration: the H200 managed trace at 32 streams (tests/data/h200/probes/managed-32.sqlite) runs its kernels 221 us..4.21 ms, as long as the migration's bytes (3.0 ms) plus the 64 prefetches' fixed costs (1.3 ms) end to end)
managed.prefetch_host_gbs = 10.8 measured   # cudaMemPrefetchAsync to the host: bandwidth (one prefetch at a time; its fixed cost is in managed.prefetch_wait_ns) (built-in: H200 managed timelines (bench preset-managed, smoke preset-managed and managed-prefetch-breadth): a 2 MiB prefetch to the host queued behind another ends 194 us after it (median of 5: 165-219 us))
managed.prefetch_wait_ns = 51200 measured   # a prefetch waiting on its stream's earlier work starts this much later than a copy would (built-in: same timelines: the sync of a prefetch to the host right behind its kernel returns 256 us after the kernel (median of 19: 242-315 us), less the 194 us transfer, sync.wake_ns and gpu.dep_copy_* with 8 queues)
managed.fault_gbs = 7.64 measured           # on-demand migration of managed memory kernels write unprefetched, alone (shared with the prefetches to the device and other faulting kernels) (built-in: H200 calibrate (tests/data/h200/calibrate): managed kernels' durations less their compute)
managed.attach_gbs = 31.5 measured          # a launch migrating its chunk's attached managed memory (host-synchronous) (built-in: cudaLaunchKernel takes ~200 us for 3 x 2 MiB attached in the smoke timelines)
managed.attach_latency_ns = 0 estimate      # fixed cost of that migration (built-in: none seen)
kernel.add.ns_per_unit = 0.000710565 measured # document 001's add: (H200 calibrate of issue 18: tests/data/h200/documents/calibrate.txt)
kernel.add.ns_per_elem = 0.00842978 measured # document 001's add: (H200 calibrate of issue 18: tests/data/h200/documents/calibrate.txt)
kernel.add.saturation = 37395.5 measured # document 001's add: (H200 calibrate of issue 18: tests/data/h200/documents/calibrate.txt)
kernel.fma.ns_per_unit = 0.0002645 measured # fma: ns per element x repeat, whole device (built-in: work 400 vs 800 on 2^22 elements in the smoke log)
kernel.fma.ns_per_elem = 0.0022 measured    # fma: ns per element besides the repeats, whole device (built-in: intercept of the same runs less kernel.min_ns)
kernel.fma.saturation = 67471 measured      # fma: launch size (elements) from which it is throughput-bound (built-in: H200 calibrate: add kernels of 1024 and 4096 elements)
kernel.decrypt.ns_per_unit = 0.000889491 measured # document 000's grid-stride decrypt <<<80*32, 64>>>: (H200 calibrate of issue 18: tests/data/h200/documents/calibrate.txt)
kernel.decrypt.ns_per_elem = 0.00235081 measured # document 000's grid-stride decrypt <<<80*32, 64>>>: (H200 calibrate of issue 18: tests/data/h200/documents/calibrate.txt)
kernel.decrypt.saturation = 34356.2 measured # document 000's grid-stride decrypt <<<80*32, 64>>>: (H200 calibrate of issue 18: tests/data/h200/documents/calibrate.txt)
kernel.decrypt.share = 0.917 fitted       # decrypt: share of the device one <<<80*32, 64>>> launch keeps busy (built-in: validate on the H200, tests/data/h200/documents/validate-1.csv: 32..128 streams kernel-bound at 54.6-55.3 ms against 59.5 ms of kernels alone in 1 stream)
kernel.spin.ns_per_unit = 2.24 measured     # spin: ns per iteration of its one-thread block (built-in: 449.5 us for 200000 iterations in the smoke timelines)
kernel.spin.ns_per_elem = 0 estimate        # spin: unused (built-in: none)
kernel.spin.saturation = 4224 estimate      # spin: one-thread blocks running at once (built-in: 132 SMs x 32 blocks)
kernel.min_ns = 700 measured                # fixed part of every kernel's duration (built-in: the one-thread default-stream kernels in the smoke timelines: 672 ns)
launch.latency_ns = 2250 measured           # call returned -> idle GPU starts the work (built-in: first op of each smoke run)
gpu.dep_kernel_ns = 5200 measured           # a kernel waiting on another engine's or queue's work starts this long after it (one queue in use) (built-in: H2D -> kernel gaps in the smoke sweeps with 1 and 2 streams: 5.5, 5.1 us)
gpu.dep_copy_ns = 3000 measured             # a copy (or event) waiting on another engine's or queue's work starts this long after it (one queue in use) (built-in: kernel -> D2H gap in the smoke sweep with 1 stream: 2.9 us)
gpu.dep_kernel_queues_ns = 2700 measured    # added to gpu.dep_kernel_ns x (1 - 1/q) with q hardware queues in use (the GPU serves more queues in turn) (built-in: H2D -> kernel gaps of the smoke default-stream run (8 streams on 8 queues, serialised, no engine busy): 7.6 us)
gpu.dep_copy_queues_ns = 4300 measured      # added to gpu.dep_copy_ns x (1 - 1/q) with q hardware queues in use (built-in: kernel -> D2H gaps of the same run: 6.8 us)
api.copy_ns = 2648 measured                 # cudaMemcpyAsync host cost (untraced) (built-in: median of the 46 H200 measurements made with calibrate's reduction: the smoke timelines, five calibrate runs (tests/data/h200/calibrate, validate-queues/calibrate, calibrate2), the host probes before the matrices of validate-host, host-probe and validate-queues (the last two also after them) and 8 probe runs (validate-queues/probes) (ns, untraced): 1370..3807, the 20 taken before api.copy_queues_ns (with 8 queues) less 7/8 of it)
api.launch_ns = 5035 measured               # cudaLaunchKernel host cost (untraced) (built-in: median of the 46 H200 measurements made with calibrate's reduction: the smoke timelines, five calibrate runs (tests/data/h200/calibrate, validate-queues/calibrate, calibrate2), the host probes before the matrices of validate-host, host-probe and validate-queues (the last two also after them) and 8 probe runs (validate-queues/probes) (ns, untraced): 3095..7214)
api.event_ns = 707 measured                 # cudaEventRecord host cost (untraced) (built-in: median of the 46 H200 measurements made with calibrate's reduction: the smoke timelines, five calibrate runs (tests/data/h200/calibrate, validate-queues/calibrate, calibrate2), the host probes before the matrices of validate-host, host-probe and validate-queues (the last two also after them) and 8 probe runs (validate-queues/probes) (ns, untraced): 136..1746)
api.sync_ns = 1400 measured                 # sync call with nothing to wait for (untraced) (built-in: shortest cudaStreamSynchronize of the 16..128-stream smoke timelines (2.3 us traced), less api.trace_overhead_ns)
api.attach_ns = 170 measured                # cudaStreamAttachMemAsync host cost (untraced) (built-in: median 1.07 us traced in the smoke timelines, less api.trace_overhead_ns)
api.prefetch_ns = 7900 measured             # cudaMemPrefetchAsync host cost (untraced) (built-in: prefetches after a call on their own stream in the three H200 managed timelines (bench preset-managed, smoke preset-managed and managed-prefetch-breadth): 12.1 us to the device, 5.5 us to the host traced (means of 24 each: the costs add up and their distributions are skewed), averaged, less api.trace_overhead_ns)
api.switch_ns = 280 measured                # extra cost of a call on another stream than the thread's previous call (built-in: median of the 45 H200 measurements made with calibrate's reduction: the smoke timelines, five calibrate runs (tests/data/h200/calibrate, validate-queues/calibrate, calibrate2), the host probes before the matrices of validate-host, host-probe and validate-queues (the last two also after them) and 8 probe runs (validate-queues/probes) (ns, untraced): 0..540, the 19 taken before api.switch_queues_ns (with 8 queues) less 7/8 of it)
api.copy_queues_ns = 386 measured           # added to api.copy_ns x (1 - 1/q) with q hardware queues in use (the driver feeds more channels) (built-in: median of the 26 H200 measurements of it (calibrate's one-queue twin of its tracing run: the validate-h7..h9 host probes before and after, 8 probe runs, four calibrate runs; tests/data/h200/validate-queues): 0..2585 ns; the validation rows' own copy calls agree (8 vs 1 queue, 9 matrices: +0.36 us median))
api.switch_queues_ns = 142 measured         # added to api.switch_ns x (1 - 1/q) with q hardware queues in use (built-in: median of the same 26 measurements: 0..628 ns; the rows' own switches: +0.15 us on 8 queues)
api.prefetch_switch_ns = 46700 measured     # extra cost of a cudaMemPrefetchAsync to the device on another stream than the thread's previous call (built-in: same timelines, both orders: such prefetches 56.0 us traced (mean of 21, median 46.9), less api.trace_overhead_ns, api.prefetch_ns and api.switch_ns)
api.launch_wait_ns = 82 measured            # extra cost of a launch whose stream's previous work is a copy (compute waits for a copy engine) (built-in: median of the 45 H200 measurements made with calibrate's reduction: the smoke timelines, five calibrate runs (tests/data/h200/calibrate, validate-queues/calibrate, calibrate2), the host probes before the matrices of validate-host, host-probe and validate-queues (the last two also after them) and 8 probe runs (validate-queues/probes) (ns, untraced): 0..2800)
api.launch_prefetch_wait_ns = 6700 measured # extra cost of a launch whose stream's previous work is a prefetch to the device (built-in: bench and smoke managed timelines, depth-first: such launches 10.9 us traced (mean of 14, median 9.1; each run's first launch left out, a one-time cost), less api.trace_overhead_ns and api.launch_ns)
api.trace_overhead_ns = 900 measured        # CUPTI's cost per traced call: traced minus untraced makespan per call (api.* are untraced costs) (built-in: bench sweeps at 64 and 128 streams, both orders: 0.65-1.0 us, median 0.9)
sync.wake_ns = 3750 measured                # work done -> waiting host call returns (built-in: cudaStreamSynchronize after its stream's last record in the smoke timelines)
host.gap_ns = 300 measured                  # a host thread's own time between two calls (built-in: gaps between consecutive calls in the smoke timelines (traced))
host.thread_start_ns = 20000 estimate       # stagger between host threads' first calls (built-in: pthread_create)
gpu.copy_queues = 1 measured                # 1: copies queue per direction apart from kernels (a waiting copy holds up only copies); 0: one queue for all (built-in: validate.csv: kernel-transfer depth-first with 1 queue overlaps copies and kernels as much as with 8 (0.70 vs 0.66 at 8 streams), where one shared queue would allow only D2H/H2D overlap)
device.sms = 132 measured                   # streaming multiprocessors (informational) (built-in: H200, H200.md)
device.max_kernels = 128 measured           # kernels running at once (built-in: H200 calibrate: 128 concurrent one-element kernels (compute capability 9.0: 128))
