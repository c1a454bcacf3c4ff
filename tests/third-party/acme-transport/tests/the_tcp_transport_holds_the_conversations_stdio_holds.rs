//! The third party's TCP transport holds every conversation stdio holds:
//! the same test bodies as `mcp-server`'s stdio, run over a real socket.

use mcp_server::Server;
use mcp_tests::conversation::{LineTransport, Pipe};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::net::{TcpListener, TcpStream};

/// `acme_transport::serve` on a loopback connection of its own.
struct Tcp;

impl LineTransport for Tcp {
    async fn connect(&self, server: Server) -> Pipe {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let address = listener.local_addr().expect("a bound address");
        let serving = tokio::spawn(async move {
            let (stream, _) = listener.accept().await?;
            acme_transport::serve(server, stream).await
        });
        let client = TcpStream::connect(address)
            .await
            .expect("the transport accepts");
        let (output, input) = client.into_split();
        Pipe {
            input: Box::new(input),
            output: BufReader::new(Box::new(output) as Box<dyn AsyncRead + Send + Unpin>).lines(),
            serving,
        }
    }
}

mcp_tests::conversations!(Tcp);
