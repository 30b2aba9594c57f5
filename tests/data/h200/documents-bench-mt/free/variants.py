#!/usr/bin/env python3
# variants.py: writes the two variants of tests/gpu/reference/ref_managed_threads.cu that diag.sh compares with it
# (run from the repository root; build each with nvcc -std=c++17 -arch=sm_90 -O2 -cudart static):
#   ref_mt_late_both.cu: every thread waits until all tasks are done before its cudaStreamDestroy and cudaFree
#   ref_mt_late_free.cu: destroys its stream at once, waits for all before its cudaFree
import sys

src = open('tests/gpu/reference/ref_managed_threads.cu').read()
old = """	CHECK(cudaGetLastError()); /* this thread's launches */
	CHECK(cudaStreamDestroy(stream));
	CHECK(cudaFree(data));
}"""
assert old in src
wait = """	{
		std::unique_lock<std::mutex> l(line_lock);
		done_count++;
		line_cv.notify_all();
		line_cv.wait(l, [] { return done_count == line_want; });
	}
"""
variants = {
    'late_both': src.replace(old, "	CHECK(cudaGetLastError());\n" + wait +
                             "	CHECK(cudaStreamDestroy(stream));\n	CHECK(cudaFree(data));\n}"),
    'late_free': src.replace(old, "	CHECK(cudaGetLastError());\n	CHECK(cudaStreamDestroy(stream));\n" + wait +
                             "	CHECK(cudaFree(data));\n}"),
}
for name, s in variants.items():
    s = s.replace("static bool line_go;", "static bool line_go;\nstatic long done_count;")
    s = s.replace("		line_go = false;\n", "		line_go = false;\n		done_count = 0;\n")
    s = s.replace('ref=managed-threads streams', 'ref=%s streams' % name.replace('_', '-'))
    open(sys.argv[1] + '/ref_mt_%s.cu' % name if len(sys.argv) > 1 else 'ref_mt_%s.cu' % name, 'w').write(s)
