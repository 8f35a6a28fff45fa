// The host simulation's C interface (sim.cc), for hostsim.go.
#ifndef LINTEL_HOSTSIM_H
#define LINTEL_HOSTSIM_H

#include <stddef.h>

#define LT_SIM_OK 0
#define LT_SIM_NO_KERNEL 1
#define LT_SIM_BAD_PARAMS 2
#define LT_SIM_BAD_GEOMETRY 3

#ifdef __cplusplus
extern "C" {
#endif

int lt_sim_kernels(void);
const char* lt_sim_kernel_name(int i);
long lt_sim_param_size(const char* name);
int lt_sim_launch(const char* name, const unsigned int* grid, const unsigned int* block,
                  const unsigned char* params, size_t nparams);

#ifdef __cplusplus
}
#endif

#endif
