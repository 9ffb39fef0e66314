/* GENERATED from include/ketama.h by ffi-c/gen-header.sh for PHP FFI::cdef; do not edit. */
typedef enum ketama_status {
    KETAMA_STATUS_OK = 0,
    KETAMA_STATUS_NULL_ARGUMENT = 1,
    KETAMA_STATUS_EMPTY_RING = 2,
    KETAMA_STATUS_NO_SERVER = 3,
    KETAMA_STATUS_UNKNOWN_PROFILE = 4,
    KETAMA_STATUS_UNKNOWN_HASH = 5,
    KETAMA_STATUS_AMBIGUOUS_HASH = 6,
    KETAMA_STATUS_BAD_WEIGHT = 7,
    KETAMA_STATUS_DUPLICATE_SERVER = 8,
    KETAMA_STATUS_MISSING_SERVER = 9,
    KETAMA_STATUS_BAD_LABEL = 10,
    KETAMA_STATUS_INVALID_UTF8 = 11,
    KETAMA_STATUS_KEY_REJECTED = 12,
    KETAMA_STATUS_UNSUPPORTED = 13,
    KETAMA_STATUS_TOO_MANY_POINTS = 14,
    KETAMA_STATUS_INDEX_OUT_OF_RANGE = 15,
    KETAMA_STATUS_PANIC = 16,
    KETAMA_STATUS_INTERNAL = 17,
    KETAMA_STATUS_BAD_FACTOR = 18,
    KETAMA_STATUS_FIXED_POINTS = 19,
    KETAMA_STATUS_NOT_A_CONTINUUM = 20,
    KETAMA_STATUS_NEEDS_KEY = 21,
    KETAMA_STATUS_BAD_LOADS = 22,
    KETAMA_STATUS_TOO_MANY_SERVERS = 23,
    KETAMA_STATUS_UNKNOWN_ALGORITHM = 24,
    KETAMA_STATUS_ZERO_BUCKETS = 25,
    KETAMA_STATUS_TOO_MANY_BUCKETS = 26,
    KETAMA_STATUS_NO_BUCKET = 27,
    KETAMA_STATUS_BAD_OPTION = 28,
} ketama_status;
typedef struct ketama_raw_ring ketama_raw_ring;
typedef struct ketama_ring ketama_ring;
enum ketama_status ketama_bucket(const char *algorithm, size_t algorithm_len, uint64_t input, uint32_t buckets, uint32_t *bucket_out);
enum ketama_status ketama_ring_create(const char *profile, const char *hash, struct ketama_ring **ring_out);
enum ketama_status ketama_ring_create_len(const char *profile, size_t profile_len, const char *hash, size_t hash_len, struct ketama_ring **ring_out);
enum ketama_status ketama_ring_create_points(const char *profile, const char *hash, const char *const *labels, const size_t *label_lens, size_t server_count, const uint32_t *positions, const uint32_t *owners, size_t point_count, struct ketama_ring **ring_out, size_t *failed_index_out);
enum ketama_status ketama_ring_create_points_len(const char *profile, size_t profile_len, const char *hash, size_t hash_len, const char *const *labels, const size_t *label_lens, size_t server_count, const uint32_t *positions, const uint32_t *owners, size_t point_count, struct ketama_ring **ring_out, size_t *failed_index_out);
void ketama_ring_free(struct ketama_ring *ring);
enum ketama_status ketama_ring_add(struct ketama_ring *ring, const char *label, size_t label_len, uint32_t weight);
enum ketama_status ketama_ring_add_named(struct ketama_ring *ring, const char *label, size_t label_len, uint32_t weight, const char *name, size_t name_len);
enum ketama_status ketama_ring_add_many(struct ketama_ring *ring, const char *const *labels, const size_t *label_lens, const uint32_t *weights, const char *const *names, const size_t *name_lens, size_t count, size_t *failed_index_out);
enum ketama_status ketama_ring_remove(struct ketama_ring *ring, const char *label, size_t label_len);
enum ketama_status ketama_ring_set_weight(struct ketama_ring *ring, const char *label, size_t label_len, uint32_t weight);
enum ketama_status ketama_ring_set_options(struct ketama_ring *ring, const char *hash_tag, size_t hash_tag_len, const char *prefix_key, size_t prefix_key_len, int32_t hash_with_prefix);
enum ketama_status ketama_ring_lookup(const struct ketama_ring *ring, const char *key, size_t key_len, const char **label_out, size_t *label_len_out);
int64_t ketama_ring_lookup_index(const struct ketama_ring *ring, const char *key, size_t key_len);
int64_t ketama_ring_lookup_str(const struct ketama_ring *ring, const char *key);
enum ketama_status ketama_ring_lookup_many(const struct ketama_ring *ring, const char *const *keys, const size_t *key_lens, size_t count, const char **labels_out, size_t *label_lens_out);
enum ketama_status ketama_ring_lookup_packed(const struct ketama_ring *ring, const char *keys, const size_t *key_lens, size_t count, uint32_t *servers_out);
enum ketama_status ketama_ring_lookup_joined(const struct ketama_ring *ring, const char *keys, size_t keys_len, uint8_t separator, char *labels_out, size_t labels_capacity, size_t *labels_len_out, size_t *refused_out);
enum ketama_status ketama_ring_lookup_hash(const struct ketama_ring *ring, uint32_t hash, size_t n, uint32_t *servers_out, size_t *count_out);
enum ketama_status ketama_ring_lookup_n(const struct ketama_ring *ring, const char *key, size_t key_len, size_t n, const char **labels_out, size_t *label_lens_out, size_t *count_out);
enum ketama_status ketama_ring_failover(const struct ketama_ring *ring, const char *key, size_t key_len, size_t n, const char **labels_out, size_t *label_lens_out, size_t *count_out);
enum ketama_status ketama_ring_lookup_alive(const struct ketama_ring *ring, const char *key, size_t key_len, const uint32_t *dead, size_t n_dead, const char **label_out, size_t *label_len_out);
enum ketama_status ketama_ring_key_hash(const struct ketama_ring *ring, const char *key, size_t key_len, uint32_t *hash_out);
enum ketama_status ketama_ring_server_count(const struct ketama_ring *ring, size_t *count_out);
enum ketama_status ketama_ring_server(const struct ketama_ring *ring, size_t index, const char **label_out, size_t *label_len_out, uint32_t *weight_out);
enum ketama_status ketama_ring_point_count(const struct ketama_ring *ring, size_t *count_out);
enum ketama_status ketama_ring_points(const struct ketama_ring *ring, uint32_t *positions_out, uint32_t *servers_out, size_t capacity, size_t *count_out);
enum ketama_status ketama_raw_ring_create(const char *profile, size_t profile_len, const char *hash, size_t hash_len, const char *const *names, const size_t *name_lens, const uint32_t *weights, size_t server_count, struct ketama_raw_ring **ring_out, size_t *failed_index_out);
enum ketama_status ketama_raw_ring_create_counted(const char *profile, size_t profile_len, const char *hash, size_t hash_len, const char *const *names, const size_t *name_lens, const uint32_t *strings, size_t server_count, struct ketama_raw_ring **ring_out, size_t *failed_index_out);
void ketama_raw_ring_free(struct ketama_raw_ring *ring);
int64_t ketama_raw_ring_lookup_index(const struct ketama_raw_ring *ring, const char *key, size_t key_len);
enum ketama_status ketama_raw_ring_key_position(const struct ketama_raw_ring *ring, const char *key, size_t key_len, size_t *position_out);
enum ketama_status ketama_raw_ring_lookup_n(const struct ketama_raw_ring *ring, const char *key, size_t key_len, size_t n, uint32_t *servers_out, size_t *count_out);
enum ketama_status ketama_raw_ring_size(const struct ketama_raw_ring *ring, size_t *server_count_out, size_t *point_count_out);
enum ketama_status ketama_raw_ring_points(const struct ketama_raw_ring *ring, uint32_t *positions_out, uint32_t *servers_out, size_t capacity, size_t *count_out);
const char *ketama_profile_name(size_t index);
enum ketama_status ketama_hash(const char *algorithm, const char *key, size_t len, uint32_t *hash_out);
enum ketama_status ketama_hash_len(const char *algorithm, size_t algorithm_len, const char *key, size_t len, uint32_t *hash_out);
const char *ketama_version(void);
const char *ketama_status_str(int status);
