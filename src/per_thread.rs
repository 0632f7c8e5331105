//! State kept between calls on one thread (the reducer's recent states, the binding's heads):
//! `thread_local!` with the standard library; in the package's wasm, which has none, a plain
//! static, as its one instance runs on one thread.

/// Declares `static NAME: TYPE = INIT;` items read with `NAME.try_with(|value| ...)`, which
/// answers a `Result` as `thread_local!`'s `try_with` does.
macro_rules! per_thread {
    ($(static $name:ident: $ty:ty = $init:expr;)+) => {
        #[cfg(not(all(feature = "js-binding", not(feature = "std"), target_arch = "wasm32")))]
        thread_local! { $(static $name: $ty = const { $init };)+ }
        $(
            #[cfg(all(feature = "js-binding", not(feature = "std"), target_arch = "wasm32"))]
            static $name: $crate::per_thread::Single<$ty> = $crate::per_thread::Single($init);
        )+
    };
}
pub(crate) use per_thread;

/// A value of the package's wasm instance, which has one thread: the wasm has no shared memory
/// (built without the `atomics` target feature), so no other thread can see it.
#[cfg(all(feature = "js-binding", not(feature = "std"), target_arch = "wasm32"))]
pub struct Single<T>(pub T);

#[cfg(all(
    feature = "js-binding",
    not(feature = "std"),
    target_arch = "wasm32",
    target_feature = "atomics"
))]
compile_error!("the package's wasm without `std` is single-threaded: build it without `atomics`");

// SAFETY: without `atomics` a wasm instance runs on one thread, so the value is never shared.
#[cfg(all(feature = "js-binding", not(feature = "std"), target_arch = "wasm32"))]
unsafe impl<T> Sync for Single<T> {}

#[cfg(all(feature = "js-binding", not(feature = "std"), target_arch = "wasm32"))]
impl<T> Single<T> {
    /// Calls `read` with the value; never fails (`thread_local!`'s can, once a thread ends).
    pub fn try_with<R>(
        &'static self,
        read: impl FnOnce(&T) -> R,
    ) -> Result<R, core::convert::Infallible> {
        Ok(read(&self.0))
    }
}
