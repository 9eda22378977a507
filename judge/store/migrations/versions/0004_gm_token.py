"""A reply token per game for its GM: mail to judge+TOKEN@domain acts as the game's master.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from judge.identity import new_reply_token

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add games.gm_token (unique) and give every game made before it a token of its own, so
    the GM of an older game can reply to the judge's mails too."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("gm_token", sa.String(32), nullable=True))
        batch.create_unique_constraint("uq_games_gm_token", ["gm_token"])
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column("gm_token", sa.String(32)))
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.select(games.c.id)).all():
        connection.execute(
            games.update().where(games.c.id == game_id).values(gm_token=new_reply_token())
        )


def downgrade() -> None:
    """Drop the GM's reply token."""
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_gm_token", type_="unique")
        batch.drop_column("gm_token")
