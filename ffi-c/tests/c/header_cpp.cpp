// Both headers must compile as C++ too.
#include <ketama.h>
#include <ketama_compat.h>

int main() {
    ketama_ring *ring = nullptr;
    ketama_status st = ketama_ring_create("libketama", nullptr, &ring);
    ketama_ring_free(ring);
    ketama_continuum c = nullptr;
    (void)c;
    static_assert(sizeof(mcs) == 28, "mcs layout");
    return st == KETAMA_STATUS_OK ? 0 : 1;
}
