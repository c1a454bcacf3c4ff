//! A prompt, a resource and a resource template, each with completion of
//! what a user types: the building blocks besides tools.
//!
//! ```sh
//! cargo run -p prompts-and-resources   # stdio
//! ```

use mcp_server::prelude::*;

/// The recipes this server knows.
const RECIPES: &[(&str, &str)] = &[
    ("pancakes", "Flour, milk, eggs. Whisk, rest, fry."),
    ("pesto", "Basil, pine nuts, garlic, oil. Pound."),
    ("polenta", "Cornmeal and water. Stir for forty minutes."),
];

/// Asks the model to adapt a recipe for a number of guests.
#[prompt(title = "Adapt a recipe")]
async fn adapt(
    #[arg(description = "The recipe's name")] recipe: String,
    #[arg(description = "How many guests")] guests: String,
) -> String {
    format!("Adapt the recipe `{recipe}` for {guests} guests; keep the steps short.")
}

/// Every recipe's name, one per line.
#[resource(uri = "recipes://index", name = "index", mime_type = "text/plain")]
async fn index() -> String {
    RECIPES
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join("\n")
}

/// One recipe, by name.
#[resource_template(
    uri_template = "recipes://{name}",
    name = "recipe",
    mime_type = "text/plain"
)]
async fn recipe(name: String) -> Result<String, String> {
    RECIPES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| (*text).to_owned())
        .ok_or_else(|| format!("no recipe is named {name}"))
}

/// The names that start with what was typed.
fn names_from(typed: &str) -> Vec<String> {
    RECIPES
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .filter(|name| name.starts_with(typed))
        .collect()
}

/// Completes the prompt's `recipe` argument.
#[completion(prompt = "adapt", argument = "recipe")]
async fn complete_recipe(value: String) -> Vec<String> {
    names_from(&value)
}

/// Completes the template's `name` variable.
#[completion(resource_template = "recipes://{name}", variable = "name")]
async fn complete_name(value: String) -> Vec<String> {
    names_from(&value)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let server = Server::builder()
        .named("prompts-and-resources", env!("CARGO_PKG_VERSION"))
        .build();
    mcp_server::transport::stdio::serve_stdio(server).await
}
