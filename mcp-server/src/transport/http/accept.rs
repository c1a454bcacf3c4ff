//! How a client wants its response, read from `Accept`: a stream when it
//! ranks `text/event-stream` above `application/json`, plain JSON unless
//! something must go out first when it ranks JSON higher, and only JSON
//! when it cannot read a stream.

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

/// The mode `Accept` asks for; a missing header accepts anything.
pub(crate) fn mode(headers: &HeaderMap) -> Mode {
    let Some(accept) = headers.get(ACCEPT).and_then(|v| v.to_str().ok()) else {
        return Mode::JsonUnlessNeeded;
    };
    let (mut json, mut stream) = (None, None);
    for (position, range) in accept.split(',').enumerate() {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let quality = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        // Higher quality first, then the earlier mention.
        let rank = (quality, -(position as f32));
        match media.as_str() {
            "application/json" | "application/*" => json = json.or(Some(rank)),
            "text/event-stream" | "text/*" => stream = stream.or(Some(rank)),
            "*/*" => {
                json = json.or(Some(rank));
                stream = stream.or(Some(rank));
            }
            _ => {}
        }
    }
    let stream = stream.filter(|(q, _)| *q > 0.0);
    let json = json.filter(|(q, _)| *q > 0.0);
    match (json, stream) {
        (_, None) => Mode::Json,
        (None, Some(_)) => Mode::Stream,
        (Some(j), Some(s)) if s > j => Mode::Stream,
        _ => Mode::JsonUnlessNeeded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> Mode {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, value.parse().unwrap());
        mode(&headers)
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
}
