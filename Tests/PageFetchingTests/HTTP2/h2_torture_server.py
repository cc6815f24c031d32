#!/usr/bin/env python3
"""An HTTP/2 server over TLS (ALPN "h2") that misbehaves on purpose, for HTTP2TortureTests.

Usage: h2_torture_server.py CERT KEY PORT CASE

It listens on 127.0.0.1:PORT and answers every request on every connection as CASE says
(HTTP2TortureTests has the table). Frames are written by hand (RFC 9113), header blocks as HPACK
literals without indexing or Huffman coding (RFC 7541 §6.2.2), so only the standard library is
needed. The client's frames are read and dropped, except that the first HEADERS frame's stream
is the one answered. Runs until killed.
"""
import socket
import ssl
import struct
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, CONTINUATION = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x9
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
PAGE = b"<!doctype html><html><head><title>Over HTTP/2</title></head><body>h2</body></html>"


def frame(kind: int, flags: int, stream: int, payload: bytes, length: int | None = None) -> bytes:
    size = len(payload) if length is None else length
    return struct.pack(">I", size)[1:] + bytes([kind, flags]) + struct.pack(">I", stream & 0x7FFFFFFF) + payload


def integer(value: int, prefix_bits: int) -> bytes:
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([value])
    out = [limit]
    value -= limit
    while value >= 128:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def literal(name: bytes, value: bytes) -> bytes:
    """A header field as a literal without indexing, new name, no Huffman coding."""
    return b"\x00" + integer(len(name), 7) + name + integer(len(value), 7) + value


def block(headers: list[tuple[bytes, bytes]]) -> bytes:
    return b"".join(literal(name, value) for name, value in headers)


def read_exactly(conn, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def read_frame(conn):
    header = read_exactly(conn, 9)
    length = int.from_bytes(header[:3], "big")
    kind, flags = header[3], header[4]
    stream = int.from_bytes(header[5:9], "big") & 0x7FFFFFFF
    return kind, flags, stream, read_exactly(conn, length)


def request_stream(conn) -> int:
    """Reads the client's preface and frames up to its first HEADERS; acknowledges its SETTINGS."""
    if read_exactly(conn, len(PREFACE)) != PREFACE:
        raise ConnectionError("no preface")
    while True:
        kind, flags, stream, _ = read_frame(conn)
        if kind == SETTINGS and not flags & ACK:
            conn.sendall(frame(SETTINGS, ACK, 0, b""))
        if kind == HEADERS:
            return stream


def drain(conn) -> None:
    """Reads and drops what the client sends until it closes."""
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass


def serve(conn, case: str) -> None:
    if case == "silent":
        # ALPN said h2; not even the server's SETTINGS follow.
        drain(conn)
        return
    if case == "garbage":
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi" * 4)
        drain(conn)
        return
    conn.sendall(frame(SETTINGS, 0, 0, b""))
    stream = request_stream(conn)
    ok = block([(b":status", b"200"), (b"content-type", b"text/html")])
    if case == "ok":
        conn.sendall(frame(HEADERS, END_HEADERS, stream, ok) + frame(DATA, END_STREAM, stream, PAGE))
    elif case == "continuation-flood":
        # One header block that never ends: CONTINUATION frames of 16 KiB of new headers each.
        conn.sendall(frame(HEADERS, 0, stream, ok))
        filler = block([(b"x-flood-%d" % index, b"v" * 1000) for index in range(15)])
        while True:
            conn.sendall(frame(CONTINUATION, 0, stream, filler))
    elif case == "endless-data":
        conn.sendall(frame(HEADERS, END_HEADERS, stream, ok))
        chunk = frame(DATA, 0, stream, b" " * 16384)
        while True:
            conn.sendall(chunk)
    elif case == "reset-mid-body":
        conn.sendall(frame(HEADERS, END_HEADERS, stream, ok) + frame(DATA, 0, stream, PAGE[:40]))
        conn.sendall(frame(RST_STREAM, 0, stream, struct.pack(">I", 0x2)))  # INTERNAL_ERROR
    elif case == "goaway":
        conn.sendall(frame(GOAWAY, 0, 0, struct.pack(">II", 0, 0x1)))  # PROTOCOL_ERROR, no stream
    elif case == "oversized-frame":
        # A frame header announcing 16 MiB, over the 16 KiB SETTINGS_MAX_FRAME_SIZE default.
        conn.sendall(frame(HEADERS, END_HEADERS, stream, ok) + frame(DATA, 0, stream, b"", length=(1 << 24) - 1))
    elif case == "bad-hpack":
        # An indexed header field naming entry 2000 of an empty dynamic table.
        index = integer(2000, 7)
        field = bytes([index[0] | 0x80]) + index[1:]
        conn.sendall(frame(HEADERS, END_HEADERS | END_STREAM, stream, b"\x88" + field))
    elif case == "stalled-window":
        # Headers, then nothing: the body never comes.
        conn.sendall(frame(HEADERS, END_HEADERS, stream, ok))
    drain(conn)


def main() -> None:
    cert, key, port, case = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)

    def handle(raw) -> None:
        try:
            with context.wrap_socket(raw, server_side=True) as conn:
                serve(conn, case)
        except (OSError, ConnectionError, ssl.SSLError):
            pass
        finally:
            raw.close()

    while True:
        raw, _ = listener.accept()
        threading.Thread(target=handle, args=(raw,), daemon=True).start()


if __name__ == "__main__":
    main()
