/* The search's clock (clock.c): monotonic seconds, for the deadline and the polls. */
#ifndef KBD_CLOCK_H
#define KBD_CLOCK_H

double now_seconds(void);

#endif
