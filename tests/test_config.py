"""Configuration: documented defaults, the file, and environment overrides."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from judge.config import Config, ConfigError, as_dict, from_mapping, load

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "judge.example.toml"


def test_example_file_documents_every_option_with_its_default() -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert data == as_dict(Config())
    text = EXAMPLE.read_text(encoding="utf-8")
    for section in fields(Config):
        if section.name == "source":
            continue
        for option in fields(section.default_factory()):  # type: ignore[misc]
            # Each option is preceded by a comment line somewhere in its section.
            assert re.search(rf"^{option.name} = ", text, re.MULTILINE), option.name


def test_no_file_gives_the_embedded_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = load(None, env={})
    assert config.source == "built-in defaults"
    assert config.database_url == f"sqlite:///{tmp_path / 'judge-data' / 'judge.sqlite3'}"
    assert (config.smtp.host, config.smtp.port) == ("127.0.0.1", 2525)
    assert config.relay.host == ""
    assert config.maildir_path == Path("judge-data") / "outbox-maildir"


def test_file_then_environment(tmp_path: Path) -> None:
    path = tmp_path / "judge.toml"
    path.write_text('[judge]\naddress = "dip@example.org"\n[smtp]\nport = 2626\n', encoding="utf-8")
    env = {
        "JUDGE_SMTP_PORT": "2727",
        "JUDGE_RELAY_PASSWORD": "s3cret",
        "JUDGE_SMTP_LMTP": "yes",
        "JUDGE_JUDGE_SERVED_ADDRESSES": "a@x, b@x",
        "JUDGE_PROCESSOR_CLAIM_SECONDS": "2.5",
        "OTHER": "ignored",
    }
    config = load(path, env=env)
    assert config.judge.address == "dip@example.org"
    assert config.smtp.port == 2727
    assert config.smtp.lmtp is True
    assert config.relay.password == "s3cret"
    assert config.judge.served_addresses == ["a@x", "b@x"]
    assert config.processor.claim_seconds == 2.5
    assert str(path) in config.source and "JUDGE_SMTP_PORT" in config.source


def test_config_env_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "other.toml"
    path.write_text('[log]\nlevel = "DEBUG"\n', encoding="utf-8")
    assert load(None, env={"JUDGE_CONFIG": str(path)}).log.level == "DEBUG"


@pytest.mark.parametrize(
    "data",
    [
        {"nonsense": {}},
        {"smtp": {"prot": 25}},
        {"smtp": {"port": "many"}},
        {"smtp": {"enabled": "perhaps"}},
        {"judge": {"address": 5}},
    ],
)
def test_mistakes_are_reported(data: dict) -> None:
    with pytest.raises(ConfigError):
        from_mapping(data)


def test_a_retired_option_loads_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    """[processor] max_attempts is read by nothing now: an older file naming it still loads,
    and the log says the option is no longer read and why."""
    with caplog.at_level("WARNING"):
        config = from_mapping({"processor": {"max_attempts": 3, "replies_per_day": 7}})
    assert config.processor.replies_per_day == 7
    assert not hasattr(config.processor, "max_attempts")
    assert "[processor] max_attempts is no longer read" in caplog.text


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load(tmp_path / "absent.toml", env={})


def test_served_addresses_include_plus_addresses() -> None:
    config = from_mapping({"judge": {"address": "Judge@Example.org"}})
    assert config.serves("judge@example.org")
    assert config.serves("<judge+game7@example.org>")
    assert not config.serves("someone@example.org")
    assert config.domain == "Example.org"


def test_the_mail_connections_tls_and_reconnect_options() -> None:
    config = from_mapping(
        {
            "imap": {"starttls": "Always", "login_without_tls": True, "reconnect_max_seconds": 5},
            "relay": {"starttls": "never", "login_without_tls": True, "reconnect_max_seconds": 3},
        },
        env={"JUDGE_IMAP_STARTTLS": "never"},
    )
    assert (config.imap.starttls, config.imap.login_without_tls) == ("never", True)
    assert config.imap.reconnect_max_seconds == 5.0
    assert (config.relay.starttls, config.relay.login_without_tls) == ("never", True)
    assert config.relay.reconnect_max_seconds == 3.0
    defaults = Config()
    assert (defaults.imap.starttls, defaults.relay.starttls) == ("auto", "auto")
    assert not defaults.imap.login_without_tls and not defaults.relay.login_without_tls
    for section in ("imap", "relay"):
        with pytest.raises(ConfigError, match="expected one of auto, always, never, got 'yes'"):
            from_mapping({section: {"starttls": "yes"}})
        with pytest.raises(ConfigError, match="JUDGE_.*expected one of"):
            from_mapping({}, env={f"JUDGE_{section.upper()}_STARTTLS": "on"})


def test_a_ca_file_must_hold_certificates(tmp_path: Path) -> None:
    for section in ("imap", "relay"):
        with pytest.raises(ConfigError, match=r"ca_file.*no certificates can be read from"):
            from_mapping({section: {"ca_file": str(tmp_path / "absent.pem")}})
        junk = tmp_path / "junk.pem"
        junk.write_text("not a certificate\n")
        with pytest.raises(ConfigError, match="no certificates can be read"):
            from_mapping({section: {"ca_file": str(junk)}})
    system = "/etc/ssl/certs/ca-certificates.crt"
    if Path(system).exists():
        assert from_mapping({"imap": {"ca_file": system}}).imap.ca_file == system
