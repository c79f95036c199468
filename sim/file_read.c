/* file_read.c: bounded reading of user files (file_read.h).  The file is
 * opened without blocking, checked with fstat (regular, not over the
 * limit), and only then read; the buffer grows with what is really read, so
 * a size that lies (a /proc file says 0) cannot make it read past the limit. */
#include "file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *file_size_text(unsigned long long bytes, char *buf, size_t cap)
{
    static const char *unit[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        snprintf(buf, cap, "%llu byte%s", bytes, bytes == 1 ? "" : "s");
        return buf;
    }
    double v = (double)bytes / 1024;
    int u = 0;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    if (v == (double)(unsigned long long)v)
        snprintf(buf, cap, "%llu %s", (unsigned long long)v, unit[u]);
    else
        snprintf(buf, cap, "%.1f %s", v, unit[u]);
    return buf;
}

static const char *kind_name(mode_t m)
{
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISFIFO(m))
        return "a FIFO (pipe)";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISDIR(m))
        return "a folder";
    return "not a regular file";
}

/* Open and check; -1 with err filled.  *size gets st_size. */
static int open_checked(const char *path, size_t limit, const char *what, off_t *size, SimError *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open the %s: %s", what, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot read the %s: %s", what, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        sim_error_set(err, SIM_ERR_IO, path, 0, 0,
                      "the %s is %s, not a regular file; warpsim reads only regular files (save it to a file first)",
                      what, kind_name(st.st_mode));
        close(fd);
        return -1;
    }
    if (limit && (unsigned long long)st.st_size > (unsigned long long)limit) {
        char a[32], b[32];
        sim_error_set(err, SIM_ERR_IO, path, 0, 0, "the %s is %s, over the %s limit for a %s", what,
                      file_size_text((unsigned long long)st.st_size, a, sizeof a), file_size_text(limit, b, sizeof b),
                      what);
        close(fd);
        return -1;
    }
    /* regular files never block; reads below wait as usual */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    *size = st.st_size;
    return fd;
}

char *file_read_all(const char *path, size_t limit, const char *what, size_t *len, SimError *err)
{
    off_t size;
    int fd = open_checked(path, limit, what, &size, err);
    if (fd < 0)
        return NULL;
    /* room for the stated size and one byte more, to see a file that grew */
    size_t cap = (size_t)size + 2, n = 0;
    if (cap < 4096)
        cap = 4096;
    if (cap > limit + 2)
        cap = limit + 2;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory reading the %s", what);
            goto fail;
        }
        if (n == cap - 1) {
            if (n > limit) {
                char b[32];
                sim_error_set(err, SIM_ERR_IO, path, 0, 0, "the %s holds more than the %s limit for a %s", what,
                              file_size_text(limit, b, sizeof b), what);
                goto fail;
            }
            size_t nc = cap - 1 > limit / 2 ? limit + 2 : 2 * cap;
            char *nb = realloc(buf, nc);
            if (!nb)
                free(buf);
            buf = nb;
            cap = nc;
            continue;
        }
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            sim_error_set(err, SIM_ERR_IO, path, 0, 0, "read error in the %s: %s", what, strerror(errno));
            goto fail;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (n > limit) {
        char b[32];
        free(buf);
        sim_error_set(err, SIM_ERR_IO, path, 0, 0, "the %s holds more than the %s limit for a %s", what,
                      file_size_text(limit, b, sizeof b), what);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
fail:
    free(buf);
    close(fd);
    return NULL;
}

FILE *file_open_regular(const char *path, size_t limit, const char *what, SimError *err)
{
    off_t size;
    int fd = open_checked(path, limit, what, &size, err);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot read the %s: %s", what, strerror(errno));
        close(fd);
    }
    return f;
}
