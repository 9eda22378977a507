"""Where the IMAP readers stand in a folder: two readers of one mailbox (the judge on two hosts)
that store their first mails at the same moment both record their place without an error.
"""

from __future__ import annotations

import threading

from sqlalchemy import Engine

from judge.store import session_scope
from judge.store.db import session_factory
from judge.store.imap_state import read_state, record


def test_two_readers_recording_a_folder_first_at_once_take_turns(engine: Engine) -> None:
    first = session_factory(engine)()
    errors: list[BaseException] = []

    def second() -> None:
        try:
            with session_scope(engine) as session:
                record(session, "judge@mail:143/INBOX", 7, 20)
        except BaseException as error:  # reported below
            errors.append(error)

    try:
        record(first, "judge@mail:143/INBOX", 7, 10)  # not committed yet
        racer = threading.Thread(target=second)
        racer.start()
        racer.join(timeout=0.5)  # on PostgreSQL it waits for the first to commit
        first.commit()
    finally:
        first.close()
    racer.join(timeout=60)
    assert not errors, errors
    with session_scope(engine) as session:
        assert read_state(session, "judge@mail:143/INBOX") == (7, 20)
