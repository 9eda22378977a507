"""The game desk: what the judge does with the commands of one readable mail.

Game commands (CREATE, SIGNON, JOIN, OBSERVE, LIST, PROCESS and orders for a seat) are applied
by judge.desk.games; a mail without them is answered with HELP or the echo of its order lines.
The entry point is `judge.desk.commands.handle`; the reply a command makes is
`judge.desk.replies.Reply`, and `judge.desk.answer.render_reply` renders one. This file imports
nothing, so that a desk module importing a sibling never imports the whole desk back.
"""
