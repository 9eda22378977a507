"""When the judge may send a password: over TLS, or in clear only to a server on this machine's
loopback and only where the operator said so. Shared by the relay and the IMAP poller, so both
refuse the same way and say why in the same words.
"""

from __future__ import annotations

import ipaddress
import ssl


def is_loopback(address: str) -> bool:
    """Whether an IP address (as a socket's peer gives it) is this machine's loopback."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def clear_login_refusal(
    peer: str, *, allowed: bool, section: str, unencrypted_because: str
) -> str | None:
    """Why a login over an unencrypted connection to `peer` (the socket's peer address) must
    not happen, or None when it may: `allowed` is the section's `login_without_tls` option, and
    `unencrypted_because` says why the connection has no TLS ("it offers no STARTTLS"). The
    caller's log line names the server.
    """
    if allowed and is_loopback(peer):
        return None
    if allowed:
        return (
            f"not logging in: the connection is not encrypted ({unencrypted_because}) and "
            f"{peer} is not on loopback ([{section}] login_without_tls is honoured only there)"
        )
    return (
        f"not logging in: the connection is not encrypted ({unencrypted_because}) and the "
        f"password is never sent in clear; give the server TLS, or for a server on loopback "
        f"set [{section}] login_without_tls = true"
    )


def trusting(ca_file: str) -> ssl.SSLContext | None:
    """The TLS context that trusts the certificates in `ca_file` (a section's `ca_file`: a
    server with a private CA's certificate), or None for the system's own trust store."""
    return ssl.create_default_context(cafile=ca_file) if ca_file else None
