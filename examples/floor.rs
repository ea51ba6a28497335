//! The cost floor of the hook benchmark (`benches/hook.rs`): the cheapest thing a hook can be,
//! a Rust binary built with the same release profile that reads its stdin and exits 0.

use std::io::Read;

fn main() {
    let mut sink = Vec::with_capacity(8 * 1024);
    let _ = std::io::stdin().lock().read_to_end(&mut sink);
}
