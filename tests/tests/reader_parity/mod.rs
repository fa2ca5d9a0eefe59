//! A stream's first reader (the quick reader, or a flat tool's flat reader) must change nothing
//! but the cost: the helpers that compare a stream with the same stream without it
//! (`Stream::__automaton_only`), feed by feed (`stream_quick.rs`, `stream_flat.rs`); and a
//! `TextStream`, which reads the caller's text where a `Stream` copies it, must answer as the
//! stream does.

use toolgate::{Progress, TextStream, Tool};

/// Feed `text` in the chunks `sizes` cycles through, with and without the first reader (and to
/// a `TextStream`, the text so far after each chunk), and compare every answer; returns whether
/// the first reader read the text to its end.
pub fn parity<T: Tool>(text: &[u8], sizes: &[usize]) -> bool {
    let mut s = T::stream();
    let mut plain = T::stream().__automaton_only();
    let mut over = TextStream::<T>::new();
    let (mut at, mut k) = (0, 0);
    while at < text.len() {
        let n = sizes[k % sizes.len()].max(1).min(text.len() - at);
        k += 1;
        let (p, q) = (s.feed(&text[at..at + n]), plain.feed(&text[at..at + n]));
        assert_eq!(p, q, "{:?} at bytes {at}..{}", String::from_utf8_lossy(text), at + n);
        let o = over.feed_text(&text[..at + n]);
        assert_eq!(p, o, "{:?} at bytes {at}..{}: the text stream", String::from_utf8_lossy(text), at + n);
        assert_eq!(s.__quick(), over.__quick(), "{:?} at bytes {at}..{}", String::from_utf8_lossy(text), at + n);
        if let Progress::Dead(d) = &p {
            // The death is reported by the fragment that holds its byte.
            assert!(d.offset < at + n, "{:?}: {d}", String::from_utf8_lossy(text));
        }
        at += n;
    }
    assert_eq!(s.can_finish(), plain.can_finish(), "{:?}: can_finish", String::from_utf8_lossy(text));
    assert_eq!(s.can_finish(), over.can_finish(text), "{:?}: can_finish", String::from_utf8_lossy(text));
    let read = s.__quick();
    let (a, b) = (s.finish(), plain.finish());
    assert_eq!(a.is_ok(), b.is_ok(), "{:?}: finish", String::from_utf8_lossy(text));
    assert_eq!(a, over.finish(text), "{:?}: finish, the text stream", String::from_utf8_lossy(text));
    assert_eq!(a.is_ok(), std::str::from_utf8(text).is_ok_and(T::is_valid_json));
    read && s.__quick()
}

/// Every cut of `text` into two fragments, 1- to 4-byte fragments, and a few chunkings; whether
/// the first reader read it to its end every time.
pub fn all_cuts<T: Tool>(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut read = parity::<T>(bytes, &[bytes.len()]);
    for cut in 1..bytes.len() {
        read &= parity::<T>(bytes, &[cut, bytes.len()]);
    }
    for sizes in [&[1][..], &[2], &[3], &[4], &[3, 5], &[16], &[7, 1, 13]] {
        read &= parity::<T>(bytes, sizes);
    }
    read
}
