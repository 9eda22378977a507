"""Observers confirm by reply: each observer row gets the token of its confirmation address and
the moment it was confirmed (rows already there were made by the old OBSERVE and stay observing).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add observers.confirm_token and observers.confirmed_at; the existing rows count as confirmed."""
    with op.batch_alter_table("observers") as batch:
        batch.add_column(sa.Column("confirm_token", sa.String(16), nullable=True))
        batch.add_column(sa.Column("confirmed_at", sa.DateTime(), nullable=True))
        batch.create_unique_constraint("uq_observers_confirm_token", ["confirm_token"])
    op.execute("UPDATE observers SET confirmed_at = created_at")


def downgrade() -> None:
    """Drop the confirmation token and moment."""
    with op.batch_alter_table("observers") as batch:
        batch.drop_constraint("uq_observers_confirm_token", type_="unique")
        batch.drop_column("confirmed_at")
        batch.drop_column("confirm_token")
