//! The bench's HTTP writers: one kept-alive HTTP/1.1 connection each, every
//! request written in one piece and every answer read by its length.
//!
//! The bench measures the server, but its writers share the server's two
//! cores. ureq wrote each POST in two sends (head, then body), so the server
//! woke twice per request, and its client work (pooling checks, timeouts set
//! per call) took about a fifth of the machine. A phone at the table is its
//! own machine; this client costs as little as a client can.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// One writer's connection.
pub struct Wire {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
    request: Vec<u8>,
}

/// An answer: its status and body.
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Wire {
    pub fn connect(addr: SocketAddr) -> std::io::Result<Self> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        // Set once: a server that stops answering fails the bench, it does
        // not hang it.
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Self {
            addr,
            reader: BufReader::new(stream),
            request: Vec::new(),
        })
    }

    /// POSTs `body` (JSON) to `path` with `authorization`, and reads the answer.
    pub fn post(
        &mut self,
        path: &str,
        authorization: &str,
        body: &[u8],
    ) -> std::io::Result<Answer> {
        self.request.clear();
        write!(
            self.request,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: {authorization}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        )?;
        self.request.extend_from_slice(body);
        self.reader.get_mut().write_all(&self.request)?;
        self.answer()
    }

    fn answer(&mut self) -> std::io::Result<Answer> {
        let mut line = String::new();
        self.read_line(&mut line)?;
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| invalid(format!("not an HTTP status line: {line:?}")))?;
        let mut length = None;
        loop {
            line.clear();
            self.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse::<usize>().ok();
                } else if name.eq_ignore_ascii_case("transfer-encoding") {
                    return Err(invalid("a chunked answer (the API gives lengths)".into()));
                }
            }
        }
        let length = length.ok_or_else(|| invalid("an answer without a length".into()))?;
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        Ok(Answer { status, body })
    }

    fn read_line(&mut self, line: &mut String) -> std::io::Result<()> {
        match self.reader.read_line(line)? {
            0 => Err(std::io::ErrorKind::UnexpectedEof.into()),
            _ => Ok(()),
        }
    }
}

fn invalid(what: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what)
}
