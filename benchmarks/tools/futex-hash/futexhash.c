/* Sets this process's private futex hash size (Linux 6.16+, PR_FUTEX_HASH) before the JVM starts. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#define PR_FUTEX_HASH 78
#define PR_FUTEX_HASH_SET_SLOTS 1
#define PR_FUTEX_HASH_GET_SLOTS 2
__attribute__((constructor)) static void set_slots(void) {
    const char *v = getenv("FUTEX_HASH_SLOTS");
    int before = prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_GET_SLOTS, 0, 0, 0);
    if (v != NULL && prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_SET_SLOTS, atoi(v), 0, 0) != 0) {
        perror("prctl(PR_FUTEX_HASH_SET_SLOTS)");
    }
    fprintf(stderr, "futex hash slots: %d -> %d\n", before, prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_GET_SLOTS, 0, 0, 0));
}
__attribute__((destructor)) static void report(void) {
    fprintf(stderr, "futex hash slots at exit: %d\n", prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_GET_SLOTS, 0, 0, 0));
}
