//! A minimal HTTP/1.1 client over one kept-alive `TcpStream`, for `bench` and
//! for the CLI on a store that `serve` holds (see `remote`).
//!
//! It speaks just enough HTTP to drive our own API: JSON requests with a
//! Content-Length, responses with a Content-Length or chunked bodies. It is not
//! a general client (no TLS, no redirects) and pulls in no HTTP crate.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// One kept-alive connection.
pub struct Client {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
}

/// A response's status and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Client {
    pub fn connect(addr: SocketAddr) -> io::Result<Client> {
        let stream = TcpStream::connect(addr)?;
        Client::over(addr, stream, Some(Duration::from_secs(30)))
    }

    /// Connects within `connect_timeout`, then waits for each answer as long
    /// as `read_timeout` says (forever when `None`: a long verify or import).
    pub fn connect_within(
        addr: SocketAddr,
        connect_timeout: Duration,
        read_timeout: Option<Duration>,
    ) -> io::Result<Client> {
        let stream = TcpStream::connect_timeout(&addr, connect_timeout)?;
        Client::over(addr, stream, read_timeout)
    }

    fn over(
        addr: SocketAddr,
        stream: TcpStream,
        read_timeout: Option<Duration>,
    ) -> io::Result<Client> {
        stream.set_nodelay(true)?;
        stream.set_read_timeout(read_timeout)?;
        Ok(Client {
            addr,
            reader: BufReader::new(stream),
        })
    }

    /// Sends one request and reads its whole response.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&[u8]>,
    ) -> io::Result<Response> {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: keep-alive\r\n",
            self.addr
        );
        if let Some(token) = token {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        let body = body.unwrap_or_default();
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        // One write per request, so the request leaves in as few segments as possible.
        let mut request = head.into_bytes();
        request.extend_from_slice(body);
        let stream = self.reader.get_mut();
        stream.write_all(&request)?;
        stream.flush()?;
        read_response(&mut self.reader)
    }
}

fn bad(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.into())
}

/// Reads one response: status line, headers, then the body as framed.
pub fn read_response(reader: &mut impl BufRead) -> io::Result<Response> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed the connection",
        ));
    }
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| bad(format!("not an HTTP status line: {line:?}")))?;
    let mut length: Option<usize> = None;
    let mut chunked = false;
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                length = Some(
                    value
                        .parse()
                        .map_err(|_| bad(format!("bad Content-Length {value:?}")))?,
                );
            } else if name.eq_ignore_ascii_case("transfer-encoding")
                && value.eq_ignore_ascii_case("chunked")
            {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size_text = line.trim().split(';').next().unwrap_or_default();
            let size = usize::from_str_radix(size_text, 16)
                .map_err(|_| bad(format!("bad chunk size {size_text:?}")))?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                // The last chunk's CRLF was already read; trailers are not used by our API.
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    }
    Ok(Response { status, body })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_content_length_and_chunked_bodies() {
        let raw = b"HTTP/1.1 201 Created\r\ncontent-length: 7\r\ncontent-type: application/json\r\n\r\n{\"a\":1}HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        let mut reader = BufReader::new(&raw[..]);
        let first = read_response(&mut reader).unwrap();
        assert_eq!(
            (first.status, first.body.as_slice()),
            (201, &b"{\"a\":1}"[..])
        );
        let second = read_response(&mut reader).unwrap();
        assert_eq!(
            (second.status, second.body.as_slice()),
            (200, &b"abcde"[..])
        );
        assert!(read_response(&mut reader).is_err());
    }
}
