/* The search's clock, a file of its own: both the tree (search.c, at its ticks) and the root
 * (root.c, between iterations) read it, and the tree never calls the root. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <time.h>
#include "clock.h"

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
