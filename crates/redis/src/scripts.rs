//! The Lua scripts of the copy. A script runs atomically on the server, so a comparison and
//! the write it guards cannot be separated by a client's write. Each is sent whole with
//! `EVAL` (no script cache to lose), with the key in `KEYS[1]`.

/// The digest of a key's value: `redis.sha1hex` of its `DUMP` payload, nil when absent.
pub const DIGEST: &str = "\
local d = redis.call('DUMP', KEYS[1])
if not d then return false end
return redis.sha1hex(d)";

/// A key's remaining TTL in ms (`PTTL`: -1 for none) and its `DUMP` payload, read at one
/// instant; nil when absent. A payload longer than `ARGV[1]` bytes is not sent: its length
/// comes instead (an integer where the payload would be).
pub const READ: &str = "\
local t = redis.call('PTTL', KEYS[1])
if t == -2 then return false end
local d = redis.call('DUMP', KEYS[1])
if not d then return false end
if #d > tonumber(ARGV[1]) then return {t, #d} end
return {t, d}";

/// Writes a payload. `ARGV[1]` empty: only if the key is absent (`RESTORE` without
/// `REPLACE`; `BUSYKEY`: another value is there, newer, left alone: 0). `ARGV[1]` 16 hex
/// digits: only if the key's digest still starts with them (`RESTORE ... REPLACE`; else
/// 0, and -1 when the key is gone). `ARGV[2]`: the absolute expiry in ms on the server's
/// clock (`ABSTTL`), `0` for none. `ARGV[3]`: the payload. Returns the digest of the key
/// as written, or 1 when it expired at once (its expiry had passed).
pub const RESTORE: &str = "\
local k = KEYS[1]
local args = {k, ARGV[2], ARGV[3]}
if ARGV[1] ~= '' then
  local d = redis.call('DUMP', k)
  if not d then return -1 end
  if string.sub(redis.sha1hex(d), 1, 16) ~= ARGV[1] then return 0 end
  table.insert(args, 'REPLACE')
end
if ARGV[2] ~= '0' then table.insert(args, 'ABSTTL') end
local r = redis.pcall('RESTORE', unpack(args))
if type(r) == 'table' and r.err then
  if string.sub(r.err, 1, 7) == 'BUSYKEY' then return 0 end
  return r
end
local n = redis.call('DUMP', k)
if not n then return 1 end
return redis.sha1hex(n)";

/// Deletes a key only if its digest still starts with `ARGV[1]`: 1 deleted, 0 changed
/// (kept), -1 absent.
pub const DELETE_IF: &str = "\
local d = redis.call('DUMP', KEYS[1])
if not d then return -1 end
if string.sub(redis.sha1hex(d), 1, 16) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1";
