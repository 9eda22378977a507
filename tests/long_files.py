"""The suite's long test files, read by tests/conftest.py to collect them first."""

# Test files that take a minute or more, longest first: they are collected before the rest, so
# that with test.sh's two workers (`--dist loadfile --no-loadscope-reorder`) they start first
# and the many short files fill the gaps at the end. xdist's own reordering puts files with
# few tests last, which left one worker running the longest of them alone at the end.
LONG_FIRST = (
    "tests/e2e/test_maildir_storm.py",
    "tests/e2e/test_scripted_game.py",
    "tests/variants/algernon/test_leaks.py",
    "tests/e2e/test_scripted_mercator.py",
    "tests/e2e/test_picture_storm.py",
    "tests/variants/v1885/test_1885_cases_by_mail.py",
    "tests/e2e/test_crash.py",
    "tests/e2e/test_scripted_1885.py",
    "tests/e2e/test_variant_help_and_start.py",
    "tests/e2e/test_variant_orders_on_arrival.py",
    "tests/web/test_browser.py",
    "tests/e2e/test_two_hosts.py",
    "tests/mail/test_imap_inbound.py",
    "tests/e2e/test_scripted_mercenary.py",
)
