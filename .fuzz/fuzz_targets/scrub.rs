//! Fuzz the secret scrubber: never a panic, idempotent, borrowed when nothing matched.
#![no_main]

use std::borrow::Cow;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let once = askhook_core::scrub::scrub(&text);
    if let Cow::Owned(o) = &once {
        assert!(o.contains("[redacted:"));
    }
    assert_eq!(askhook_core::scrub::scrub(&once).as_ref(), once.as_ref());
});
