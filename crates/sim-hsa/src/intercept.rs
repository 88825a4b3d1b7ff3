//! Intercept queues (placeholder).

use crate::queue::Queue;

pub(crate) fn doorbell_rung(_addr: usize, _value: i64) {}

pub(crate) fn destroy_if_intercept(_q: &'static Queue) {}

pub(crate) fn hardware_of(q: &'static Queue) -> &'static Queue {
    q
}
