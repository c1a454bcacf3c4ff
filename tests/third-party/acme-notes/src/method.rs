//! `acme/notes.count`: a typed method declared in a few lines, and a typed
//! interceptor that counts its calls in state shared from boot.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_server::core::error::ErrorObject;
use mcp_server::core::result::ResultType;
use mcp_server::prelude::extension::*;
use serde::{Deserialize, Serialize};

/// `acme/notes.count`: how many notes an owner has.
#[derive(Method)]
#[mcp(
    name = "acme/notes.count",
    params = CountParams,
    result = CountResult,
    target = "owner"
)]
pub struct CountNotes;

/// The params of `acme/notes.count`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Params)]
pub struct CountParams {
    /// Whose notes.
    pub owner: String,
}

/// The result of `acme/notes.count`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CountResult {
    /// Always `complete`.
    #[serde(rename = "resultType", default)]
    pub result_type: ResultType,
    /// The number of notes.
    pub count: usize,
    /// How many times the method was called before, as the interceptor counted.
    pub calls: usize,
}

/// The calls of `acme/notes.count`, counted by [`CountCalls`].
#[derive(Debug, Default)]
pub struct Calls(pub AtomicUsize);

/// Counts every call of `acme/notes.count` and writes the count into its result.
#[derive(Debug)]
pub struct CountCalls {
    calls: Arc<Calls>,
}

impl TypedInterceptor<CountNotes> for CountCalls {
    fn intercept<'a>(
        &'a self,
        _ctx: &'a RequestContext,
        params: CountParams,
        next: TypedNext<'a, CountNotes>,
    ) -> BoxFuture<'a, Result<Answer<CountResult>, ErrorObject>> {
        Box::pin(async move {
            let before = self.calls.0.fetch_add(1, Ordering::SeqCst);
            let mut answer = next.run(params).await?;
            if let Some(result) = answer.reply_mut().complete_mut() {
                result.calls = before;
            }
            Ok(answer)
        })
    }
}

/// The interceptor receives boot context: the counter it shares with
/// whoever else asks for it.
fn count_calls(boot: &BootContext) -> Item {
    Item::typed::<CountNotes>(CountCalls {
        calls: boot.shared::<Calls>(),
    })
}

mcp_server::register!(Registration::new(origin!(), "CountCalls", 0, count_calls));
