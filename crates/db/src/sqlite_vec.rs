//! sqlite-vec, SQLite's vector search extension, registered with the SQLite sqlx links before
//! any connection opens: `sqlite3_auto_extension` loads it into every connection made after,
//! so the pool's connections all know `vec0` tables (docs/adr/0026-meaning-search.md).

use std::sync::Once;

static REGISTER: Once = Once::new();

/// An SQLite extension's entry point, as `sqlite3_auto_extension` takes it.
type EntryPoint = unsafe extern "C" fn(
    *mut libsqlite3_sys::sqlite3,
    *mut *mut std::ffi::c_char,
    *const libsqlite3_sys::sqlite3_api_routines,
) -> std::ffi::c_int;

/// Registers sqlite-vec for every SQLite connection opened from now on; once per process.
pub fn register() {
    REGISTER.call_once(|| {
        #[allow(unsafe_code)]
        // SAFETY: `sqlite3_vec_init` is an SQLite extension entry point, (db, error message,
        // API routines) -> int, which is the type auto_extension takes; the sqlite-vec crate
        // declares it without parameters, so the pointer is retyped to what it is, as
        // sqlite-vec's own docs register it.
        unsafe {
            let init: EntryPoint = std::mem::transmute(sqlite_vec::sqlite3_vec_init as *const ());
            libsqlite3_sys::sqlite3_auto_extension(Some(init));
        }
    });
}
