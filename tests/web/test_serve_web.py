"""The pages in `judge serve` (off by default, on with `[web] enabled`), the GM's SET WEB by
mail, and what a request costs: one read of the store, a page built again only when what it
shows has changed, a processed phase's page built once."""

from __future__ import annotations

import smtplib
import socket
import urllib.error
import urllib.request
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event

from judge.config import from_mapping
from judge.language import command_values as cv
from judge.language.commands import read_mail_commands
from judge.serve import Daemon, ServeError, describe
from judge.web.site import Site
from tests.test_serve import free_port, wait_for
from tests.web import scripted
from tests.web.conftest import make_site

mail = scripted.mail  # tests/desk's games by mail
engine = mail.engine  # the desk's store with the clock set, as a fixture here too


def _config(tmp_path: Path, web: dict[str, Any]) -> Any:
    return from_mapping(
        {
            "judge": {"data_dir": str(tmp_path / "data"), "address": "judge@example.org"},
            "smtp": {"port": free_port()},
            "processor": {"poll_seconds": 0.2},
            "outbound": {"poll_seconds": 0.2},
            "web": web,
        }
    )


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_the_pages_are_off_unless_enabled(tmp_path: Path) -> None:
    config = _config(tmp_path, {})
    assert config.web.enabled is False
    port = config.web.port
    daemon = Daemon(config)
    daemon.start()
    try:
        assert daemon.web is None
        assert not any(line.startswith("web:") for line in describe(config, daemon.roles))
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    finally:
        daemon.stop()


def test_judge_serve_shows_a_game_created_by_mail(tmp_path: Path) -> None:
    port = free_port()
    config = _config(tmp_path, {"enabled": True, "port": port})
    daemon = Daemon(config)
    daemon.start()
    try:
        assert any(f"127.0.0.1:{port}" in line for line in describe(config, daemon.roles))
        status, body = _get(port, "/")
        assert status == 200 and "There are no games" in body
        message = EmailMessage()
        message["From"] = "gm@example.org"
        message["To"] = "judge@example.org"
        message["Subject"] = "new game"
        message["Message-ID"] = "<web1@example.org>"
        message.set_content("CREATE webgame secretpw standard")
        with smtplib.SMTP("127.0.0.1", config.smtp.port, timeout=10) as client:
            client.send_message(message)
        wait_for(lambda: "webgame" in _get(port, "/")[1], "the game on the list")
        status, body = _get(port, "/games/webgame")
        assert status == 200 and "<h1>webgame</h1>" in body
        assert "secretpw" not in body and "gm@example.org" not in body
        status, _ = _get(port, "/games/nosuch")
        assert status == 404
        # Asked again with the page's ETag: 304, nothing sent again while nothing changed.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/webgame", timeout=10) as page:
            tag = page.headers["ETag"]
            assert page.headers["Content-Type"] == "text/html; charset=utf-8"
            assert "default-src 'none'" in page.headers["Content-Security-Policy"]  # no script
        again = urllib.request.Request(
            f"http://127.0.0.1:{port}/games/webgame", headers={"If-None-Match": tag}
        )
        with pytest.raises(urllib.error.HTTPError) as unchanged:
            urllib.request.urlopen(again, timeout=10)
        assert unchanged.value.code == 304
        request = urllib.request.Request(f"http://127.0.0.1:{port}/", method="POST", data=b"x")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 405
    finally:
        daemon.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_port_in_use_stops_the_start_with_the_reason(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        daemon = Daemon(_config(tmp_path, {"enabled": True, "port": port}))
        try:
            with pytest.raises(ServeError, match=f"cannot serve the web pages on 127.0.0.1:{port}"):
                daemon.start()
        finally:
            daemon.stop()


def test_set_web_with_another_word_is_refused_naming_the_words_expected() -> None:
    [fault] = read_mail_commands("SET WEB maybe")
    assert isinstance(fault, cv.CommandError)
    assert (fault.message, fault.expected) == ("expected ON or OFF after WEB", ("ON", "OFF"))


def test_set_web_by_mail_is_the_gms_and_hides_and_shows_the_game(
    tmp_path: Path, engine: Engine
) -> None:
    mail.send(engine, "CREATE quiet gmpw standard", sender="gm@example.org")
    rows = mail.send(engine, "SET WEB OFF", sender="p@example.org")
    assert "SET WEB is the GM's" in mail.body_of(rows[0])
    url = str(engine.url)
    site = make_site(url)
    try:
        assert "quiet" in site.respond("/").body.decode()
        rows = mail.send(engine, "SIGNON M quiet gmpw\nSET WEB OFF", sender="gm@example.org")
        assert "no web pages" in mail.body_of(rows[0])
        assert "quiet" not in site.respond("/").body.decode()
        assert site.respond("/games/quiet").status == 404
        mail.send(engine, "SIGNON M quiet gmpw\nSET WEB ON", sender="gm@example.org")
        assert site.respond("/games/quiet").status == 200
    finally:
        site.engine.dispose()
    rows = mail.send(engine, "HELP", sender="new@example.org")
    assert "SET WEB ON|OFF" in mail.body_of(rows[0])


def test_a_done_phase_is_built_once_and_the_board_again_after_each_phase(
    engine: Engine,
) -> None:
    mail.send(engine, "CREATE later gmpw standard", sender="gm@example.org")
    mail.send(engine, "SIGNON France later frpw", sender="fr@example.org")
    rows = mail.send(engine, "SIGNON M later gmpw\nFORCE BEGIN", sender="gm@example.org")
    assert any(r.kind == "results" or "game_forced" in r.kind for r in rows), [r.kind for r in rows]
    site = make_site(str(engine.url))
    try:
        mail.send(engine, "SIGNON M later gmpw\nPROCESS", sender="gm@example.org")
        first = site.respond("/games/later/S1901M")
        assert first.status == 200 and b"S1901M" in first.body
        board = site.respond("/games/later")
        built = site.built
        assert site.respond("/games/later/F1901M").headers["Location"] == "/games/later"
        mail.send(engine, "SIGNON M later gmpw\nPROCESS", sender="gm@example.org")
        assert site.respond("/games/later/S1901M").body == first.body
        assert site.built == built  # the done phase's page, kept
        now_board = site.respond("/games/later")
        assert site.built == built + 1 and now_board.body != board.body  # the board, anew
        assert b"F1901M" in site.respond("/games/later/F1901M").body
    finally:
        site.engine.dispose()


def _statements(site: Site) -> list[str]:
    seen: list[str] = []

    def count(*args: Any) -> None:
        if str(args[2]).strip() != "BEGIN":  # the snapshot's start, no read of its own
            seen.append(str(args[2]))

    event.listen(site.engine, "before_cursor_execute", count)
    return seen


def test_a_request_costs_one_read_and_a_done_phase_is_built_once(
    played: tuple[str, scripted.Scripted],
) -> None:
    url, _ = played
    site = make_site(url)
    try:
        for path in ("/", "/games/alpha", "/games/alpha/S1901M", "/games/alpha/feed"):
            site.respond(path, "http://x")
        built = site.built
        seen = _statements(site)
        for path in ("/", "/games/alpha", "/games/alpha/S1901M", "/games/alpha/press"):
            seen.clear()
            site.respond(path, "http://x")
            if path != "/games/alpha/press":
                assert len(seen) == 1, (path, seen)  # kept: the one read of its stamp
        assert site.built == built + 1  # the press page, asked the first time
        # The feed is kept once, whatever host it is asked at; its links are the asker's.
        built = site.built
        other = site.respond("/games/alpha/feed", "https://games.example.net")
        assert b'href="https://games.example.net/games/alpha/S1901M"' in other.body
        assert b"http://x" not in other.body and b"\x00" not in other.body
        assert site.built == built
        seen.clear()
        site.respond("/variants/standard")
        site.respond("/variants/standard")
        assert seen == []  # a variant's page reads nothing
    finally:
        site.engine.dispose()
