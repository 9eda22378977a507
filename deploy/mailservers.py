#!/usr/bin/env python3
"""Start and stop a private Postfix + Dovecot pair on loopback, for tests, benchmarks and demos.

Postfix takes SMTP on 127.0.0.1 (a high port, relaying impossible, `recipient_delimiter = +`) and
hands every accepted mail over LMTP to Dovecot, which stores it in Maildirs (owned by the `mail`
user, uid 8) and serves IMAP on 127.0.0.1. Config, queue, mail, logs and pid files all live in one
short temporary directory; nothing under /etc is changed and no system daemon is started.

    deploy/mailservers.py start --user judge:secret --user alice:pw [--domain example.test]
    deploy/mailservers.py stop DIR

`start` prints shell assignments (MAIL_DIR, SMTP_PORT, IMAP_PORT, LMTP_PORT, MAIL_DOMAIN). Needs
root (Dovecot delivers as uid 8, Postfix drops to its own user) and the Debian packages postfix,
dovecot-imapd and dovecot-lmtpd (deploy/install-test-packages.sh installs them).
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

MAIL_UID = 8  # Debian's `mail` user: Dovecot refuses root and low uids unless told to allow them.
MAIL_GID = 8
STATE_FILE = "servers.json"
POSTFIX_SERVICES = """\
# service type  private unpriv  chroot  wakeup  maxproc command
{listen} inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"""


@dataclass
class MailServers:
    """One private Postfix + Dovecot pair: where it lives, its ports and its mail accounts."""

    directory: Path
    domain: str
    smtp_port: int
    imap_port: int
    lmtp_port: int
    users: dict[str, str] = field(default_factory=dict)  # full address -> password
    # Extra Dovecot settings (name -> value) appended to its configuration, e.g. to measure
    # one (bench/intake_paths.py).
    dovecot_settings: dict[str, str] = field(default_factory=dict)
    # Addresses to listen on besides 127.0.0.1 (a private test network's, for judge hosts in
    # network namespaces: tests/e2e/test_two_hosts.py).
    also_listen: list[str] = field(default_factory=list)

    @property
    def listen_addresses(self) -> str:
        return ", ".join(["127.0.0.1", *self.also_listen])

    # --- layout -------------------------------------------------------------------------------
    @property
    def postfix_config(self) -> Path:
        return self.directory / "postfix"

    @property
    def dovecot_config(self) -> Path:
        return self.directory / "dovecot.conf"

    @property
    def postfix_log(self) -> Path:
        return self.directory / "log" / "postfix.log"

    @property
    def dovecot_log(self) -> Path:
        return self.directory / "log" / "dovecot.log"

    def maildir(self, address: str) -> Path:
        """The Maildir of one account (Dovecot creates it on first delivery or login)."""
        return self.directory / "mail" / address / "Maildir"

    def address(self, user: str) -> str:
        """A full address for a bare user name in this domain."""
        return user if "@" in user else f"{user}@{self.domain}"

    # --- life cycle ---------------------------------------------------------------------------
    def write_config(self) -> None:
        """Write both servers' configuration files into the directory."""
        for sub in ("log", "run", "state", "mail", "spool", "data", "postfix"):
            (self.directory / sub).mkdir(exist_ok=True)
        os.chmod(self.directory, 0o711)
        os.chown(self.directory / "mail", MAIL_UID, MAIL_GID)
        os.chmod(self.directory / "mail", 0o750)
        # Postfix's master takes its lock in data_directory as the postfix user.
        pw = pwd.getpwnam("postfix")
        os.chown(self.directory / "data", pw.pw_uid, pw.pw_gid)
        self._write_dovecot_config()
        self._write_postfix_config()
        (self.directory / STATE_FILE).write_text(json.dumps(self.to_json(), indent=2))

    def start(self) -> None:
        """Start Dovecot, then Postfix, and wait until each answers on its ports."""
        self.start_dovecot()
        self.start_postfix()

    def stop(self, drain_seconds: float = 10.0) -> None:
        """Let Postfix's queue drain (bounded), then stop Postfix, then Dovecot."""
        if self.postfix_running():
            self.wait_queue_empty(drain_seconds)
        self.stop_postfix()
        self.stop_dovecot()

    def start_dovecot(self) -> None:
        """Start Dovecot's master with a fresh run directory (stale sockets slow logins down)."""
        run = self.directory / "run" / "dovecot"
        shutil.rmtree(run, ignore_errors=True)
        with open(self.dovecot_log, "ab") as log:
            # Dovecot's master keeps the stderr it was given for its whole life: give it the log.
            subprocess.run(
                ["dovecot", "-c", str(self.dovecot_config)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                check=True,
            )
        _wait_port(self.imap_port, "Dovecot IMAP", self.dovecot_log)
        _wait_port(self.lmtp_port, "Dovecot LMTP", self.dovecot_log)

    def start_postfix(self) -> None:
        """Start Postfix's master and wait for its SMTP listener."""
        with open(self.postfix_log, "ab") as log:
            subprocess.run(
                ["postfix", "-c", str(self.postfix_config), "start"],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                check=True,
            )
        _wait_port(self.smtp_port, "Postfix SMTP", self.postfix_log)

    def stop_postfix(self) -> None:
        """Stop Postfix by the pid in its own pid file and wait until the port is closed."""
        pid = _read_pid(self.directory / "spool" / "pid" / "master.pid")
        if pid is None:
            return
        # SIGTERM to the master is what `postfix stop` sends, without its second of polling.
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        _wait_gone(pid)
        _wait_port_closed(self.smtp_port)

    def stop_dovecot(self) -> None:
        """Stop Dovecot's master (SIGTERM by its pid file) and wait until it is gone."""
        pid = _read_pid(self.directory / "run" / "dovecot" / "master.pid")
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        _wait_gone(pid)

    def reconfigure_dovecot(self, settings: dict[str, str]) -> None:
        """Restart Dovecot with these extra settings (replacing any given before)."""
        self.dovecot_settings = dict(settings)
        self._write_dovecot_config()
        (self.directory / STATE_FILE).write_text(json.dumps(self.to_json(), indent=2))
        self.stop_dovecot()
        self.start_dovecot()

    def route(self, address: str, nexthop: str | None) -> None:
        """Deliver mail for one account somewhere else, e.g. `lmtp:inet:127.0.0.1:PORT` to hand
        it to the judge's own LMTP listener; None puts it back in its Dovecot mailbox.

        Postfix is restarted rather than reloaded, since a reload reaches its long-lived
        processes only some time later; mail already queued stays queued and takes the new route.
        """
        table = self.postfix_config / "transport"
        routes = dict(
            line.split(None, 1) for line in table.read_text().splitlines() if line.strip()
        )
        if nexthop is None:
            routes.pop(address, None)
        else:
            routes[address] = nexthop
        table.write_text("".join(f"{a} {hop}\n" for a, hop in routes.items()))
        if self.postfix_running():
            self.stop_postfix()
            self.start_postfix()

    def postfix_running(self) -> bool:
        return _read_pid(self.directory / "spool" / "pid" / "master.pid") is not None

    def queue_size(self) -> int:
        """Mails still in Postfix's queue (deferred or active), counted from the queue files."""
        count = 0
        for sub in ("incoming", "active", "deferred", "hold", "maildrop"):
            base = self.directory / "spool" / sub
            if base.exists():
                count += sum(1 for p in base.rglob("*") if p.is_file())
        return count

    def wait_queue_empty(self, timeout: float) -> bool:
        """Ask Postfix to flush and wait (bounded) for the queue to empty."""
        subprocess.run(
            ["postqueue", "-c", str(self.postfix_config), "-f"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.queue_size() == 0:
                return True
            time.sleep(0.1)
        return False

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["directory"] = str(self.directory)
        return data

    @classmethod
    def load(cls, directory: Path) -> MailServers:
        """Read back the pair that `start` wrote into a directory."""
        data = json.loads((directory / STATE_FILE).read_text())
        data["directory"] = Path(data["directory"])
        return cls(**data)

    # --- configuration files ------------------------------------------------------------------
    def _write_dovecot_config(self) -> None:
        d = self.directory
        users = d / "dovecot-users"
        lines = []
        for address, password in self.users.items():
            home = d / "mail" / address
            lines.append(f"{address}:{{PLAIN}}{password}:{MAIL_UID}:{MAIL_GID}::{home}::")
        users.write_text("\n".join(lines) + "\n")
        # Dovecot's auth process reads the users file as the dovecot user, never as root.
        os.chown(users, 0, grp.getgrnam("dovecot").gr_gid)
        os.chmod(users, 0o640)
        config = f"""\
base_dir = {d}/run/dovecot
state_dir = {d}/state
instance_name = {d.name}
listen = {self.listen_addresses}
protocols = imap lmtp
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = {self.dovecot_log}
info_log_path = {self.dovecot_log}
first_valid_uid = {MAIL_UID}
last_valid_uid = {MAIL_UID}
first_valid_gid = {MAIL_GID}
last_valid_gid = {MAIL_GID}
mail_location = maildir:~/Maildir
mail_max_userip_connections = 500
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
postmaster_address = postmaster@{self.domain}
hostname = mail.{self.domain}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {users}
}}
userdb {{
  driver = passwd-file
  args = {users}
}}
service imap-login {{
  inet_listener imap {{
    address = {self.listen_addresses}
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = {self.listen_addresses}
    port = {self.lmtp_port}
  }}
}}
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
namespace inbox {{
  inbox = yes
  separator = /
}}
"""
        config += "".join(f"{name} = {value}\n" for name, value in self.dovecot_settings.items())
        self.dovecot_config.write_text(config)

    def _write_postfix_config(self) -> None:
        d = self.directory
        etc = self.postfix_config
        recipients = etc / "recipients"
        recipients.write_text("".join(f"{a} ok\n" for a in self.users))
        (etc / "transport").touch()
        main = f"""\
compatibility_level = 3.6
config_directory = {etc}
queue_directory = {d}/spool
data_directory = {d}/data
mail_owner = postfix
setgid_group = postdrop
syslog_name = postfix-{d.name}
maillog_file = {self.postfix_log}
maillog_file_prefixes = {d}
myhostname = mail.{self.domain}
mydomain = {self.domain}
myorigin = {self.domain}
mydestination =
inet_interfaces = {self.listen_addresses}
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = reject_unauth_destination
smtpd_recipient_restrictions =
smtpd_banner = $myhostname ESMTP
virtual_mailbox_domains = {self.domain}
virtual_mailbox_maps = texthash:{recipients}
virtual_transport = lmtp:inet:127.0.0.1:{self.lmtp_port}
transport_maps = texthash:{etc / "transport"}
default_transport = error:relaying is disabled here
relay_transport = error:relaying is disabled here
local_transport = error:local delivery is disabled here
recipient_delimiter = +
alias_maps =
alias_database =
smtp_dns_support_level = disabled
lmtp_host_lookup = native
biff = no
message_size_limit = 52428800
mailbox_size_limit = 0
queue_run_delay = 2s
minimal_backoff_time = 2s
maximal_backoff_time = 10s
lmtp_destination_concurrency_limit = 10
smtpd_client_connection_count_limit = 0
smtpd_client_connection_rate_limit = 0
smtpd_client_message_rate_limit = 0
smtpd_client_recipient_rate_limit = 0
anvil_rate_time_unit = 60s
"""
        (etc / "main.cf").write_text(main)
        (etc / "master.cf").write_text(
            POSTFIX_SERVICES.format(
                listen=f"127.0.0.1:{self.smtp_port}" if not self.also_listen else self.smtp_port
            )
        )
        # Postfix waits for a freshly written main.cf to "settle" (2 s per command): age the files.
        past = time.time() - 10
        for path in (etc / "main.cf", etc / "master.cf", recipients, etc / "transport"):
            os.utime(path, (past, past))


def create(
    users: dict[str, str],
    domain: str = "example.test",
    directory: Path | None = None,
    also_listen: tuple[str, ...] = (),
) -> MailServers:
    """Choose free ports, make the directory and write the configuration (nothing started yet);
    both servers listen on 127.0.0.1 and on the addresses in `also_listen`."""
    if directory is None:
        # Unix socket paths must stay under 108 bytes: keep the directory short, right under /tmp.
        directory = Path(tempfile.mkdtemp(prefix="jm", dir="/tmp"))
    directory.mkdir(parents=True, exist_ok=True)
    smtp, imap, lmtp = _free_ports(3)
    servers = MailServers(
        directory=directory,
        domain=domain,
        smtp_port=smtp,
        imap_port=imap,
        lmtp_port=lmtp,
        users={(u if "@" in u else f"{u}@{domain}"): pw for u, pw in users.items()},
        also_listen=list(also_listen),
    )
    servers.write_config()
    return servers


def missing_requirements() -> str | None:
    """Why this machine cannot run the pair (None when it can): for tests to skip cleanly."""
    if os.geteuid() != 0:
        return "the private mail servers need root"
    for program in ("postfix", "dovecot", "postqueue"):
        if shutil.which(program) is None:
            return f"{program} is not installed (deploy/install-test-packages.sh)"
    for command in (["dovecot", "--version"],):
        if subprocess.run(command, capture_output=True, check=False).returncode != 0:
            return f"{command[0]} does not run"
    try:
        lmtp = subprocess.run(["dpkg-query", "-W", "dovecot-lmtpd"], capture_output=True)
    except FileNotFoundError:
        return None
    if lmtp.returncode != 0:
        return "dovecot-lmtpd is not installed (deploy/install-test-packages.sh)"
    return None


# --- small helpers ----------------------------------------------------------------------------
def _free_ports(count: int) -> list[int]:
    """Ports the kernel just handed out (held open together so that they differ)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _read_pid(path: Path) -> int | None:
    """The pid in a pid file, if that process is alive."""
    try:
        pid = int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid
    return pid


def _wait_port(port: int, what: str, log: Path, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
    raise RuntimeError(f"{what} did not open port {port} within {timeout} s; log:\n{tail}")


def _wait_port_closed(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                pass
        except OSError:
            return
        time.sleep(0.05)


def _wait_gone(pid: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _parse_user(text: str) -> tuple[str, str]:
    user, sep, password = text.partition(":")
    if not sep or not user or not password:
        raise argparse.ArgumentTypeError("users are given as NAME:PASSWORD")
    return user, password


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    start = sub.add_parser("start", help="write the config and start both servers")
    start.add_argument(
        "--user",
        action="append",
        type=_parse_user,
        required=True,
        help="an account as NAME:PASSWORD (NAME without @ gets the domain)",
    )
    start.add_argument("--domain", default="example.test")
    start.add_argument("--dir", type=Path, help="directory to use (default: a new one in /tmp)")
    start.add_argument(
        "--listen",
        action="append",
        default=[],
        help="also listen on this address (repeatable), e.g. a private test network's",
    )
    stop = sub.add_parser("stop", help="drain the queue, stop both servers")
    stop.add_argument("dir", type=Path)
    stop.add_argument("--remove", action="store_true", help="delete the directory afterwards")
    args = parser.parse_args(argv)

    if args.command == "start":
        problem = missing_requirements()
        if problem:
            print(problem, file=sys.stderr)
            return 1
        servers = create(dict(args.user), args.domain, args.dir, tuple(args.listen))
        servers.start()
        print(f"MAIL_DIR={servers.directory}")
        print(f"MAIL_DOMAIN={servers.domain}")
        print(f"SMTP_PORT={servers.smtp_port}")
        print(f"IMAP_PORT={servers.imap_port}")
        print(f"LMTP_PORT={servers.lmtp_port}")
        return 0
    servers = MailServers.load(args.dir)
    servers.stop()
    if args.remove:
        shutil.rmtree(servers.directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
