"""What an outbox row's picture is drawn from, until the picture step has drawn it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add outbox.picture (JSON, NULL for every mail without a picture to draw): the sender
    claims no row that still has one (judge/pictures/step.py)."""
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("picture", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    """Drop the pictures' sources (a row waiting for its picture is then sent without it)."""
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("picture")
