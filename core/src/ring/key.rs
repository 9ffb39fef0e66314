//! What a client does to a key before hashing it: refusals and rewriting.

use crate::error::Error;
use crate::hash::Hash;
use crate::profile::{KeyRewrite, Profile};

/// Longest key rewrite buffer (pecl memcache truncates to 250 bytes, gomemcache to 256).
pub(super) const KEY_BUF: usize = 256;

/// The bytes the client hashes for `key`, or [`Error::KeyRejected`]. Rewritten keys are built
/// in `buf` (no allocation).
pub(super) fn prepare<'k>(
    profile: &Profile,
    hash: Hash,
    key: &'k [u8],
    buf: &'k mut [u8; KEY_BUF],
) -> Result<&'k [u8], Error> {
    let limits = profile.key_limits;
    let refused = (key.is_empty() && (limits.empty || profile.empty_key_rejected.contains(&hash)))
        || limits.max_len.is_some_and(|m| key.len() > m);
    if refused {
        return Err(Error::KeyRejected);
    }
    Ok(match profile.key {
        KeyRewrite::None => key,
        KeyRewrite::Truncate(n) => &key[..key.len().min(n)],
        KeyRewrite::PeclSanitize => {
            let n = key.len().min(250);
            for (dst, &b) in buf.iter_mut().zip(&key[..n]) {
                *dst = if b <= 0x20 { b'_' } else { b };
            }
            &buf[..n]
        }
    })
}
