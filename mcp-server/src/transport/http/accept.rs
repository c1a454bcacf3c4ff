//! How a client wants its response, read from `Accept`: a stream when it
//! ranks `text/event-stream` above `application/json`, plain JSON unless
//! something must go out first when it ranks JSON higher, and only JSON
//! when it cannot read a stream. A client that reads neither (or sends no
//! `Accept`, which MCP clients must) is refused.

use axum::http::HeaderMap;
use axum::http::header::ACCEPT;

/// The response a request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// An SSE stream from the start.
    Stream,
    /// JSON, unless a notification or a request must reach the client first.
    JsonUnlessNeeded,
    /// JSON only; what would need a stream is dropped.
    Json,
}

/// How much a client wants each kind of response: its quality, then the
/// earlier mention; `None` when it does not accept that kind.
type Rank = Option<(f32, f32)>;

/// The ranks `Accept` gives JSON and streams, those of quality 0 left out.
fn ranks(accept: &str) -> (Rank, Rank) {
    let (mut json, mut stream) = (None, None);
    for (position, range) in accept.split(',').enumerate() {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim();
        let quality = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        // Higher quality first, then the earlier mention.
        let rank = (quality, -(position as f32));
        let is = |name: &str| media.eq_ignore_ascii_case(name);
        if is("application/json") || is("application/*") {
            json = json.or(Some(rank));
        } else if is("text/event-stream") || is("text/*") {
            stream = stream.or(Some(rank));
        } else if media == "*/*" {
            json = json.or(Some(rank));
            stream = stream.or(Some(rank));
        }
    }
    let accepted = |rank: Rank| rank.filter(|(q, _)| *q > 0.0);
    (accepted(json), accepted(stream))
}

/// `Accept` as text, when the request has one.
fn accept(headers: &HeaderMap) -> Option<&str> {
    headers.get(ACCEPT).and_then(|v| v.to_str().ok())
}

/// Whether the client reads a stream: `Accept` names `text/event-stream`
/// (or `text/*`, or `*/*`) with a quality above 0.
pub(crate) fn reads_a_stream(headers: &HeaderMap) -> bool {
    accept(headers).is_some_and(|accept| ranks(accept).1.is_some())
}

/// The mode `Accept` asks for; `None` when the client reads neither JSON
/// nor a stream (or sends no `Accept`).
pub(crate) fn read(headers: &HeaderMap) -> Option<Mode> {
    match ranks(accept(headers)?) {
        (None, None) => None,
        (_, None) => Some(Mode::Json),
        (None, Some(_)) => Some(Mode::Stream),
        (Some(j), Some(s)) if s > j => Some(Mode::Stream),
        _ => Some(Mode::JsonUnlessNeeded),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, value.parse().unwrap());
        headers
    }

    fn accept(value: &str) -> Mode {
        read(&with_accept(value)).unwrap()
    }

    #[test]
    fn the_first_named_type_wins_at_equal_quality() {
        assert_eq!(
            accept("application/json, text/event-stream"),
            Mode::JsonUnlessNeeded
        );
        assert_eq!(accept("text/event-stream, application/json"), Mode::Stream);
    }

    #[test]
    fn quality_outranks_order() {
        assert_eq!(
            accept("text/event-stream;q=0.5, application/json"),
            Mode::JsonUnlessNeeded
        );
        assert_eq!(
            accept("application/json;q=0.1, text/event-stream"),
            Mode::Stream
        );
    }

    #[test]
    fn anything_accepts_both_and_prefers_neither() {
        assert_eq!(accept("*/*"), Mode::JsonUnlessNeeded);
    }

    #[test]
    fn a_client_that_cannot_read_a_stream_gets_json_only() {
        assert_eq!(accept("application/json"), Mode::Json);
        assert_eq!(
            accept("application/json, text/event-stream;q=0"),
            Mode::Json
        );
        assert_eq!(accept("text/event-stream"), Mode::Stream);
    }

    #[test]
    fn a_client_reads_json_or_a_stream_or_is_refused() {
        for read in ["application/json", "text/event-stream", "*/*", "text/*"] {
            assert!(super::read(&with_accept(read)).is_some(), "{read}");
        }
        for unread in [
            "text/html",
            "application/json;q=0, text/event-stream;q=0",
            "",
        ] {
            assert!(super::read(&with_accept(unread)).is_none(), "{unread}");
        }
        assert!(super::read(&HeaderMap::new()).is_none(), "no Accept at all");
    }

    #[test]
    fn a_client_reads_a_stream_only_when_it_accepts_one() {
        for read in [
            "text/event-stream",
            "application/json, text/event-stream",
            "text/*",
            "*/*",
        ] {
            assert!(reads_a_stream(&with_accept(read)), "{read}");
        }
        for unread in ["application/json", "text/event-stream;q=0", "text/html", ""] {
            assert!(!reads_a_stream(&with_accept(unread)), "{unread}");
        }
        assert!(!reads_a_stream(&HeaderMap::new()), "no Accept at all");
    }
}
