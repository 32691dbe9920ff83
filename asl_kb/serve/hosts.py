"""The names a request may give `asl-kb serve` (its Host header), from the
address it listens on: this machine's own names on loopback; every
interface refused (the server has no authentication); another address or
name only itself, with a warning."""

from __future__ import annotations

import ipaddress

#: the names of this machine a request may give a server bound to loopback
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def allowed_hosts(host: str) -> tuple[tuple[str, ...], str | None, str | None]:
    """The Host names a request may give a server listening on `host`, and
    why `host` is refused (None: it is not), and what to warn of. On this
    machine (a loopback address, `localhost`): its own names. Every
    interface (0.0.0.0, ::) is refused: the server has no authentication.
    Another address or name is the user's choice of a network: only that
    name, with a warning."""
    bare = host.strip("[]")
    if bare == "localhost":
        return LOCAL_NAMES, None, None
    try:
        ip = ipaddress.ip_address(bare)
    except ValueError:
        ip = None
    if ip is not None and ip.is_unspecified:
        return (), "every network interface: the server has no authentication (name one address)", None
    named = (bare, f"[{bare}]") if ip is not None and ip.version == 6 else (bare,)
    if ip is not None and ip.is_loopback:
        return tuple(dict.fromkeys(LOCAL_NAMES + named)), None, None
    return named, None, f"open to every machine that reaches {bare}: the server has no authentication"
