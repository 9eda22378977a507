"""The game desk: what the judge does with the commands of one readable mail.

For now it knows HELP and echoes order lines back as the judge understood them, without a game
behind them; that is enough to prove the plumbing from inbox to outbox.
"""

from judge.desk.commands import Reply, handle

__all__ = ["Reply", "handle"]
