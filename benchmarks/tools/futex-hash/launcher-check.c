/* Sets the futex table size, then execs its arguments: the exec'd JVM still had the default table (16 buckets),
 * read back by futexhash.c preloaded into it. Usage: LD_PRELOAD=libfutexhash.so ./launcher-check java ... */
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
int main(int argc, char **argv) {
    printf("launcher set: %d, slots now %d\n", prctl(78, 1, 16384, 0, 0), prctl(78, 2, 0, 0, 0));
    fflush(stdout);
    execvp(argv[1], argv + 1);
    perror("exec");
    return 1;
}
