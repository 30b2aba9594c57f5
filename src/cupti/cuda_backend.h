/* cuda_backend.h: the CUDA+CUPTI backend (runs the op list on device 0 and captures it with CUPTI). */
#ifndef SS_CUDA_BACKEND_H
#define SS_CUDA_BACKEND_H

#include "backend.h"

extern const struct ss_backend cuda_backend;

#endif
