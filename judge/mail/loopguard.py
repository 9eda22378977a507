"""Loop and abuse guards: never answer automated mail, and cap the mails one sender makes a day.

Answering a bounce or an auto-reply can start a mail loop between two robots; the daily cap stops
anyone (or anything) from making the judge a mail cannon. The cap counts every mail a sender's
mail makes the judge send (its replies, and press or notices to others), per sender: the
plus-addresses of one mailbox (`ann+1@example.org`, `ann+2@example.org`) are one sender.
"""

from __future__ import annotations

from collections.abc import Mapping
from email.utils import getaddresses
from enum import StrEnum

# The header every mail of the judge carries; its value is the judge's address.
LOOP_HEADER = "X-Judge-Loop"

# The kinds of multipart/report (RFC 6522) and why each is no person's mail.
_REPORTS = {
    "delivery-status": "a delivery status report",
    "disposition-notification": "a read receipt (disposition notification)",
    "feedback-report": "an abuse or feedback-loop report (ARF)",
}

_BOUNCE_LOCALPARTS = {"mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon"}


def automated_reason(
    headers: Mapping[str, str], envelope_from: str | None, own_address: str
) -> str | None:
    """Why this mail must get no answer (bounce, auto-reply, list, our own), or None.

    `headers` has lower-case names; `envelope_from` is the SMTP return path if known ('' for <>).
    """
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return "empty return path (a bounce)"
    return_path = headers.get("return-path")
    if return_path is not None and return_path.strip() in ("<>", ""):
        return "empty return path (a bounce)"
    loop = headers.get(LOOP_HEADER.lower())
    if loop is not None:
        return "the judge's own mail"
    auto = headers.get("auto-submitted")
    if auto is not None:
        value = auto.split(";")[0].strip().lower()
        if value != "no":
            return f"Auto-Submitted: {value}"
    precedence = (headers.get("precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list"):
        return f"Precedence: {precedence}"
    listed = sorted(name for name in headers if name.startswith("list-"))
    if listed:
        return f"mailing-list header {listed[0]}"
    if "x-autoreply" in headers or "x-autorespond" in headers:
        return "auto-reply header"
    suppress = (headers.get("x-auto-response-suppress") or "").lower()
    if any(word in suppress for word in ("all", "oof", "autoreply")):
        return "X-Auto-Response-Suppress (an automatic reply)"
    content_type = (headers.get("content-type") or "").lower()
    kind = content_type.split(";")[0].strip()
    if kind == "multipart/report":
        for report, reason in _REPORTS.items():
            if report in content_type:
                return reason
        return "a report (multipart/report)"
    if kind == "message/rfc822":
        return "a mail that is only another mail (a complaint or feedback loop's copy)"
    if "feedback-type" in headers:
        return "a feedback report (Feedback-Type)"
    pairs = getaddresses([headers.get("from", "")])
    sender = (pairs[0][1] if pairs else "").strip().lower()
    local = sender.split("@")[0]
    if local in _BOUNCE_LOCALPARTS:
        return f"sent by {local}"
    if own_address and sender == own_address.strip().lower():
        return "From: is the judge itself"
    return None


def sender_key(address: str) -> str:
    """The sender an address counts as for the daily cap and any per-sender throttling: lower
    case, with a plus-address's `+anything` dropped, since anyone owning `ann@example.org` can
    write from `ann+1@`, `ann+2@` ... at will. Replies still go to the address as written.
    """
    key = address.strip().lower()
    local, at, domain = key.rpartition("@")
    if not at:
        return key
    base = local.split("+", 1)[0]
    return f"{base or local}@{domain}"


class ReplyDecision(StrEnum):
    """What the daily cap allows for one more reply to an address."""

    SEND = "send"
    NOTICE = "notice"
    SILENT = "silent"
