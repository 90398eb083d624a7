#define XT_LEVEL base
#include "kernels_impl.inc"
