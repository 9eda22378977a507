"""Configuration: one TOML file whose every option has a default, overridden by environment variables.

With no file at all the judge runs on the embedded default: SQLite under ./judge-data, an SMTP
listener on 127.0.0.1:2525, and outgoing mail written to a Maildir instead of a relay.
Environment variables are named JUDGE_<SECTION>_<OPTION>, e.g. JUDGE_DATABASE_URL.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import ssl
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ENV_PREFIX = "JUDGE_"
CONFIG_ENV = "JUDGE_CONFIG"


class ConfigError(ValueError):
    """The configuration names an unknown option or gives an option a value of the wrong kind."""


@dataclass
class JudgeSection:
    """Who the judge is."""

    data_dir: str = "./judge-data"
    address: str = "judge@localhost"
    name: str = "Diplomacy Judge"
    keeper: str = ""
    served_addresses: list[str] = field(default_factory=list)


@dataclass
class DatabaseSection:
    """Where the store lives; empty means SQLite in data_dir."""

    url: str = ""


@dataclass
class SmtpSection:
    """The SMTP (or LMTP) listener that takes mail from a mail server."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 2525
    lmtp: bool = False
    max_message_bytes: int = 10_485_760


@dataclass
class ImapSection:
    """The IMAP poller; it runs only when host is set."""

    host: str = ""
    port: int = 993
    ssl: bool = True
    username: str = ""
    password: str = ""
    folder: str = "INBOX"
    processed_folder: str = "Processed"
    poll_seconds: float = 60.0
    idle: bool = True
    starttls: str = "auto"
    login_without_tls: bool = False
    ca_file: str = ""  # certificates to trust instead of the system's (a private CA)
    reconnect_max_seconds: float = 10.0


@dataclass
class RelaySection:
    """The SMTP relay for outgoing mail; empty host means write mail to the Maildir instead."""

    host: str = ""
    port: int = 587
    starttls: str = "auto"
    ssl: bool = False
    username: str = ""
    password: str = ""
    timeout_seconds: float = 30.0
    login_without_tls: bool = False
    ca_file: str = ""  # certificates to trust instead of the system's (a private CA)
    reconnect_max_seconds: float = 10.0


@dataclass
class OutboundSection:
    """The sender's queue."""

    maildir: str = ""
    retry_hours: float = 120.0
    first_retry_seconds: float = 10.0
    max_retry_seconds: float = 14_400.0
    claim_seconds: float = 300.0
    poll_seconds: float = 1.0


@dataclass
class ProcessorSection:
    """The processor that reads inbox rows."""

    # Mails one sender's mail may make the judge send a day: replies, and press and notices
    # to others (judge.mail.loopguard).
    replies_per_day: int = 100
    claim_seconds: float = 300.0
    poll_seconds: float = 1.0


@dataclass
class SchedulerSection:
    """The scheduler: deadlines, reminders and late notices of the games, and housekeeping."""

    poll_seconds: float = 60.0
    keep_reply_counts_days: int = 7


@dataclass
class WebSection:
    """The read-only web pages of the games (judge/web/): off unless enabled."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass
class LogSection:
    """Logging."""

    level: str = "INFO"


@dataclass
class Config:
    """The whole configuration; `source` says where it came from, for the first log lines."""

    judge: JudgeSection = field(default_factory=JudgeSection)
    database: DatabaseSection = field(default_factory=DatabaseSection)
    smtp: SmtpSection = field(default_factory=SmtpSection)
    imap: ImapSection = field(default_factory=ImapSection)
    relay: RelaySection = field(default_factory=RelaySection)
    outbound: OutboundSection = field(default_factory=OutboundSection)
    processor: ProcessorSection = field(default_factory=ProcessorSection)
    scheduler: SchedulerSection = field(default_factory=SchedulerSection)
    web: WebSection = field(default_factory=WebSection)
    log: LogSection = field(default_factory=LogSection)
    source: str = "built-in defaults"

    @property
    def data_path(self) -> Path:
        """The data directory as a path."""
        return Path(self.judge.data_dir).expanduser()

    @property
    def database_url(self) -> str:
        """The store's URL: the configured one, else SQLite in the data directory."""
        if self.database.url:
            return self.database.url
        return f"sqlite:///{(self.data_path / 'judge.sqlite3').resolve()}"

    @property
    def maildir_path(self) -> Path:
        """Where mail goes when no relay is configured."""
        if self.outbound.maildir:
            return Path(self.outbound.maildir).expanduser()
        return self.data_path / "outbox-maildir"

    @property
    def served(self) -> list[str]:
        """The addresses the judge takes mail for (lower case); plus-addresses of them too."""
        addresses = self.judge.served_addresses or [self.judge.address]
        return [address.strip().lower() for address in addresses]

    @property
    def domain(self) -> str:
        """The domain of the judge's address, used in its Message-IDs."""
        return self.judge.address.rsplit("@", 1)[-1] or "localhost"

    def serves(self, address: str) -> bool:
        """Whether mail to `address` is for the judge (judge+anything@domain counts)."""
        address = address.strip().strip("<>").lower()
        local, _, domain = address.rpartition("@")
        base = local.split("+", 1)[0] + "@" + domain
        return address in self.served or base in self.served


# Options that take one of a few words; anything else is a mistake, not a silent default.
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("relay", "starttls"): ("auto", "always", "never"),
    ("imap", "starttls"): ("auto", "always", "never"),
}


def _sections() -> dict[str, type]:
    return {f.name: f.default_factory for f in fields(Config) if f.name != "source"}  # type: ignore[misc]


def _set(section: Any, name: str, option: str, value: Any, where: str) -> None:
    """Set one option from a TOML or environment value, converted and checked."""
    value = _convert(value, getattr(section, option), where)
    allowed = CHOICES.get((name, option))
    if allowed is not None:
        value = value.strip().lower()
        if value not in allowed:
            raise ConfigError(f"{where}: expected one of {', '.join(allowed)}, got {value!r}")
    if option == "ca_file" and value:
        _check_certificates(value, where)
    setattr(section, option, value)


def _check_certificates(path: str, where: str) -> None:
    """A `ca_file` must hold certificates TLS can load: said at start-up, not at the first login."""
    try:
        ssl.create_default_context(cafile=path)
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(f"{where}: no certificates can be read from {path!r} ({exc})") from None


def _convert(value: Any, default: Any, where: str) -> Any:
    """Coerce a TOML or environment value to the type of the option's default."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on"):
            return True
        if isinstance(value, str) and value.strip().lower() in ("0", "false", "no", "off", ""):
            return False
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    if isinstance(default, int):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: expected a whole number, got {value!r}") from None
    if isinstance(default, float):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: expected a number, got {value!r}") from None
    if isinstance(default, list):
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        if isinstance(value, list):
            return [str(item) for item in value]
        raise ConfigError(f"{where}: expected a list, got {value!r}")
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected text, got {value!r}")
    return value


log = logging.getLogger(__name__)
# Options older files name that nothing reads any more: loaded with a warning, not refused.
RETIRED = {
    ("processor", "max_attempts"): "a mail cut short by the process dying is run again in a "
    "process of its own and held only if it kills that one (judge/processor.py)",
}


def from_mapping(
    data: Mapping[str, Any], env: Mapping[str, str] | None = None, *, source: str = ""
) -> Config:
    """Build a Config from parsed TOML, then apply JUDGE_<SECTION>_<OPTION> overrides from `env`."""
    config = Config()
    sections = _sections()
    for name, values in data.items():
        if name not in sections:
            raise ConfigError(f"unknown section [{name}]")
        if not isinstance(values, Mapping):
            raise ConfigError(f"[{name}] must be a table")
        section = getattr(config, name)
        known = {f.name for f in fields(section)}
        for key, value in values.items():
            retired = RETIRED.get((name, key))
            if retired is not None:
                log.warning("[%s] %s is no longer read: %s", name, key, retired)
                continue
            if key not in known:
                raise ConfigError(f"unknown option {key!r} in [{name}]")
            _set(section, name, key, value, f"[{name}] {key}")
    overridden = []
    for key, value in (env or {}).items():
        if not key.startswith(ENV_PREFIX) or key == CONFIG_ENV:
            continue
        rest = key[len(ENV_PREFIX) :].lower()
        for name in sections:
            if rest.startswith(name + "_"):
                option = rest[len(name) + 1 :]
                section = getattr(config, name)
                if option in {f.name for f in fields(section)}:
                    _set(section, name, option, value, key)
                    overridden.append(key)
                break
    config.source = source or "built-in defaults"
    if overridden:
        config.source += " with " + ", ".join(sorted(overridden))
    return config


def load(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Load the file at `path` (or $JUDGE_CONFIG, or ./judge.toml if present), then the environment."""
    env = os.environ if env is None else env
    chosen = path or env.get(CONFIG_ENV) or None
    if chosen is None and Path("judge.toml").is_file():
        chosen = "judge.toml"
    if chosen is None:
        return from_mapping({}, env)
    file = Path(chosen).expanduser()
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"configuration file {file} not found") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{file}: {error}") from None
    return from_mapping(data, env, source=str(file))


def as_dict(config: Config) -> dict[str, dict[str, Any]]:
    """The options as nested dicts (without `source`), e.g. for comparing with a file."""
    data = dataclasses.asdict(config)
    data.pop("source", None)
    return data
