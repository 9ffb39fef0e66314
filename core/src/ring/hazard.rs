//! Hazard slots: a reader of a [`super::SharedRing`] announces the snapshot it reads in one
//! slot of the ring's own table (no thread-local state, one atomic read-modify-write), and a
//! writer lets a retired snapshot go only once no slot holds it.
//!
//! The protocol (hazard pointers): the reader reads the published pointer `p`, claims a free
//! slot by writing `p` into it, then reads the published pointer again; if it is still `p`,
//! `p` stays valid until the reader clears the slot. The writer publishes the next pointer,
//! then reads every slot: a retired snapshot no slot holds is no reader's. Both sides use
//! sequentially consistent operations, so if the reader's second read saw `p` (it came before
//! the writer's publication in their single total order), the writer's later read of the slot
//! sees `p` too; and if it did not, the reader lets the slot go without reading `p`'s memory.

use core::marker::PhantomData;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};

/// Slots per table: more than the threads that read one ring at the same instant in
/// practice; a reader that finds them all taken reads by another way (the caller's
/// fallback), so the count bounds nothing but the fast path.
const SLOTS: usize = 16;

/// One slot, alone on its cache line, so that readers on different slots never write the
/// same line.
#[repr(align(64))]
struct Slot<T>(AtomicPtr<T>);

/// A table of hazard slots over pointers to `T`.
pub(super) struct Hazards<T> {
    slots: [Slot<T>; SLOTS],
}

impl<T> Hazards<T> {
    /// A table of empty slots.
    pub(super) fn new() -> Hazards<T> {
        Hazards {
            slots: core::array::from_fn(|_| Slot(AtomicPtr::new(ptr::null_mut()))),
        }
    }

    /// Announces the pointer `published` holds and returns it held, or `None` when every
    /// slot is taken or `published` changed meanwhile (the caller then reads by another way:
    /// a reader never waits and never retries). The first slot tried depends on the
    /// caller's stack address, so threads mostly start on different slots.
    #[inline]
    pub(super) fn protect<'a>(&'a self, published: &AtomicPtr<T>) -> Option<Held<'a, T>> {
        let here = 0u8;
        let start = start_slot(ptr::addr_of!(here) as usize);
        let p = published.load(Ordering::Acquire);
        for i in 0..SLOTS {
            let slot = &self.slots[(start + i) % SLOTS].0;
            if !slot.load(Ordering::Relaxed).is_null() {
                continue;
            }
            if slot
                .compare_exchange(ptr::null_mut(), p, Ordering::SeqCst, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            let held = Held {
                slot,
                ptr: p,
                _of: PhantomData,
            };
            // Still published after the announcement: no writer has retired it unseen.
            return (published.load(Ordering::SeqCst) == p).then_some(held);
        }
        None
    }

    /// Whether a reader holds `p` (the writer's check, after it published another pointer).
    pub(super) fn holds(&self, p: *const T) -> bool {
        self.slots
            .iter()
            .any(|s| ptr::eq(s.0.load(Ordering::SeqCst), p))
    }
}

/// The first slot a reader tries: a hash of the page of its stack address (threads have
/// stacks of their own, so they mostly start on different slots; one thread starts on the
/// same slot call after call, which it left empty).
#[inline(always)]
fn start_slot(stack_addr: usize) -> usize {
    let page = (stack_addr >> 12) as u64;
    (page.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as usize % SLOTS
}

/// A pointer announced in a slot: valid (not freed by a writer) until this is dropped, which
/// clears the slot.
pub(super) struct Held<'a, T> {
    slot: &'a AtomicPtr<T>,
    ptr: *mut T,
    _of: PhantomData<&'a T>,
}

impl<T> Held<'_, T> {
    /// The pointer held.
    #[inline]
    pub(super) fn ptr(&self) -> *const T {
        self.ptr
    }
}

impl<T> Drop for Held<'_, T> {
    #[inline]
    fn drop(&mut self) {
        self.slot.store(ptr::null_mut(), Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_pointer_is_seen_until_dropped() {
        let mut a = 1u32;
        let mut b = 2u32;
        let published = AtomicPtr::new(&mut a as *mut u32);
        let h = Hazards::new();
        let held = h.protect(&published).expect("a free slot");
        assert_eq!(held.ptr(), &a as *const u32);
        assert!(h.holds(&a));
        assert!(!h.holds(&b));
        published.store(&mut b, Ordering::SeqCst);
        assert!(h.holds(&a));
        drop(held);
        assert!(!h.holds(&a));
    }

    #[test]
    fn every_slot_taken_gives_none_and_frees_nothing() {
        let mut a = 1u32;
        let published = AtomicPtr::new(&mut a as *mut u32);
        let h = Hazards::new();
        let all: std::vec::Vec<_> = (0..SLOTS).map(|_| h.protect(&published)).collect();
        assert!(all.iter().all(Option::is_some));
        assert!(h.protect(&published).is_none());
        drop(all);
        assert!(!h.holds(&a));
        assert!(h.protect(&published).is_some());
    }

    #[test]
    fn start_slots_spread_over_pages() {
        let used: std::collections::BTreeSet<usize> =
            (0..256usize).map(|p| start_slot(p << 12)).collect();
        assert_eq!(used.len(), SLOTS);
    }
}
