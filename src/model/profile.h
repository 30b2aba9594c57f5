/* profile.h: the model's calibration profile (engine speeds and costs of one GPU), its built-in H200 default and
 * its small text file format ("key = value [measured|estimate]  # comment"). */
#ifndef SS_MODEL_PROFILE_H
#define SS_MODEL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/experiment.h"

/* Where a value comes from: measured on the device (calibrate's experiments, timelines), fitted to measured
 * makespans (the value is whatever makes the model match them), an estimate (documentation, rule of thumb), or
 * modelled: calibrate run on the model backend (a self-test of calibrate, no GPU's value). */
enum ss_prov { SS_PROV_ESTIMATE = 0, SS_PROV_MEASURED = 1, SS_PROV_FITTED = 2, SS_PROV_MODELLED = 3 };

/* One copy direction: duration of a copy alone on its engine = latency_ns + bytes / bw_gbs (1 GB/s = 1 byte/ns). */
struct ss_copy_profile {
	double bw_gbs;
	double latency_ns;
};

/* One kernel's speed. ADD and DECRYPT: ns_per_unit is ns per element x work unit with the whole device busy;
 * saturation is the launch size (elements) from which the kernel is throughput-bound: a smaller launch is bound
 * by its threads' dependent chains and takes as long as one of `saturation` elements, leaving the rest of the
 * device to concurrent kernels. SPIN: ns_per_unit is ns per iteration of its single block, saturation how many
 * such blocks the device runs at once. */
struct ss_kernel_profile {
	double ns_per_unit;
	double ns_per_elem; /* work-independent cost per element (memory traffic), whole device */
	double saturation;
	double share;    /* of the device one launch of it keeps busy, 0..1: below 1 a launch alone runs at this share
	                    (its calibrated time unchanged) and concurrent launches fill the rest */
	double misalign; /* the repeats (ns_per_unit) take this many times as long when the launch's data do not start
	                    on a 128-byte line (each warp's accesses then straddle two lines); 0 or 1: no such cost */
};

#define SS_PROFILE_MAX_KEYS 80

/* A calibration profile. Every numeric value has a key in the file format (profile_key_*); prov[] holds each
 * key's provenance by key index. */
struct ss_profile {
	char name[32];    /* short device name for labels: "H200" */
	char device[96];  /* device the values describe: "NVIDIA H200" */
	char source[256]; /* "built-in" or the file it was loaded from */
	struct ss_copy_profile h2d, d2h;
	double both_gbs;                                   /* H2D + D2H together when both directions run at once */
	double both_h2d_share;                             /* H2D's share of both_gbs then */
	struct ss_copy_profile pageable_h2d, pageable_d2h; /* staged copies of pageable memory (the DMA part) */
	double pageable_h2d_stage_gbs;                     /* host copy into the staging buffer, ahead of the DMA */
	double pageable_h2d_stage_bytes; /* the piece a pageable H2D is staged and its DMA started by (0: whole) */
	double pageable_d2h_stage_gbs;   /* host copy out of the staging buffer, after the DMA */
	double pageable_d2h_stage_bytes; /* the staging buffer a larger pageable D2H goes through a piece at a time */
	double prefetch_gbs, prefetch_latency_ns; /* cudaMemPrefetchAsync of managed memory to the device */
	double prefetch_host_gbs;                 /* ... and to the host, one at a time */
	double prefetch_host_latency_ns;          /* ... and the fixed cost of each of them */
	double prefetch_wait_ns; /* a prefetch waiting on other work of its stream starts this much later than the
	                            dependency latency of a copy */
	double fault_gbs;        /* managed memory migrated on demand by the kernels that touch it */
	double memset_gbs;       /* cudaMemsetAsync of device memory (a step program's memset step), device-wide */
	double host_link_gbs;    /* --devices: the host link every device's H2D (and, apart, D2H) copies share */
	double peer_gbs, peer_latency_ns;     /* --peer: a peer copy between two devices = latency + bytes / peer_gbs */
	double attach_gbs, attach_latency_ns; /* a launch migrating its chunk's attached managed memory */
	struct ss_kernel_profile kernel[SS_KERNEL_COUNT];
	double kernel_min_ns; /* fixed part of every kernel's duration */
	double launch_ns;     /* host call returned -> the GPU can start the work (idle GPU) */
	double dep_kernel_ns; /* a kernel waiting on another engine's (or stream's) work starts this long after it */
	double dep_copy_ns;   /* the same for copies and other stream work */
	/* added to dep_kernel_ns / dep_copy_ns x (1 - 1/q) with q hardware queues in use */
	double dep_kernel_queues_ns, dep_copy_queues_ns;
	double copy_gap_ns;      /* a copy engine idles this long between two copies */
	double copy_switch_ns;   /* ... and this much more when the next copy comes from another hardware queue */
	double copy_queues_slow; /* copies take this fraction longer x (1 - 1/q) with q hardware queues in use */
	double api_copy_ns;      /* cudaMemcpyAsync (pinned) host cost, one hardware queue in use */
	double api_launch_ns;    /* cudaLaunchKernel host cost */
	double api_event_ns;     /* cudaEventRecord host cost */
	double api_sync_ns;      /* a sync call that has nothing to wait for */
	double api_attach_ns;    /* cudaStreamAttachMemAsync host cost */
	double api_prefetch_ns;  /* cudaMemPrefetchAsync host cost */
	double api_free_ns;      /* cudaFree of a managed allocation, beyond its wait for the device */
	/* extra costs: a call that puts work on another stream than the thread's last one (a prefetch to the device
	 * doing so: api_prefetch_switch_ns more), a launch whose stream's previous work is a copy (the driver makes the
	 * compute queue wait for the copy engine) */
	double api_switch_ns, api_prefetch_switch_ns, api_launch_wait_ns;
	/* added to api_copy_ns / api_switch_ns x (1 - 1/q) with q hardware queues in use (the driver feeds more
	 * channels) */
	double api_copy_queues_ns, api_switch_queues_ns;
	double api_launch_prefetch_wait_ns; /* a launch whose stream's previous work is a prefetch to the device */
	double sync_wake_ns;                /* work completed -> waiting host call returns */
	double trace_ns;                    /* CUPTI's cost per traced call (api_* are untraced costs; informational) */
	double thread_start_ns;             /* host thread i starts issuing i * thread_start_ns after thread 0 */
	double host_gap_ns;                 /* a host thread's own time between two calls */
	double host_process_ns;             /* host_process (document 004's task): ns per element on one host thread
	                                       while others are in one too, faulting its managed data back included */
	double host_process_gbs;      /* host memory the threads inside a host_process at once share, bytes a ns */
	double host_process_alone_ns; /* host_process: ns per element while no other thread is inside one */
	int host_cores;               /* the host's cores: more host threads than this take turns at host_process */
	/* 1: copies wait in hardware queues of their own per direction (one per connection), so a copy waiting for a
	 * kernel holds up only copies; 0: copies share the streams' queues */
	int copy_queues;
	int sms;
	int max_kernels; /* kernels resident at once */
	int memory_mib;  /* the device's memory, MiB: an experiment whose arrays do not fit is refused */
	unsigned char prov[SS_PROFILE_MAX_KEYS];
};

/* profile_builtin fills p with the built-in H200 profile (H200.md facts, the rest estimates). */
void profile_builtin(struct ss_profile *p);
/* profile_default fills p with the profile the model uses unless told otherwise: the file named by
 * $STREAMSCOPE_PROFILE, else data/profiles/h200.profile in the working directory, else from the executable's
 * directory the installed ../share/streamscope/profiles/h200.profile or a data/profiles/h200.profile next to or
 * above it, else the built-in one. A file that exists but does not parse is an error (-1, *cause). */
int profile_default(struct ss_profile *p, char **cause);
/* profile_load reads path over the built-in defaults (keys the file lacks keep the built-in value and its
 * provenance). Unknown keys, bad numbers and out-of-range values are errors: -1 and *cause naming line and key. */
int profile_load(struct ss_profile *p, const char *path, char **cause);
/* profile_parse is profile_load on text in memory; origin names it in errors. */
int profile_parse(struct ss_profile *p, const char *text, const char *origin, char **cause);
/* profile_format returns the file text of p (caller frees); the engine writes no file: the CLI writes it through
 * io/atomic. */
char *profile_format(const struct ss_profile *p);

/* Keys by index 0..profile_key_count()-1. */
int profile_key_count(void);
const char *profile_key_name(int i);
/* profile_key_range gives the values key i may take, min..max (0..0 for no key). */
void profile_key_range(int i, double *min, double *max);
/* profile_key_find returns the index of key, -1 if unknown. */
int profile_key_find(const char *key);
/* profile_key_unknown says that key is no profile key, as one line without a newline: "unknown key 'x': did you
 * mean 'y'?" when a key is near it (a typo: letters added, removed or changed, or a key it begins), and where every
 * key is listed. The caller frees it and puts where the key was given before it. */
char *profile_key_unknown(const char *key);
/* profile_get / profile_set read and write a numeric value by key index (set also sets its provenance). */
double profile_get(const struct ss_profile *p, int i);
void profile_set(struct ss_profile *p, int i, double v, enum ss_prov prov);
/* profile_validate checks every value is in its range; -1 with *cause naming the first bad key. */
int profile_validate(const struct ss_profile *p, char **cause);

#endif
