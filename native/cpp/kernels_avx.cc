// Compiled with -mavx -mfma (x86-64 only); chosen at run time when the CPU and OS support both.
#define XT_LEVEL avx
#include "kernels_impl.inc"
