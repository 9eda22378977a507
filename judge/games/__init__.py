"""Games by mail: deadlines, reminders and missed turns as pure functions over plain values.

Nothing here reads a clock, a database or a mailbox: the caller passes the moment and the seats,
and gets back what is due and what changed (see README.md beside this file).
"""
