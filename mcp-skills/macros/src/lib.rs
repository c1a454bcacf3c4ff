//! The procedural half of `mcp_skills::embed!`: lists a directory at
//! compile time and includes each file's bytes with `include_bytes!`, so
//! the binary carries its skills and a changed file rebuilds the crate.
//!
//! Use it through `mcp_skills::embed!`, which registers what this lists.
//!
//! This crate has no example of its own: its doc tests cannot reach
//! `mcp_skills`. The compiled example is the one of `mcp_skills::embed!`;
//! the guide is [docs/skills.md](https://github.com/mcp-rs/mcp-framework/blob/main/docs/skills.md).

use std::path::{Path, PathBuf};

use proc_macro::TokenStream;
use quote::quote;
use syn::{LitStr, parse_macro_input};

/// `&[(relative path, bytes)]` of every file under a directory relative to
/// the calling crate's manifest, sorted by path, with `/` separators.
/// Names that start with `.` are left out, as are the directories they
/// name, and directories reached through a link.
#[proc_macro]
pub fn embedded_files(input: TokenStream) -> TokenStream {
    let dir = parse_macro_input!(input as LitStr);
    let Some(manifest) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return error(&dir, "CARGO_MANIFEST_DIR is not set: build with cargo");
    };
    let root = PathBuf::from(manifest).join(dir.value());
    if !root.is_dir() {
        let message = format!(
            "no directory of skills at `{}` (the path is relative to the crate's Cargo.toml)",
            root.display()
        );
        return error(&dir, &message);
    }
    let mut files = Vec::new();
    if let Err(problem) = walk(&root, &root, &mut files) {
        return error(
            &dir,
            &format!("cannot read `{}`: {problem}", root.display()),
        );
    }
    files.sort();
    let entries = files.iter().map(|(relative, absolute)| {
        quote! { (#relative, include_bytes!(#absolute) as &[u8]) }
    });
    quote! { &[#(#entries),*] }.into()
}

/// Adds every file under `dir` to `files`, as (path relative to `root`,
/// absolute path).
fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        // A directory reached through a link is not followed: it could loop.
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(root, &path, files)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let relative: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            files.push((relative.join("/"), path.to_string_lossy().into_owned()));
        }
    }
    Ok(())
}

fn error(at: &LitStr, message: &str) -> TokenStream {
    syn::Error::new(at.span(), message)
        .to_compile_error()
        .into()
}
