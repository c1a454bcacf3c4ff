use mcp_server::customizer;
use mcp_server::seam::customizer::{HandlerConfig, HandlerCustomizer};

#[derive(Default)]
struct Widget;

#[derive(Default)]
struct Branding;

#[customizer]
impl HandlerCustomizer<Widget> for Branding {
    fn customize(&self, _: &mut HandlerConfig<Widget>) {}
}

fn main() {}
