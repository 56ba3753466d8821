"""Killing one TCP connection from outside the process, as a flaky Wi-Fi does: `ss -K`.

`ss -K` asks the kernel (SOCK_DESTROY over inet_diag) to abort matching sockets: the socket's
owner gets ECONNABORTED, its peer a RST. It needs CONFIG_INET_DIAG_DESTROY in the kernel and
CAP_NET_ADMIN (root); without either it exits 0 and kills nothing, so the helpers check.
"""

from __future__ import annotations

import shutil
import socket
import subprocess


def _filter(server_port: int, client_port: int) -> list[str]:
    return ["dst", "127.0.0.1", "dport", "=", f":{server_port}", "sport", "=", f":{client_port}"]


def kill_connection(server_port: int, client_port: int) -> list[str]:
    """Abort the loopback connection 127.0.0.1:client_port -> 127.0.0.1:server_port (the client's
    end); returns the sockets `ss` reports killed (raises if none)."""
    done = subprocess.run(["ss", "-K", "-tnH", *_filter(server_port, client_port)], capture_output=True, text=True, timeout=10, check=False)
    killed = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not killed:
        raise RuntimeError(f"ss -K killed nothing (exit {done.returncode}): {done.stderr.strip() or done.stdout.strip()!r}")
    return killed


def ss_kill_unavailable() -> str | None:
    """Why `ss -K` cannot kill a loopback connection here, or None if it can (tried on a pair of
    sockets of our own)."""
    if shutil.which("ss") is None:
        return "no `ss` (iproute2) on PATH"
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
        with client, server:
            try:
                kill_connection(listener.getsockname()[1], client.getsockname()[1])
            except RuntimeError as exc:
                return f"{exc} (needs root/CAP_NET_ADMIN and a kernel with CONFIG_INET_DIAG_DESTROY)"
            server.settimeout(5)
            try:
                data = server.recv(1)
            except ConnectionResetError:
                return None
            return f"ss -K reported a kill but the peer still reads {data!r}"
