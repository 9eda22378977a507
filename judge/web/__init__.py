"""The judge's read-only web pages: the games, each game's board, results, public press and
Atom feed, and each variant's summary, showing what an observer may read and nothing more.

`judge serve` runs them beside the mail when `[web] enabled` is set (off by default). Every
page is built from the desk's own views of what an observer may know (judge.desk.history:
the observer's results and press; SUMMARY's public seats; the pictures for OBSERVERS), kept in
memory per phase, and checked for freshness by one read of the store per request. README.md
beside this file says how and why.
"""
