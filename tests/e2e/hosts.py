"""Test hosts on one machine: network namespaces joined by a bridge, as machines on a LAN.

Each host is a network namespace with its own loopback and one address on a private network
(link-local 169.254.N.0/24, a network this machine never routes anywhere); the machine itself
is the network's gateway address on the bridge, where the shared servers (PostgreSQL, the mail
server) listen besides loopback. A process run with `ip netns exec HOST` sees only its host's
network: what it reaches, it reaches over the bridge, as from another machine. Needs root.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field


class NetworkUnavailable(RuntimeError):
    """This machine cannot make network namespaces (no root, no `ip`, no kernel support)."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


@dataclass
class HostNetwork:
    """A bridge with `hosts` namespaces on it; `create()`, then `remove()` (also after a crash)."""

    hosts: int = 2
    tag: str = field(default_factory=lambda: f"j{os.getpid() % 100000}")
    octet: int = 0
    made: list[str] = field(default_factory=list)

    @property
    def bridge(self) -> str:
        return f"{self.tag}br"

    @property
    def gateway(self) -> str:
        """The machine's own address on the network, where the shared servers listen."""
        return f"169.254.{self.octet}.1"

    @property
    def network(self) -> str:
        return f"169.254.{self.octet}.0/24"

    def name(self, host: int) -> str:
        return f"{self.tag}h{host}"

    def address(self, host: int) -> str:
        return f"169.254.{self.octet}.{host + 2}"

    def prefix(self, host: int) -> list[str]:
        """What runs a command on the host."""
        return ["ip", "netns", "exec", self.name(host)]

    def create(self) -> None:
        if os.geteuid() != 0 or shutil.which("ip") is None:
            raise NetworkUnavailable("network namespaces need root and iproute2's `ip`")
        self.remove()  # what a run killed before its clean-up left under the same names
        self.octet = self._free_octet()
        try:
            _ip("link", "add", self.bridge, "type", "bridge")
            self.made.append(self.bridge)
            _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
            _ip("link", "set", self.bridge, "up")
            for host in range(self.hosts):
                name = self.name(host)
                _ip("netns", "add", name)
                self.made.append(name)
                outside = f"{self.tag}v{host}"
                _ip("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", name)
                _ip("link", "set", outside, "master", self.bridge)
                _ip("link", "set", outside, "up")
                _ip("-n", name, "addr", "add", f"{self.address(host)}/24", "dev", "eth0")
                _ip("-n", name, "link", "set", "eth0", "up")
                _ip("-n", name, "link", "set", "lo", "up")
        except subprocess.CalledProcessError as error:
            self.remove()
            raise NetworkUnavailable(f"{' '.join(error.cmd)}: {error.stderr.strip()}") from error

    def remove(self) -> None:
        """Delete the namespaces (their veth ends go with them) and the bridge."""
        for host in range(self.hosts):
            _ip("netns", "delete", self.name(host), check=False)
            # Gone with its namespace, unless a process still runs in there.
            _ip("link", "delete", f"{self.tag}v{host}", check=False)
        _ip("link", "delete", self.bridge, check=False)
        self.made.clear()

    def _free_octet(self) -> int:
        """A 169.254.N.0/24 that no interface of this machine uses (other test runs included)."""
        used = _ip("-o", "-4", "addr", "show").stdout
        start = 20 + os.getpid() % 200
        for step in range(230):
            octet = 20 + (start - 20 + step) % 230
            if f" 169.254.{octet}." not in used:
                return octet
        raise NetworkUnavailable("no free 169.254.N.0/24 network")
