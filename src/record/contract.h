/* contract.h: the CUPTI injection library of `streamscope record` (libstreamscope_inject.so) and its contract with
 * the recording parent (src/record/recorder.c, run by `streamscope record`). Plain C: no CUDA or CUPTI header, so the
 * parent may include it.
 *
 * The parent runs the program with
 *   CUDA_INJECTION64_PATH  this library: CUDA loads it when the program initialises CUDA and calls
 *                          InitializeInjection (in every process of the program that initialises CUDA)
 *   NVTX_INJECTION64_PATH  libcupti.so, so NVTX ranges reach CUPTI (MARKER records)
 *   STREAMSCOPE_FD         the write end of a pipe, valid only in the process whose pid is STREAMSCOPE_PID
 *   STREAMSCOPE_PID        the launched process (exec keeps the pid the parent forked)
 *   STREAMSCOPE_SOCK       --children only: a Unix socket every other CUDA process of the program connects to
 *   STREAMSCOPE_FLUSH_MS   how often the library delivers completed activity buffers (default 500 ms)
 * A process that has neither its own STREAMSCOPE_FD nor a STREAMSCOPE_SOCK records nothing: without --children,
 * CUDA processes the program starts load the library and stay untraced.
 *
 * The stream a process writes is the wire format of src/core/wire.h:
 *   WIRE_PROGRESS  "streams ": sent once when the library starts (so the parent knows CUDA was initialised).
 *   WIRE_STREAM    what one stream index of the process is (index, CUPTI id, enum ss_stream_kind): sent for every
 *                  index that is new or whose kind changed, after the records of the buffer that made it so, and
 *                  for every index at exit. Indices count from 0 in the order the process's streams were first
 *                  seen (creation call, STREAM record or first GPU record); kinds come from the flags of the
 *                  creation call (cudaStreamCreate*, cuStreamCreate*) or from CUPTI's STREAM record.
 *   WIRE_RECORD    timeline records: GPU work on stream indices 0..n-1 in the order the process's streams were
 *                  first seen, SS_STREAM_LEGACY or SS_STREAM_PER_THREAD; host records (API, SYNC, MARKER) on
 *                  SS_STREAM_HOST with the OS thread id (SYNC records: 0); NVTX ranges as SS_KIND_MARKER.
 *   WIRE_LAUNCH    a kernel's launch details (grid, block, registers, shared memory), right after its WIRE_RECORD,
 *                  keyed by the kernel's correlation and CUPTI stream ids, then its demangled name where that is
 *                  more than the record's (the record names a C++ kernel by its short name: "ss_add").
 *   WIRE_ERROR     CUPTI could not be set up (code 3); nothing else follows.
 *   WIRE_RESULT    at the clean end (exit): device name and dropped record count. A stream that ends without
 *                  it was cut short (crash, kill, _exit). */
#ifndef SS_RECORD_CONTRACT_H
#define SS_RECORD_CONTRACT_H

#define INJECT_ENV_FD "STREAMSCOPE_FD"
#define INJECT_ENV_PID "STREAMSCOPE_PID"
#define INJECT_ENV_SOCK "STREAMSCOPE_SOCK"
#define INJECT_ENV_FLUSH_MS "STREAMSCOPE_FLUSH_MS"

/* The file name of the library, looked up next to the streamscope binary. */
#define INJECT_LIBRARY_NAME "libstreamscope_inject.so"

/* The progress line that says the library started in a process. */
#define INJECT_STREAMS_PREFIX "streams "

/* Stream kinds as letters of the library's stream table (inject_streams.h). */
#define INJECT_STREAM_BLOCKING 'b'    /* created with cudaStreamDefault: waits for the legacy default stream */
#define INJECT_STREAM_NONBLOCKING 'n' /* cudaStreamNonBlocking: exempt from legacy default stream ordering */
#define INJECT_STREAM_LEGACY                                                                                           \
	'l'                          /* a legacy default stream that has an index: a second context's, or the          \
	                                first one's when its work arrived before its id was known (the first           \
	                                context's is otherwise SS_STREAM_LEGACY) */
#define INJECT_STREAM_PER_THREAD 'p' /* a per-thread default stream learnt after it already had an index */
#define INJECT_STREAM_UNKNOWN '?'    /* seen in GPU records, neither its creation nor its STREAM record (yet) */

/* InitializeInjection is what CUDA calls after loading the library. It never calls CUDA. Returns 1 (success for
 * CUDA) even when this process records nothing, so the program always runs. */
int InitializeInjection(void);

#endif
