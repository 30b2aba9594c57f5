#!/bin/bash
# Does the host NUMA node matter? The GPU's topology, then kernel-transfer (8 streams, 21 ABBA repeats) in three
# processes per NUMA node, each process and its pinned buffers held to that node's CPUs (taskset; memory follows
# first touch). Usage: numa.sh BUILD_DIR; results in $OUT/numa.tar.gz.
set -u
bin=${1:-build-h200}/streamscope
out=${OUT:-/tmp/numa-out}
work=$(mktemp -d)/numa
mkdir -p "$work" "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
{
	nvidia-smi topo -m
	lscpu | grep -iE "numa|socket|model name"
	bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1 | tr 'A-F' 'a-f' | sed 's/^0000//')
	for d in /sys/bus/pci/devices/*"${bus#0000}"; do
		echo "$d numa_node=$(cat "$d/numa_node" 2>/dev/null) local_cpulist=$(cat "$d/local_cpulist" 2>/dev/null)"
	done
	taskset -p $$
} >"$work/topology.txt" 2>&1
for n in /sys/devices/system/node/node[0-9]*; do
	node=${n##*node}
	cpus=$(cat "$n/cpulist")
	[ -n "$cpus" ] || continue
	for k in 1 2 3; do
		SS_VERBOSE=1 timeout 60 taskset -c "$cpus" "$bin" run --backend cuda --preset kernel-transfer --repeat 21 \
			>"$work/node$node-$k.txt" 2>&1
		echo "node$node ($cpus) run $k: exit $?" >>"$work/status.txt"
	done
done
for k in 1 2 3; do
	SS_VERBOSE=1 timeout 60 "$bin" run --backend cuda --preset kernel-transfer --repeat 21 >"$work/free-$k.txt" 2>&1
	echo "unpinned run $k: exit $?" >>"$work/status.txt"
done
tar -C "$(dirname "$work")" -czf "$out/numa.tar.gz" numa
