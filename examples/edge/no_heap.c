/* no_heap.c — link with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
 * (no_heap_link_args in meson.build): any call to the heap from the objects
 * being linked (the program and libkmx_infer.a) lands here and aborts.
 * The C library's own internal allocations (stdio) are not redirected. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void heap_used(const char *what) {
    static const char prefix[] = "no_heap: the heap was used: ";
    if (write(2, prefix, sizeof prefix - 1) < 0 || write(2, what, strlen(what)) < 0 || write(2, "\n", 1) < 0) abort();
    abort();
}

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *pointer, size_t size);
void __wrap_free(void *pointer);

void *__wrap_malloc(size_t size) {
    (void)size;
    heap_used("malloc");
    return NULL;
}

void *__wrap_calloc(size_t count, size_t size) {
    (void)count;
    (void)size;
    heap_used("calloc");
    return NULL;
}

void *__wrap_realloc(void *pointer, size_t size) {
    (void)pointer;
    (void)size;
    heap_used("realloc");
    return NULL;
}

void __wrap_free(void *pointer) {
    if (pointer) heap_used("free");
}
