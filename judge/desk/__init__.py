"""The game desk: what the judge does with the commands of one readable mail.

Game commands (CREATE, SIGNON, JOIN, OBSERVE, LIST, PROCESS and orders for a seat) are applied
by judge.desk.games; a mail without them is answered with HELP or the echo of its order lines.
"""

from judge.desk.answer import render_reply
from judge.desk.commands import Reply, Where, handle

__all__ = ["Reply", "Where", "handle", "render_reply"]
