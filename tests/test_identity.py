"""A mail acts for a power only with its password or its reply address, never by its From: line."""

from __future__ import annotations

import pytest

from judge.identity import (
    TOKEN_ALPHABET,
    TOKEN_LENGTH,
    SeatCredentials,
    authenticate,
    hash_password,
    is_token,
    new_reply_token,
    normalise_address,
    password_needs_rehash,
    reply_to_address,
    token_from_recipients,
    verify_password,
)

JUDGE = "judge@dip.example.org"


@pytest.fixture(scope="module")
def france() -> SeatCredentials:
    """France in game alpha, held by alice, password 'rosebud' (hashed once for the module)."""
    return SeatCredentials(
        game="alpha",
        power="FRANCE",
        password_hash=hash_password("rosebud"),
        reply_token=new_reply_token(),
        addresses=("alice@Example.ORG", "alice.work@example.net"),
    )


def test_hash_verifies_its_password_and_no_other(france: SeatCredentials) -> None:
    stored = france.password_hash
    assert stored is not None and stored.startswith("$argon2id$")
    assert "rosebud" not in stored
    assert verify_password(stored, "rosebud")
    assert verify_password(stored, "  rosebud\n")  # spaces around a password are not part of it
    assert not verify_password(stored, "Rosebud")
    assert not verify_password(stored, "rosebu")
    assert not verify_password(stored, "")
    assert not verify_password(stored, None)
    assert not password_needs_rehash(stored)


def test_a_damaged_or_missing_hash_says_no_without_raising() -> None:
    assert not verify_password(None, "rosebud")
    assert not verify_password("not-a-hash", "rosebud")
    assert not verify_password("$argon2id$v=19$m=19456,t=2,p=1$AAAA$BBBB", "rosebud")
    assert password_needs_rehash("not-a-hash")


def test_two_hashes_of_one_password_differ() -> None:
    assert hash_password("same") != hash_password("same")


def test_an_empty_password_is_never_set() -> None:
    with pytest.raises(ValueError):
        hash_password("")
    with pytest.raises(ValueError):
        hash_password(" \t\n")


def test_tokens_are_lower_case_letters_and_digits_and_unique() -> None:
    tokens = {new_reply_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert len(token) == TOKEN_LENGTH
        assert set(token) <= set(TOKEN_ALPHABET)
        assert token == token.lower()
        assert is_token(token)
    assert not is_token("short")
    assert not is_token("UPPERCASEUPPERCA")
    assert not is_token("with-punctuation")


def test_reply_address_carries_the_token() -> None:
    token = new_reply_token()
    assert reply_to_address(JUDGE, token) == f"judge+{token}@dip.example.org"
    assert reply_to_address("Judge <judge@DIP.example.org>", token) == (
        f"judge+{token}@dip.example.org"
    )
    # A judge address that already carries a tag gets the token in its place.
    assert reply_to_address("judge+old@dip.example.org", token) == f"judge+{token}@dip.example.org"
    with pytest.raises(ValueError):
        reply_to_address("nobody", token)
    with pytest.raises(ValueError):
        reply_to_address(JUDGE, "Not A Token")


def test_token_round_trips_through_the_reply_address() -> None:
    token = new_reply_token()
    address = reply_to_address(JUDGE, token)
    assert token_from_recipients([address]) == token
    assert token_from_recipients([address], judge_address=JUDGE) == token
    # Some servers fold the local part to upper case on the way.
    assert token_from_recipients([address.upper()], judge_address=JUDGE) == token


def test_token_read_from_delivered_to_and_envelope_lists() -> None:
    token = new_reply_token()
    delivered_to = f"<judge+{token}@dip.example.org>"
    assert token_from_recipients([None, delivered_to]) == token
    # The SMTP listener keeps several envelope recipients joined by commas.
    envelope = f"gm@dip.example.org, judge+{token}@dip.example.org"
    assert token_from_recipients([envelope], judge_address=JUDGE) == token
    named = f'"Diplomacy Judge" <judge+{token}@dip.example.org>'
    assert token_from_recipients([named]) == token


def test_no_token_where_there_is_none_or_on_another_address() -> None:
    token = new_reply_token()
    assert token_from_recipients([]) is None
    assert token_from_recipients([None, ""]) is None
    assert token_from_recipients([JUDGE]) is None
    assert token_from_recipients(["judge+help@dip.example.org"]) is None
    assert token_from_recipients([f"alice+{token}@example.org"], judge_address=JUDGE) is None
    assert token_from_recipients([f"judge+{token}@elsewhere.org"], judge_address=JUDGE) is None
    # Without a judge address to check against, any +TOKEN of the right shape is read.
    assert token_from_recipients([f"alice+{token}@example.org"]) == token


def test_first_recipient_with_a_token_wins() -> None:
    first, second = new_reply_token(), new_reply_token()
    found = token_from_recipients(
        [f"judge+{first}@dip.example.org", f"judge+{second}@dip.example.org"]
    )
    assert found == first


def test_address_domains_compare_without_case() -> None:
    assert normalise_address("Alice@Example.ORG") == "Alice@example.org"
    assert normalise_address("Alice <alice@EXAMPLE.org>") == "alice@example.org"
    assert normalise_address(" <bob@Example.org> ") == "bob@example.org"


def test_reply_address_token_authorises_from_the_address_of_record(
    france: SeatCredentials,
) -> None:
    decision = authenticate("alice@example.org", france.reply_token, None, france)
    assert decision.authorised and decision.method == "token"
    assert decision.copy_to == ()


def test_password_authorises_from_any_address_and_copies_the_address_of_record(
    france: SeatCredentials,
) -> None:
    decision = authenticate("mallory@evil.example", None, "rosebud", france)
    assert decision.authorised and decision.method == "password"
    assert decision.copy_to == ("alice@example.org",)


def test_token_from_an_unknown_address_also_copies_the_address_of_record(
    france: SeatCredentials,
) -> None:
    decision = authenticate("alice@elsewhere.example", france.reply_token, None, france)
    assert decision.authorised and decision.method == "token"
    assert decision.copy_to == ("alice@example.org",)


def test_password_from_a_second_address_of_record_needs_no_copy(france: SeatCredentials) -> None:
    decision = authenticate("alice.work@EXAMPLE.NET", None, "rosebud", france)
    assert decision.authorised and decision.copy_to == ()


def test_forged_from_without_token_or_password_changes_nothing(france: SeatCredentials) -> None:
    decision = authenticate("alice@example.org", None, None, france)
    assert not decision.authorised and decision.method is None
    assert "neither the password nor your reply address" in decision.reason
    assert "FRANCE in game alpha" in decision.reason
    assert "forged" in decision.reason


def test_unknown_sender_without_token_or_password_is_told_why(france: SeatCredentials) -> None:
    decision = authenticate("mallory@evil.example", None, None, france)
    assert not decision.authorised
    assert decision.reason == (
        "this mail came from an address not on record for FRANCE in game alpha "
        "and carries neither the password nor your reply address"
    )
    assert decision.copy_to == ()


def test_wrong_password_refused_even_from_the_address_of_record(france: SeatCredentials) -> None:
    decision = authenticate("alice@example.org", None, "tulip", france)
    assert not decision.authorised
    assert "password given for FRANCE in game alpha is not the right one" in decision.reason


def test_another_seats_token_does_not_authorise(france: SeatCredentials) -> None:
    decision = authenticate("alice@example.org", new_reply_token(), None, france)
    assert not decision.authorised
    assert "reply address that is not the one for FRANCE" in decision.reason
    # ...but the right password beside it still does.
    assert authenticate("alice@example.org", new_reply_token(), "rosebud", france).authorised


def test_token_compared_without_case(france: SeatCredentials) -> None:
    assert france.reply_token is not None
    decision = authenticate("alice@example.org", france.reply_token.upper(), None, france)
    assert decision.authorised


def test_open_seat_cannot_be_acted_for() -> None:
    seat = SeatCredentials(game="alpha", power="ITALY", password_hash=None, reply_token=None)
    decision = authenticate("someone@example.org", None, "anything", seat)
    assert not decision.authorised
    assert "nobody holds ITALY in game alpha" in decision.reason
    assert not authenticate("someone@example.org", "", None, seat).authorised


def test_missing_sender_is_never_on_record(france: SeatCredentials) -> None:
    assert not authenticate(None, None, None, france).authorised
    decision = authenticate(None, None, "rosebud", france)
    assert decision.authorised and decision.copy_to == ("alice@example.org",)
